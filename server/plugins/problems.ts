import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { components } from '../../contract/openapi.gen.ts';

export type ProblemType = components['schemas']['ProblemType'];
export type ProblemBody = components['schemas']['Problem'];

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  429: 'Too Many Requests',
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

export function sendProblem(reply: FastifyReply, problem: HttpProblem): FastifyReply {
  if (problem.headers) reply.headers(problem.headers);
  return reply.code(problem.status).type('application/problem+json').send(problem.toBody());
}

interface AjvError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** `body.user`, `query.tag`, `params.id`: where a validation error sits, as a client reads it. */
function fieldOf(context: string | undefined, e: AjvError): string {
  const prefix = context === 'querystring' ? 'query' : (context ?? 'body');
  const segments = (e.instancePath ?? '').split('/').filter(Boolean);
  const extra = e.params?.missingProperty ?? e.params?.additionalProperty;
  if (typeof extra === 'string') segments.push(extra);
  return [prefix, ...segments].join('.');
}

function messageOf(e: AjvError): string {
  if (e.keyword === 'additionalProperties') return 'unknown field';
  if (e.keyword === 'required') return 'is required';
  return e.message ?? 'is invalid';
}

/** Turns any error into a problem: validation, body parsing and limits are the client's fault, the rest ours. */
export function toProblem(error: FastifyError & { validation?: AjvError[]; validationContext?: string }): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error.validation) {
    const errors = error.validation.map((e) => ({ field: fieldOf(error.validationContext, e), message: messageOf(e) }));
    const first = errors[0];
    return new HttpProblem(400, 'validation-error', first ? `${first.field}: ${first.message}` : 'invalid request', errors);
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
      413: 'payload-too-large',
      415: 'unsupported-media-type',
      416: 'range-not-satisfiable',
    };
    const type = byStatus[status] ?? 'validation-error';
    return new HttpProblem(status, type, error.message);
  }
  return new HttpProblem(500, 'internal-server-error', 'unexpected error; it has been logged');
}

/** Every error of the app becomes problem+json; 5xx are logged with their stack, never shown. */
export function registerProblemHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = toProblem(error);
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ type: problem.type, detail: problem.detail }, 'request refused');
    return sendProblem(reply, problem);
  });
}
