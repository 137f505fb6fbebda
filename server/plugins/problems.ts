import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { components } from '../../contract/openapi.gen.ts';
import { setSecurityHeaders } from './security-headers.ts';

export type ProblemType = components['schemas']['ProblemType'];
export type ProblemBody = components['schemas']['Problem'];

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** An error the API answers as application/problem+json. Throw it from any handler, hook or service. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly type: ProblemType,
    readonly detail?: string,
    readonly errors?: ProblemBody['errors'],
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? type);
    this.name = 'HttpProblem';
  }

  toBody(): ProblemBody {
    return {
      type: this.type,
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      ...(this.detail ? { detail: this.detail } : {}),
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

/** A problem's `field`: the request part, then the path into it with dots (`query.since`, `body.0.value`). */
export type FieldName = 'params' | 'query' | 'header' | 'body' | `${'params' | 'query' | 'header' | 'body'}.${string}`;

/** 400 `validation-error` naming one field, worded as Ajv's refusals are: `detail` is `<field>: <message>`. */
export function invalidField(field: FieldName, message: string): HttpProblem {
  return new HttpProblem(400, 'validation-error', `${field}: ${message}`, [{ field, message }]);
}

export function sendProblem(reply: FastifyReply, problem: HttpProblem): FastifyReply {
  if (problem.headers) reply.headers(problem.headers);
  return reply.code(problem.status).type('application/problem+json').send(problem.toBody());
}

interface AjvError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
  /** with Ajv's `verbose`: the schema holding the failing keyword */
  parentSchema?: Record<string, unknown>;
}

/** The request parts as a client names them: Fastify's `querystring` and `headers` are `query` and `header`, as OpenAPI's `in`. */
const PARTS: Record<string, string> = { querystring: 'query', headers: 'header', params: 'params', body: 'body' };

/**
 * Where a validation error sits, as a client reads it: the request part, then the path into it with
 * dots (`body.user`, `body.0.value`, `query.tag`, `params.id`, `header.content-range`). Every problem's
 * `field` has this one form (openapi.yaml's Problem says so with a pattern).
 */
function fieldOf(context: string | undefined, e: AjvError): string {
  const prefix = PARTS[context ?? 'body'] ?? context ?? 'body';
  // Ajv's instancePath is a JSON Pointer: `/0/value`, with `~1` for a `/` and `~0` for a `~` inside a key
  const segments = (e.instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const extra = e.params?.missingProperty ?? e.params?.additionalProperty;
  if (typeof extra === 'string') segments.push(extra);
  return [prefix, ...segments].join('.');
}

/** The pattern openapi.yaml's TextWithoutNul gives every free text of a request. */
const WITHOUT_NUL = '^[^\\u0000]*$';
export const NUL_MESSAGE = 'must not contain the character U+0000';

/**
 * What is wrong, in a few words. A schema of openapi.yaml may word its own (`x-problem-message`) for
 * what its lengths and pattern refuse: a pattern alone reads as a riddle ("must match pattern ^\s*\S…").
 */
function messageOf(e: AjvError): string {
  if (e.keyword === 'additionalProperties') return 'unknown field';
  if (e.keyword === 'required') return 'is required';
  if (e.keyword === 'pattern' && e.params?.pattern === WITHOUT_NUL) return NUL_MESSAGE;
  const own = e.parentSchema?.['x-problem-message'];
  if (typeof own === 'string' && (e.keyword === 'pattern' || e.keyword === 'minLength' || e.keyword === 'maxLength')) return own;
  return e.message ?? 'is invalid';
}

/**
 * The problem type of a failed validation: `validation-error`, unless the failing schema of openapi.yaml
 * names its own with `x-problem-type` (a new password too short or too long is `invalid-password`).
 */
function validationTypeOf(e: AjvError | undefined): ProblemType {
  const own = e?.parentSchema?.['x-problem-type'];
  return typeof own === 'string' ? (own as ProblemType) : 'validation-error';
}

/** Turns any error into a problem: validation, body parsing and limits are the client's fault, the rest ours. */
export function toProblem(error: FastifyError & { validation?: AjvError[]; validationContext?: string }): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error.validation) {
    const all = error.validation.map((e) => ({ field: fieldOf(error.validationContext, e), message: messageOf(e) }));
    // a U+0000 is named alone: the other branches of a oneOf (a sign-in by password or by token) have nothing to say about it
    const nul = all.find((e) => e.message === NUL_MESSAGE);
    const errors = nul ? [nul] : all;
    const first = errors[0];
    const type = nul ? 'validation-error' : validationTypeOf(error.validation[0]);
    return new HttpProblem(400, type, first ? `${first.field}: ${first.message}` : 'invalid request', errors);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpProblem(413, 'payload-too-large', 'the request body is larger than allowed');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpProblem(415, 'unsupported-media-type', 'this content type is not accepted here');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new HttpProblem(400, 'validation-error', 'body: a JSON body is required', [{ field: 'body', message: 'is required' }]);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpProblem(400, 'validation-error', 'the content length does not match the body');
    case 'FST_ERR_BAD_URL':
      return new HttpProblem(400, 'validation-error', 'the URL path is not validly percent-encoded');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new HttpProblem(400, 'validation-error', 'a path segment is longer than any this API accepts');
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new HttpProblem(400, 'validation-error', 'body: malformed JSON', [{ field: 'body', message: 'malformed JSON' }]);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const byStatus: Partial<Record<number, ProblemType>> = {
      401: 'invalid-access-token',
      403: 'access-denied',
      404: 'resource-not-found',
      405: 'method-not-allowed',
      408: 'request-timeout',
      413: 'payload-too-large',
      415: 'unsupported-media-type',
      416: 'range-not-satisfiable',
      431: 'request-header-fields-too-large',
    };
    const type = byStatus[status] ?? 'validation-error';
    return new HttpProblem(status, type, error.message);
  }
  if (status === 503) return new HttpProblem(503, 'service-unavailable', 'the server cannot serve this request now; try again later');
  if (isBusyDatabase(error)) {
    return new HttpProblem(503, 'service-unavailable', 'the database is busy with other writes; try again', undefined, { 'Retry-After': '1' });
  }
  return new HttpProblem(500, 'internal-server-error', 'unexpected error; it has been logged');
}

