import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ContentTypeParserSpec, ServerModule } from '../context.ts';
import type { SecuritySchemes } from '../plugins/security.ts';
import type { Contract, OperationSpec } from './contract.ts';
import { prepareOperations, registerMethodNotAllowed, registerOperations } from './register-operations.ts';

/**
 * Parsers that hand a request body over as it arrives (the request stream), for files sent to an
 * operation as they are. `types` as in openapi.yaml: exact media types or `type/*`.
 */
export function streamedBody(types: string[]): ContentTypeParserSpec[] {
  const passThrough = async (_request: FastifyRequest, payload: IncomingMessage) => payload;
  return types.map((type) => ({
    contentType: type.endsWith('/*') ? new RegExp(`^${type.slice(0, -1).replace(/[.+]/g, '\\$&')}`, 'i') : type,
    parser: passThrough,
  }));
}

/** Fastify reads these without help (application/json is parsed with prototype-poisoning protection). */
const BUILT_IN = ['application/json', 'text/plain'];

/** A media type a parser reads (`video/*` stands for any video type). */
function parses(spec: ContentTypeParserSpec, mediaType: string): boolean {
  const sample = mediaType.endsWith('/*') ? `${mediaType.slice(0, -1)}x-any` : mediaType;
  return typeof spec.contentType === 'string' ? spec.contentType.toLowerCase() === sample : spec.contentType.test(sample);
}

function isJson(mediaType: string): boolean {
  return BUILT_IN.includes(mediaType) || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

function addParser(scope: FastifyInstance, spec: ContentTypeParserSpec): void {
  switch (spec.parseAs) {
    case 'string':
      return scope.addContentTypeParser(spec.contentType, { parseAs: 'string' }, spec.parser);
    case 'buffer':
      return scope.addContentTypeParser(spec.contentType, { parseAs: 'buffer' }, spec.parser);
    default:
      return scope.addContentTypeParser(spec.contentType, spec.parser);
  }
}

export class ModuleConflictError extends Error {
  override name = 'ModuleConflictError';
}

/**
 * Wires the server modules to the contract, checking at start what would otherwise surface as a
 * surprise later: an operation claimed by two modules, a handler for an operation openapi.yaml does
 * not have, a body limit for another module's operation, a security scheme implemented twice, and a
 * request body type no parser of the module reads. Each module's operations are registered in a scope
 * of their own with its parsers and plugin; operations no module handles answer 501; a known path with
 * a method it does not have answers 405.
 */
export async function registerModules(
  app: FastifyInstance,
  contract: Contract,
  modules: ServerModule[],
  core: { schemes: Partial<SecuritySchemes> },
): Promise<{ unimplemented: string[] }> {
  const label = (index: number) => `"${modules[index]!.name ?? `module #${index + 1}`}"`;
  const known = new Map(contract.operations.map((op) => [op.operationId, op]));
  const owner = new Map<string, number>();
  modules.forEach((module, index) => {
    for (const operationId of Object.keys(module.handlers)) {
      if (!known.has(operationId)) throw new ModuleConflictError(`module ${label(index)} has a handler for ${operationId}, which openapi.yaml does not define`);
      const first = owner.get(operationId);
      if (first !== undefined) {
        throw new ModuleConflictError(`operation ${operationId} is claimed by two modules: ${label(first)} and ${label(index)}; exactly one may handle it`);
      }
      owner.set(operationId, index);
    }
    for (const operationId of Object.keys(module.bodyLimits ?? {})) {
      if (!(operationId in module.handlers)) {
        throw new ModuleConflictError(`module ${label(index)} sets a body limit for ${operationId}, which it does not handle`);
      }
    }
  });

  const schemes: Record<string, unknown> = { ...core.schemes };
  const schemeOwner = new Map<string, string>(Object.keys(core.schemes).map((name) => [name, '"core"']));
  modules.forEach((module, index) => {
    for (const [name, scheme] of Object.entries(module.security ?? {})) {
      const first = schemeOwner.get(name);
      if (first) throw new ModuleConflictError(`security scheme ${name} is implemented twice: by ${first} and by ${label(index)}`);
      schemeOwner.set(name, label(index));
      schemes[name] = scheme;
    }
  });

  prepareOperations(app);
  // JSON media types of the contract (application/json-patch+json …) are read as JSON, whoever handles them.
  const jsonTypes = new Set(contract.operations.flatMap((op) => op.body?.contentTypes ?? []).filter((t) => isJson(t) && !BUILT_IN.includes(t)));
  for (const type of jsonTypes) app.addContentTypeParser(type, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  const operationsOf = (index: number): OperationSpec[] => contract.operations.filter((op) => owner.get(op.operationId) === index);
  for (const [index, module] of modules.entries()) {
    const operations = operationsOf(index);
    const parsers = module.contentTypeParsers ?? [];
    for (const op of operations) {
      for (const type of op.body?.contentTypes ?? []) {
        if (!isJson(type) && !parsers.some((p) => parses(p, type))) {
          throw new ModuleConflictError(
            `module ${label(index)} handles ${op.operationId}, which accepts ${type}, but declares no content-type parser for it (contentTypeParsers, e.g. streamedBody(['${type}']))`,
          );
        }
      }
    }
    await app.register(async (scope) => {
      for (const spec of parsers) addParser(scope, spec);
      if (module.plugin) await module.plugin(scope, {});
      registerOperations(scope, operations, module.handlers, schemes as unknown as SecuritySchemes, module.bodyLimits);
    });
  }

  // Operations no module handles yet answer 501 whatever body type the contract lets them accept.
  const unclaimed = contract.operations.filter((op) => !owner.has(op.operationId));
  const otherTypes = new Set(unclaimed.flatMap((op) => op.body?.contentTypes ?? []).filter((t) => !isJson(t)));
  await app.register(async (scope) => {
    for (const spec of streamedBody([...otherTypes])) addParser(scope, spec);
    registerOperations(scope, unclaimed, {}, schemes as unknown as SecuritySchemes);
  });
  registerMethodNotAllowed(app, contract);
  return { unimplemented: unclaimed.map((op) => op.operationId) };
}
