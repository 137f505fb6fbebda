import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Contract, OperationSpec, Schema } from './contract.ts';
import type { Handlers } from './handlers.ts';
import { HttpProblem } from '../plugins/problems.ts';
import { enforceSecurity, type SecuritySchemes } from '../plugins/security.ts';
import { bodyAjv, compileTextValidator } from './validation.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    operationId?: string;
    /** false while no module supplies the operation's handler (it answers 501) */
    implemented?: boolean;
  }
}

function objectSchema(params: OperationSpec['parameters'], where: 'path' | 'query' | 'header'): Schema | undefined {
  const selected = params.filter((p) => p.in === where);
  if (selected.length === 0) return undefined;
  const name = (n: string) => (where === 'header' ? n.toLowerCase() : n);
  return {
    type: 'object',
    properties: Object.fromEntries(selected.map((p) => [name(p.name), p.schema])),
    required: selected.filter((p) => p.required).map((p) => name(p.name)),
  };
}

/**
 * The schemas of the operation's JSON answers, keyed as Fastify takes them (`4XX` as `4xx`): Fastify
 * then writes what a handler answers with fast-json-stringify from the contract's schema, so what
 * the contract does not name is not sent. Other content types (media) have no serializer.
 */
function responseSchemas(op: OperationSpec): Record<string, { content: Record<string, { schema: Schema }> }> | undefined {
  const response: Record<string, { content: Record<string, { schema: Schema }> }> = {};
  for (const [status, byType] of Object.entries(op.responses)) {
    const content: Record<string, { schema: Schema }> = {};
    for (const [type, schema] of Object.entries(byType)) if (schema && type.includes('json')) content[type] = { schema };
    if (Object.keys(content).length > 0) response[status.replace(/XX$/, 'xx')] = { content };
  }
  return Object.keys(response).length > 0 ? response : undefined;
}

function mediaMatches(contentType: string, accepted: string[]): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return accepted.some((a) => (a.endsWith('/*') ? type.startsWith(a.slice(0, -1)) : type === a));
}

function hasBody(request: FastifyRequest): boolean {
  return Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
}

/**
 * The first text of a request part holding U+0000 (`body.nombre`, `query.q`, …). PostgreSQL cannot store
 * it in text and refuses any statement that carries it; no name, title or search of this API has a use
 * for it, so it is refused on both databases alike.
 */
