import type { FastifyInstance } from 'fastify';
import type { ValidateFunction } from 'ajv';
import { decoded } from '../plugins/compression.ts';
import type { Contract } from './contract.ts';
import { responseAjv } from './validation.ts';

export interface ResponseViolation {
  operationId: string;
  method: string;
  url: string;
  status: number;
  reason: string;
}

/**
 * Checks every /api response against openapi.yaml (used by the tests): the status must be
 * documented for the operation, the content type declared, and a JSON body must match its schema.
 * A violation is recorded and logged; tests fail on any recorded violation.
 */
export function validateResponses(app: FastifyInstance, contract: Contract, violations: ResponseViolation[]): void {
  const byId = new Map(contract.operations.map((op) => [op.operationId, op]));
  const cache = new Map<string, ValidateFunction>();

  app.addHook('onSend', async (request, reply, payload) => {
    const operationId = request.routeOptions.config.operationId;
    const url = request.url;
    if (!url.startsWith('/api/')) return payload;
    const status = reply.statusCode;
    const record = (reason: string) => {
      const v = { operationId: operationId ?? '(no operation)', method: request.method, url, status, reason };
      violations.push(v);
      request.log.error(v, 'response does not match openapi.yaml');
    };
    const contentType = String(reply.getHeader('content-type') ?? '').split(';')[0]!.trim();
    if (!operationId) {
      // Unknown /api routes must still answer a problem.
      if (status < 400 || contentType !== 'application/problem+json') record('an unknown /api route must answer problem+json');
      return payload;
    }
    const op = byId.get(operationId)!;
    // an exact status, else its range (4XX), else default: the order OpenAPI gives them
    const documented = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
    if (!documented) {
      record(`status ${status} is not documented`);
      return payload;
    }
    const types = Object.keys(documented);
    if (types.length === 0) {
      if (payload !== undefined && payload !== null && payload !== '') record(`status ${status} has no content but a body was sent`);
      return payload;
    }
    if (!types.includes(contentType)) {
      record(`content type "${contentType}" is not one of ${types.join(', ')}`);
      return payload;
    }
    const schema = documented[contentType];
    if (!schema || !contentType.includes('json')) return payload;
    const key = `${operationId} ${status} ${contentType}`;
    let validate = cache.get(key);
    if (!validate) {
      validate = responseAjv.compile(schema);
      cache.set(key, validate);
    }
    let body: unknown;
    try {
      body =
        typeof payload === 'string'
          ? JSON.parse(payload)
          : Buffer.isBuffer(payload)
            ? JSON.parse(decoded(payload, reply.getHeader('content-encoding')).toString('utf8'))
            : undefined;
    } catch {
      record('the body is not JSON');
      return payload;
    }
    if (body !== undefined && !validate(body)) {
      record(responseAjv.errorsText(validate.errors, { dataVar: 'response' }));
    }
    return payload;
  });
}
