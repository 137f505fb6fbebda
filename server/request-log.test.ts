import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { loggerOptions } from './logging.ts';
import { XSRF } from '../tests/utils/server-harness.ts';

/**
 * The server's request log as shipped (loggerOptions at the default level, info): one line per
 * request, written when its answer has gone, with what Fastify's two lines held between them.
 */
describe('the request log: one line per request', () => {
  let app: FastifyInstance;
  let dataDir: string;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-request-log-'));
    const config = loadConfig({ DATA_DIR: dataDir, CLIENT_DIR: path.join(dataDir, 'no-client'), HOST: '127.0.0.1', PORT: '0' });
    expect(config.logLevel).toBe('info');
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    app = await buildApp({ config, logger: { ...loggerOptions(config), stream } });
    await app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const recordsOf = (reqId: unknown) => lines.filter((l) => l.reqId === reqId);
  const port = () => (app.server.address() as net.AddressInfo).port;

  /** The one record of the request to `url` that completed: the request, its answer and the time. */
  async function completed(url: string, init?: RequestInit) {
    const res = await fetch(`http://127.0.0.1:${port()}${url}`, init);
    await res.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const record = lines.findLast((l) => l.msg === 'request completed' && (l.req as { url?: string } | undefined)?.url?.startsWith(url.split('?')[0]!));
    expect(record, `no line for ${url}`).toBeDefined();
    return { status: res.status, record: record!, all: recordsOf(record!.reqId) };
  }

  it('a request is one line: method, URL, status and time, under its id', async () => {
    const { status, record, all } = await completed('/api/health');
    expect(status).toBe(200);
    expect(record).toMatchObject({ level: 30, req: { method: 'GET', url: '/api/health', remoteAddress: '127.0.0.1' }, res: { statusCode: 200 } });
    expect(record.responseTime).toEqual(expect.any(Number));
    expect(all).toHaveLength(1);
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
  });

  it('a refused request is one line with its status, besides the refusal', async () => {
    const { status, record, all } = await completed('/api/videos?limit=5');
    expect(status).toBe(401);
    expect(record).toMatchObject({ req: { method: 'GET', url: '/api/videos?limit=5' }, res: { statusCode: 401 } });
    expect(all.filter((l) => l.msg === 'request completed')).toHaveLength(1);
  });

  it("the line's URL holds no credential", async () => {
    const { record } = await completed('/api/media/asset_x/video.mp4?expires=1&signature=s3cr3t-signature');
    expect((record.req as { url: string }).url).toBe('/api/media/asset_x/video.mp4?expires=1&signature=[redacted]');
    expect(JSON.stringify(lines)).not.toContain('s3cr3t-signature');
  });

  it('a request whose client went away before its answer gets a line too', async () => {
    const socket = net.connect(port(), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n' +
        `Cookie: XSRF-TOKEN=${XSRF}\r\nX-XSRF-TOKEN: ${XSRF}\r\n\r\n{"user":`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await expect.poll(() => lines.find((l) => l.msg === 'request aborted by the client'), { timeout: 2000 }).toMatchObject({ req: { method: 'POST', url: '/api/login' } });
  });
});
