import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpProblem } from './problems.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

/**
 * Double-submit XSRF protection. Every response to a request without the cookie sets a random
 * `XSRF-TOKEN` cookie (readable by the page's script, SameSite=Strict); the `xsrf` security scheme
 * of openapi.yaml then requires the `X-XSRF-TOKEN` header to equal it.
 */
export function registerXsrfCookie(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.cookies[XSRF_COOKIE]) return;
    reply.setCookie(XSRF_COOKIE, crypto.randomBytes(32).toString('base64url'), {
      path: '/',
      sameSite: 'strict',
      secure: request.protocol === 'https',
      httpOnly: false,
    });
  });
}

export async function checkXsrf(request: FastifyRequest): Promise<void> {
  const cookie = request.cookies[XSRF_COOKIE];
  const header = request.headers[XSRF_HEADER];
  if (!cookie || typeof header !== 'string' || header.length !== cookie.length ||
      !crypto.timingSafeEqual(Buffer.from(header), Buffer.from(cookie))) {
    throw new HttpProblem(403, 'xsrf-token-mismatch', 'the X-XSRF-TOKEN header must equal the XSRF-TOKEN cookie');
  }
}