/**
 * A write that could not get the database in time: SQLite still locked by another connection after
 * its busy time-out (a second instance, a long import, a backup), PostgreSQL's lock time-out, a
 * deadlock or serialisation failure it broke. Nothing was written; the same request can succeed a
 * moment later, so it is a 503 with Retry-After, not an unexpected failure.
 */
export function isBusyDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code === '55P03' || code === '40001' || code === '40P01';
}

/**
 * Logs a refused or failed request. Unexpected failures are errors, with their stack. A 5xx the app
 * answers on purpose (501 for an operation not built yet, 503 while a dependency is missing) is an
 * expected answer: a warning, without a stack. Refusals (4xx) are information.
 */
function logProblem(request: FastifyRequest, error: unknown, problem: HttpProblem): void {
  const deliberate = (error instanceof HttpProblem || isBusyDatabase(error)) && problem.status !== 500;
  if (problem.status >= 500 && !deliberate) request.log.error({ err: error }, 'request failed');
  else if (problem.status >= 500) request.log.warn({ type: problem.type, detail: problem.detail }, 'request not served');
  else request.log.info({ type: problem.type, detail: problem.detail }, 'request refused');
}

/** Every error of the app becomes problem+json; unexpected 5xx are logged with their stack, never shown. */
export function registerProblemHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = toProblem(error);
    logProblem(request, error, problem);
    return sendProblem(reply, problem);
  });

  // Fastify's own 503 while closing is plain JSON (`return503OnClosing` is off in buildApp): requests that
  // still arrive on open connections while the server drains get a problem instead, before any other hook.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('Connection', 'close');
    throw new HttpProblem(503, 'service-unavailable', 'the server is shutting down; try again');
  });
}

/**
 * Errors Fastify meets before a route is chosen (a path that is not valid percent-encoding, a path
 * segment over `maxParamLength`, an async constraint failing) are answered as problems too.
 * Pass as the `frameworkErrors` option of Fastify.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, request, reply) => {
  const problem = toProblem(error);
  logProblem(request, error, problem);
  // no route, so none of the app's onSend hooks: the headers every answer carries are set here
  setSecurityHeaders(request, reply);
  sendProblem(reply, problem);
};

/**
 * Errors Node's HTTP parser meets before Fastify sees a request: headers over the size limit (431),
 * a request that took too long to arrive (408), malformed HTTP (400). Node leaves the answer to this
 * handler; it writes a problem straight on the socket and closes it. Pass as `clientErrorHandler`.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const problem =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new HttpProblem(431, 'request-header-fields-too-large', 'the request line and headers are larger than the server accepts')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new HttpProblem(408, 'request-timeout', 'the request did not arrive in time')
        : new HttpProblem(400, 'validation-error', 'the request is not valid HTTP');
  this.log.info({ code: error.code, type: problem.type }, 'connection refused');
  if (socket.writable) {
    const body = JSON.stringify(problem.toBody());
    socket.write(
      `HTTP/1.1 ${problem.status} ${http.STATUS_CODES[problem.status]}\r\n` +
        'Content-Type: application/problem+json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
