/**
 * How much the contract costs per request: routing, security, Ajv validation against openapi.yaml,
 * problem answers. Prints requests per second and memory for a few representative calls, in-process
 * (Fastify inject, no sockets), on the embedded SQLite database: each case is timed in several rounds
 * (median and spread of the rounds).
 *
 *   npx tsx bench/api-overhead.ts [requests per round, default 1000] [rounds, default 5]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { formatSummary, markdownTable, reportSection, summarize } from './report.ts';

const iterations = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 5);
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

console.log(`node ${process.version}, ${os.cpus().length} cores, ${rounds} rounds of ${iterations} requests per case`);
const rows: string[][] = [];
for (const c of cases) {
  for (let i = 0; i < 200; i++) await app.inject(c.req); // warm up
  const perSecond: number[] = [];
  const micros: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await app.inject(c.req);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    perSecond.push(iterations / (ms / 1000));
    micros.push((ms * 1000) / iterations);
  }
  const rate = summarize(perSecond);
  const latency = summarize(micros);
  console.log(`${c.name.padEnd(50)} ${rate.median.toFixed(0).padStart(7)} req/s  ${latency.median.toFixed(1).padStart(7)} µs/req  (spread ${rate.spreadPercent.toFixed(0)} %)`);
  rows.push([c.name, formatSummary(rate, 0, 'req/s'), `${latency.median.toFixed(1)} µs`]);
}
const mem = process.memoryUsage();
const memory = `rss ${(mem.rss / 2 ** 20).toFixed(1)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(1)} MiB`;
console.log(`memory: ${memory}`);
reportSection(
  'api-overhead',
  'API overhead per request (in-process)',
  `What the contract machinery costs per request (routing, security, Ajv validation against openapi.yaml, problem answers): ` +
    `Fastify \`inject\` (no sockets) on the embedded SQLite database, one request at a time, ${rounds} rounds of ${iterations} ` +
    `requests per case after 200 to warm up. No goal: a figure to compare over time.\n\n` +
    markdownTable(['request', 'requests per second', 'median time per request'], rows) +
    `\n\nProcess memory at the end: ${memory}.`,
);
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
