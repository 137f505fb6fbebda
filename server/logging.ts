import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';

/**
 * What the server's log may hold. Requests are logged with their method and URL, and some URLs carry
 * a credential in their query: the signature of a signed media or upload location, the token of an
 * invitation link (the SPA's /register page), the single-sign-on token of a portal link
 * (/videos?xwikiid=). Their values are replaced by `[redacted]`; the path and the other parameters
 * (e.g. `expires`) stay, so a request can still be followed. Credential headers
 * are never serialised, and redacted should a record ever carry them.
 */

/**
 * Query parameters whose values are credentials (compared ignoring case); `xwikiid` is the
 * single-sign-on token of the organisation's portal link, `/videos?xwikiid=<JWT>` (SPEC.md "Single sign-on").
 */
export const SECRET_QUERY_PARAMETERS = ['signature', 'invitation', 'token', 'taotoken', 'xwikiid'];

/** The signature a streaming location carries in its path: `/api/media/{id}/s/{expires}/{signature}/`. */
const STREAM_SIGNATURE = /^(\/api\/media\/[^/?]+\/s\/[^/?]+\/)[^/?]+/;

export function redactUrl(logged: string): string {
  const url = logged.replace(STREAM_SIGNATURE, '$1[redacted]');
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const [name = '', ...value] = pair.split('=');
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed name is logged as it came
      }
      return value.length > 0 && SECRET_QUERY_PARAMETERS.includes(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

/** pino options of the server: the configured level, requests serialised without credentials. */
export function loggerOptions(config: Pick<Config, 'logLevel'>): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-xsrf-token"]'],
    serializers: {
      // Fastify's own request serialiser, with the URL's credentials redacted
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}

/**
 * One line per request, written when its answer has gone: the request (method, URL without
 * credentials, host, address), the answer's status and the time taken, under the request's id.
 * Fastify's default is two lines, "incoming request" and "request completed", each serialised and
 * written: about 40 µs of the ~250 µs of CPU a list request took under load
 * (docs/decisions/0051-request-log-and-redaction.md). A request whose client went away before its answer gets a line of its own
 * (registerRequestLog); errors, refusals and broken-off streams are logged as before.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** The line of a request whose client closed the connection before it was answered. */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequestAbort', async (request) => {
    request.log.info({ req: request }, 'request aborted by the client');
  });
}
