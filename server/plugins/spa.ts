import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpProblem, sendProblem } from './problems.ts';
import { contentSecurityPolicy } from './security-headers.ts';

/**
 * Serves the built SPA: hashed files under /assets/ are cached for a year, index.html never;
 * any other GET that accepts HTML falls back to index.html (client-side routes).
 * Unknown /api paths answer a problem, never the SPA.
 * Every text file has its .br and .gz beside it, written by the build (vite.config.ts): they are
 * sent as they are to a client that accepts them (`preCompressed`, with `Vary: Accept-Encoding`),
 * index.html too (it is the same file for every request). Source maps are not in the served
 * directory (dist/client-private).
 * A page of the app has its own copy of index.html when the build wrote one (pages/pages.json,
 * scripts/route-pages.ts): the same document with its route's code and styles preloaded, and on the
 * signed-in pages the early reads' inline script, which their Content-Security-Policy allows by its
 * hash (pages/inline-scripts.json).
 */
export async function registerSpa(app: FastifyInstance, clientDir: string): Promise<void> {
  const indexFile = path.join(clientDir, 'index.html');
  const hasClient = fs.existsSync(indexFile);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      prefix: '/',
      index: false,
      wildcard: true,
      preCompressed: true,
      setHeaders(res, filePath) {
        const rel = path.relative(clientDir, filePath);
        res.header('Cache-Control', rel.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ clientDir }, 'no built client found: run `npm run build` (only /api is served)');
  }

  const pages = hasClient ? readRoutePages(clientDir) : [];
  const pagePolicy = contentSecurityPolicy(hasClient ? readInlineScriptHashes(clientDir) : []);
  const documentFor = (url: string) => {
    const pathname = url.split('?')[0]!;
    return pages.find((page) => page.pattern.test(pathname))?.file;
  };
  const sendIndex = (reply: FastifyReply, url = '/') => {
    const page = documentFor(url);
    if (page) reply.header('Content-Security-Policy', pagePolicy);
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile(page ?? 'index.html');
  };
  if (hasClient) {
    // The directory itself: @fastify/static would refuse it (no listing); the SPA starts here.
    app.get('/', async (_request, reply) => sendIndex(reply));
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      return sendProblem(reply, new HttpProblem(404, 'resource-not-found', `no operation ${request.method} ${request.url.split('?')[0]}`));
    }
    const acceptsHtml = (request.headers.accept ?? '*/*').includes('text/html') || (request.headers.accept ?? '').includes('*/*');
    if (hasClient && (request.method === 'GET' || request.method === 'HEAD') && acceptsHtml && !path.extname(request.url.split('?')[0]!)) {
      return sendIndex(reply, request.url);
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
}

/** The build's per-page documents (pages/pages.json), or none: an older build has only index.html. */
function readRoutePages(clientDir: string): Array<{ pattern: RegExp; file: string }> {
  const listFile = path.join(clientDir, 'pages', 'pages.json');
  if (!fs.existsSync(listFile)) return [];
  const listed = JSON.parse(fs.readFileSync(listFile, 'utf8')) as Array<{ pattern: string; file: string }>;
  return listed
    .filter((page) => fs.existsSync(path.join(clientDir, page.file)))
    .map((page) => ({ pattern: new RegExp(page.pattern), file: page.file }));
}

/** The hashes of the inline scripts the build wrote into the pages (pages/inline-scripts.json), or none. */
function readInlineScriptHashes(clientDir: string): string[] {
  const listFile = path.join(clientDir, 'pages', 'inline-scripts.json');
  if (!fs.existsSync(listFile)) return [];
  const listed = JSON.parse(fs.readFileSync(listFile, 'utf8')) as unknown;
  // Only hash sources: a file that said more could not widen what the policy allows.
  return Array.isArray(listed) ? listed.filter((hash): hash is string => typeof hash === 'string' && /^'sha256-[A-Za-z0-9+/]+=*'$/.test(hash)) : [];
}
