import net from 'node:net';
import { Writable } from 'node:stream';
import injectRaw from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSyntheticApp, syntheticModule } from '../../tests/utils/synthetic-api.ts';
import { call, startTestServer } from '../../tests/utils/server-harness.ts';
import { HttpProblem } from './problems.ts';

/** Sends raw bytes to a listening server and answers what comes back until the server closes the connection. */
function rawExchange(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => (chunks.length ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(error)));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(request);
  });
}

function parseRaw(answer: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, ...rest] = answer.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head!.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n')) };
}

describe('errors met before an operation is chosen are problems too', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let port: number;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    const violations = server.violations;
    await server.close();
    expect(violations, 'responses that do not match openapi.yaml').toEqual([]);
  });

  it('a path that is not valid percent-encoding (FST_ERR_BAD_URL) is 400 problem+json', async () => {
    for (const url of ['/api/videos/%FF', '/api/register-invitations/%E0%A4%A', '/api/no-such/%FF']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type'], url).toContain('application/problem+json');
      expect(res.json(), url).toMatchObject({ type: 'validation-error', status: 400, title: 'Bad Request', detail: 'the URL path is not validly percent-encoded' });
      // the security headers of every answer
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('a path segment longer than the router takes (FST_ERR_MAX_PARAM_LENGTH) is 400 problem+json, not a plain 414', async () => {
    const res = await server.app.inject({ method: 'GET', url: `/api/videos/${'1'.repeat(150)}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ type: 'validation-error', status: 400 });
  });

  it('headers over Node\'s size limit are 431 request-header-fields-too-large as problem+json', async () => {
    const answer = await rawExchange(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    const res = parseRaw(answer);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(answer.split('\r\n\r\n')[1]!));
    expect(res.body).toEqual({
      type: 'request-header-fields-too-large',
      title: 'Request Header Fields Too Large',
      status: 431,
      detail: 'the request line and headers are larger than the server accepts',
    });
  });

  it('a request that is not HTTP at all is 400 validation-error as problem+json', async () => {
    const res = parseRaw(await rawExchange(port, 'GET /api/health HTTP/1.1\r\nHost x\r\nContent-Length: nope\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.body).toMatchObject({ type: 'validation-error', status: 400, detail: 'the request is not valid HTTP' });
  });

  it('the server still answers normally over the network (the handler above is only for broken requests)', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });
});

describe('a server that is shutting down', () => {
  it('answers requests still arriving with 503 service-unavailable as problem+json, and closes the connection', async () => {
    const server = await startTestServer('sqlite');
    await server.close();
    // the router of a closed app: what a request on a still-open connection meets while the server drains
    const res = await injectRaw(server.app.routing, { method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.headers.connection).toBe('close');
    expect(res.json()).toMatchObject({ type: 'service-unavailable', status: 503, title: 'Service Unavailable' });
  });
});

describe('how problems are logged', () => {
  let app: FastifyInstance;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    app = await buildSyntheticApp(
      [
        syntheticModule({
          name: 'broken',
          handlers: {
            boom: async () => {
              throw new Error('kaput');
            },
            createThing: async () => {
              throw new HttpProblem(503, 'service-unavailable', 'the disk is not mounted');
            },
          },
        }),
      ],
      { logStream: stream },
    );
  });
  afterAll(async () => app.close());

  /** What the error handler logged since `from` (Fastify's own request/response lines aside). */
  const problemLogSince = (from: number) => lines.slice(from).filter((l) => typeof l.msg === 'string' && /^request (not served|failed|refused)$/.test(l.msg));

  it('501 not-implemented is an expected answer: a warning without a stack', async () => {
    const before = lines.length;
    const res = await app.inject({ method: 'GET', url: '/api/things/1' });
    expect(res.statusCode).toBe(501);
    const [entry, ...more] = problemLogSince(before);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ level: 40, msg: 'request not served', type: 'not-implemented', detail: 'getThing is not implemented yet' });
    expect(JSON.stringify(entry)).not.toContain('stack');
    expect(lines.some((l) => l.level === 50)).toBe(false);
  });

  it('another 5xx the app answers on purpose is a warning too; an unexpected error is an error with its stack', async () => {
    const deliberate = await app.inject({ method: 'POST', url: '/api/things' });
    expect(deliberate.statusCode).toBe(503);
    const warned = lines.filter((l) => l.type === 'service-unavailable');
    expect(warned).toEqual([expect.objectContaining({ level: 40, msg: 'request not served', detail: 'the disk is not mounted' })]);

    const res = await app.inject({ method: 'GET', url: '/api/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ type: 'internal-server-error', title: 'Internal Server Error', status: 500, detail: 'unexpected error; it has been logged' });
    const failed = lines.filter((l) => l.level === 50);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ msg: 'request failed', err: { message: 'kaput', stack: expect.stringContaining('Error: kaput') } });
  });

  it('a refusal (4xx) is information', async () => {
    const before = lines.length;
    const res = await app.inject({ method: 'GET', url: '/api/things/0x1' });
    expect(res.statusCode).toBe(400);
    const entries = problemLogSince(before);
    expect(entries).toEqual([expect.objectContaining({ level: 30, type: 'validation-error' })]);
  });
});

describe('the field a validation problem names', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    const violations = server.violations;
    await server.close();
    expect(violations, 'responses that do not match openapi.yaml').toEqual([]);
  });

  it('is the request part, then the path into it with dots: params, query, header, body', async () => {
    const signed = `expires=1&signature=${'a'.repeat(43)}`;
    const cases = [
      { url: '/api/media/not*an*id/video.mp4?' + signed, field: 'params.id' },
      { url: '/api/media/abcdefgh/video.mp4?expires=soon&signature=' + 'a'.repeat(43), field: 'query.expires' },
      { url: '/api/media/abcdefgh/video.mp4?' + signed, headers: { range: 'x'.repeat(201) }, field: 'header.range' },
      { url: '/api/login', method: 'POST' as const, payload: { user: 'ana', password: 'whatever-1', extra: 1 }, field: 'body.extra' },
    ];
    for (const c of cases) {
      const res = await call(server.app, { method: c.method ?? 'GET', url: c.url, headers: c.headers, payload: c.payload });
      expect(res.statusCode, c.url).toBe(400);
      const problem = res.json() as { type: string; detail: string; errors: Array<{ field: string }> };
      expect([problem.type, problem.errors[0]?.field], c.url).toEqual(['validation-error', c.field]);
      expect(problem.detail.startsWith(`${c.field}: `), problem.detail).toBe(true);
    }
  });
});
