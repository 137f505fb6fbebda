import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Contract, OperationSpec, Schema } from './contract.ts';
import type { Handlers } from './handlers.ts';
import { HttpProblem } from '../plugins/problems.ts';
import { enforceSecurity, type SecuritySchemes } from '../plugins/security.ts';
import { bodyAjv, textAjv } from './validation.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    operationId?: string;
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

function mediaMatches(contentType: string, accepted: string[]): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return accepted.some((a) => (a.endsWith('/*') ? type.startsWith(a.slice(0, -1)) : type === a));
}

const notImplemented = async (request: FastifyRequest): Promise<never> => {
  throw new HttpProblem(501, 'not-implemented', `${request.routeOptions.config.operationId ?? 'this operation'} is not implemented yet`);
};

/**
 * Registers every operation of the contract as a route: security first (onRequest, before the
 * body is read), then the content type, then Ajv validation of path, query, headers and body
 * against openapi.yaml, then the handler. An operation without a handler answers 501.
 */
export function registerOperations(
  app: FastifyInstance,
  contract: Contract,
  handlers: Handlers,
  schemes: SecuritySchemes,
  bodyLimits: Partial<Record<string, number>> = {},
): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('pending', null);

  app.setValidatorCompiler(({ schema, httpPart }) => {
    // Ajv's validate function is what Fastify expects: it returns false and lists `errors`.
    return (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as Schema);
  });

  for (const op of contract.operations) {
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
    if (op.body?.schema) schema.body = op.body.schema;
    const accepted = op.body?.contentTypes ?? [];
    const bodyLimit = bodyLimits[op.operationId];

    app.route({
      method: op.method,
      url: op.url,
      schema,
      config: { operationId: op.operationId },
      ...(bodyLimit ? { bodyLimit } : {}),
      onRequest: async (request) => enforceSecurity(request, op.security, schemes),
      preParsing: async (request, _reply, payload) => {
        const contentType = request.headers['content-type'];
        const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
        if (op.body && hasBody && (!contentType || !mediaMatches(contentType, accepted))) {
          throw new HttpProblem(415, 'unsupported-media-type', `send the body as ${accepted.join(' or ')}`);
        }
        if (op.body?.required && !hasBody) {
          throw new HttpProblem(400, 'validation-error', 'body: is required', [{ field: 'body', message: 'is required' }]);
        }
        return payload;
      },
      handler: async (request, reply) => {
        const result = await (handler ?? notImplemented)(request, reply);
        if (reply.sent) return reply;
        return result;
      },
    });
  }
}
