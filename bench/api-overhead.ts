/**
 * How much the contract costs per request: routing, security, Ajv validation against openapi.yaml,
 * problem answers. Prints requests per second and memory for a few representative calls, in-process
 * (Fastify inject, no sockets), on the embedded SQLite database.
 *
 *   npx tsx bench/api-overhead.ts [iterations]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';

const iterations = Number(process.argv[2] ?? 5000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-'));
const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_DIR: path.join(dataDir, 'none') }), logger: false });
await app.ready();

const xsrf = { cookie: 'XSRF-TOKEN=bench-token-0123456789', 'x-xsrf-token': 'bench-token-0123456789' };
const cases = [
  { name: 'GET /api/health (database round trip)', req: { method: 'GET' as const, url: '/api/health' } },
  { name: 'POST /api/login, invalid body (validation 400)', req: { method: 'POST' as const, url: '/api/login', headers: xsrf, payload: { user: 1, password: 'x' } } },
  { name: 'GET /api/me without a token (security 401)', req: { method: 'GET' as const, url: '/api/me' } },
  { name: 'GET /api/nope (unknown path, 404 problem)', req: { method: 'GET' as const, url: '/api/nope' } },
];

console.log(`node ${process.version}, ${os.cpus().length} cores, ${iterations} requests per case`);
for (const c of cases) {
  for (let i = 0; i < 200; i++) await app.inject(c.req); // warm up
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await app.inject(c.req);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(`${c.name.padEnd(50)} ${(iterations / (ms / 1000)).toFixed(0).padStart(7)} req/s  ${((ms * 1000) / iterations).toFixed(1).padStart(7)} µs/req`);
}
const mem = process.memoryUsage();
console.log(`memory: rss ${(mem.rss / 2 ** 20).toFixed(1)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(1)} MiB`);
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