function nulField(value: unknown, where: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? where : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = nulField(item, `${where}.${i}`);
      if (found) return found;
    }
    return undefined;
  }
  // objects of parsed JSON and query strings (whatever their prototype); a streamed body (an upload) is not text
  if (value && typeof value === 'object' && !Buffer.isBuffer(value) && typeof (value as { pipe?: unknown }).pipe !== 'function') {
    for (const [key, item] of Object.entries(value)) {
      const found = nulField(item, `${where}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

const notImplemented = async (request: FastifyRequest): Promise<never> => {
  throw new HttpProblem(501, 'not-implemented', `${request.routeOptions.config.operationId ?? 'this operation'} is not implemented yet`);
};

/**
 * What every operation route needs, set once on the root instance before any route: the request
 * decorations the security schemes fill, and the validators (bodies as sent; path, query and headers
 * as text, integers in decimal digits only).
 */
export function prepareOperations(app: FastifyInstance): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('pending', null);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    // Ajv's validate function is what Fastify expects: it returns false and lists `errors`.
    if (httpPart !== 'body') return compileTextValidator(schema as Schema);
    const { [OPTIONAL_BODY]: optional, ...bodySchema } = schema as Schema;
    const validate = bodyAjv.compile(bodySchema);
    if (!optional) return validate;
    // An optional body that was not sent is valid (Fastify would check `null` against the schema); a
    // JSON `null` that was sent is checked like any other body. Fastify passes the request as parentData
    // to a validator that has a schemaEnv.
    const validateOptional = (data: unknown, context?: { parentData?: FastifyRequest }) => {
      const request = context?.parentData;
      const sent = !request || hasBody(request);
      const valid = (!sent && (data === null || data === undefined)) || validate(data);
      validateOptional.errors = valid ? null : validate.errors;
      return valid;
    };
    validateOptional.errors = null as typeof validate.errors;
    validateOptional.schemaEnv = validate.schemaEnv;
    return validateOptional;
  });
}

/** Marks the body schema of an operation whose request body is optional (`requestBody.required: false`). */
const OPTIONAL_BODY = 'x-optional-body';

/**
 * Registers operations of the contract as routes on `app` (the root, or a module's own scope):
 * security first (onRequest, before the body is read), then the content type, then Ajv validation
 * of path, query, headers and body against openapi.yaml, then no text holding U+0000, then the
 * handler. An operation without a handler answers 501.
 */
export function registerOperations(
  app: FastifyInstance,
  operations: OperationSpec[],
  handlers: Handlers,
  schemes: SecuritySchemes,
  bodyLimits: Partial<Record<string, number>> = {},
): void {
  for (const op of operations) {
    const handler = (handlers as Record<string, unknown>)[op.operationId] as
      | ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>)
      | undefined;
    const schema: RouteShorthandOptions['schema'] = {};
    const params = objectSchema(op.parameters, 'path');
    const querystring = objectSchema(op.parameters, 'query');
    const headers = objectSchema(op.parameters, 'header');
    if (params) schema.params = params;
    if (querystring) schema.querystring = querystring;
    if (headers) schema.headers = headers;
    const response = responseSchemas(op);
    if (response) schema.response = response;
    if (op.body?.schema) schema.body = op.body.required ? op.body.schema : { ...op.body.schema, [OPTIONAL_BODY]: true };
    const accepted = op.body?.contentTypes ?? [];
    const bodyLimit = bodyLimits[op.operationId];

    app.route({
      method: op.method,
      url: op.url,
      schema,
      config: { operationId: op.operationId, implemented: handler !== undefined },
      ...(bodyLimit ? { bodyLimit } : {}),
      onRequest: async (request) => enforceSecurity(request, op.security, schemes),
      preParsing: async (request, _reply, payload) => {
        const contentType = request.headers['content-type'];
        const sent = hasBody(request);
        if (op.body && sent && (!contentType || !mediaMatches(contentType, accepted))) {
          throw new HttpProblem(415, 'unsupported-media-type', `send the body as ${accepted.join(' or ')}`);
        }
        if (op.body?.required && !sent) {
          throw new HttpProblem(400, 'validation-error', 'body: is required', [{ field: 'body', message: 'is required' }]);
        }
        return payload;
      },
      // after validation, so that a request that breaks its schema is answered for that first
      preHandler: async (request) => {
        const field = nulField(request.params, 'params') ?? nulField(request.query, 'query') ?? nulField(request.body, 'body');
        if (field) throw new HttpProblem(400, 'validation-error', `${field}: must not contain the character U+0000`, [{ field, message: 'must not contain the character U+0000' }]);
      },
      handler: async (request, reply) => {
        const result = await (handler ?? notImplemented)(request, reply);
        if (reply.sent) return reply;
        return result;
      },
    });
  }
}

/**
 * A path of the contract called with a method it does not have answers 405 `method-not-allowed` with
 * `Allow` listing the methods it has (HEAD wherever GET is, as Fastify answers HEAD from GET).
 * Answered on request, before any body is read. Unknown paths stay 404.
 */
export function registerMethodNotAllowed(app: FastifyInstance, contract: Contract): void {
  const byUrl = new Map<string, Set<string>>();
  for (const op of contract.operations) {
    const methods = byUrl.get(op.url) ?? new Set<string>();
    methods.add(op.method);
    if (op.method === 'GET') methods.add('HEAD');
    byUrl.set(op.url, methods);
  }
  for (const [url, methods] of byUrl) {
    const allow = [...methods].sort().join(', ');
    const others = app.supportedMethods.filter((m) => !methods.has(m));
    if (others.length === 0) continue;
    app.route({
      method: others,
      url,
      onRequest: async (request) => {
        throw new HttpProblem(405, 'method-not-allowed', `${request.method} is not an operation of this path; it allows ${allow}`, undefined, {
          Allow: allow,
        });
      },
      handler: async () => {
        throw new HttpProblem(405, 'method-not-allowed', `this path allows ${allow}`, undefined, { Allow: allow });
      },
    });
  }
}
