/**
 * What the benchmarks that drive the BUILT product share: starting it as `npm run serve` does
 * (node <dist>/server/server/main.js, the same environment as tests/e2e/harness.ts startProduct) on a
 * data directory the caller keeps across restarts, killing it (SIGKILL included), the CPU time it
 * spent, and a JSON call with the double-submit XSRF pair.
 *
 * The build is dist/ (`npm run build`) or TAO_DIST (`scripts/build-apart.sh <name>` writes
 * .tmp/<name>/dist), as for the end-to-end tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as OTPAuth from 'otpauth';

const root = path.resolve(import.meta.dirname, '..');
export const dist = path.resolve(root, process.env.TAO_DIST ?? 'dist');
const XSRF = 'bench-xsrf-token-0123456789';

export function checkBuilt(): void {
  if (!fs.existsSync(path.join(dist, 'server/server/main.js')) || !fs.existsSync(path.join(dist, 'client/index.html'))) {
    throw new Error(`The product is not built in ${dist}: run \`npm run build\` (or scripts/build-apart.sh <name> and set TAO_DIST=.tmp/<name>/dist).`);
  }
}

/**
 * The built server's `buildApp` (<dist>/server/server/app.js, compiled by tsc as `npm run serve` runs
 * it), for the benchmarks that start the app in a process of their own and measure its CPU: run from
 * the TypeScript sources through tsx instead, every function carries esbuild's `keepNames` wrapping and
 * source-mapped stacks, which the shipped server does not
 * (docs/decisions/0059-benchmarks-and-results.md). Only the server's part of the build is needed.
 */
export async function builtBuildApp(): Promise<typeof import('../server/app.ts').buildApp> {
  const file = path.join(dist, 'server/server/app.js');
  if (!fs.existsSync(file)) throw new Error(`The server is not built in ${dist}: run \`npm run build\` (or \`npm run build:server\`).`);
  const module = (await import(pathToFileURL(file).href)) as typeof import('../server/app.ts');
  return module.buildApp;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface BuiltServer {
  url: string;
  pid: number;
  child: ChildProcess;
  /** everything it printed */
  output: () => string;
  /** the one-time first-administrator invitation token it printed, if any */
  firstAdminToken: () => string | undefined;
  /** SIGKILL (no chance to finish anything), and waits for the exit */
  kill9(): Promise<void>;
  /** SIGTERM (a graceful stop), and waits for the exit; answers the exit code */
  stop(): Promise<number | null>;
}

/** Starts the built server on `port` with `dataDir` (kept: the caller removes it) and waits until it answers. */
export async function startBuiltServer(options: { dataDir: string; port: number; env?: Record<string, string> }): Promise<BuiltServer> {
  checkBuilt();
  const url = `http://127.0.0.1:${options.port}`;
  let out = '';
  const child = spawn(process.execPath, [path.join(dist, 'server/server/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      CLIENT_DIR: path.join(dist, 'client'),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      await res.arrayBuffer();
      if (res.ok && /running at/.test(out)) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    pid: child.pid!,
    child,
    output: () => out,
    firstAdminToken: () => out.match(/\/register\?invitation=([A-Za-z0-9_-]+)/)?.[1],
    async kill9() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (running()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      return child.exitCode;
    },
  };
}

/** CPU time (user + system, seconds) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // after the command: state(0) … utime(11) stime(12) cutime(13) cstime(14), in clock ticks (100 per second on Linux)
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
}

export interface ApiAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A JSON call to the API as the app makes it (bearer token, double-submit XSRF). Never throws on a status. */
export async function api<T = unknown>(base: string, method: string, url: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiAnswer<T>> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      Cookie: `XSRF-TOKEN=${XSRF}`,
      'X-XSRF-TOKEN': XSRF,
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let body: unknown = text;
  if (text && /json/.test(response.headers.get('content-type') ?? '')) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: body as T };
}

/** Like `api`, but anything other than `expected` is an error naming the call and the answer. */
export async function apiOk<T = unknown>(base: string, method: string, url: string, expected: number, options: Parameters<typeof api>[3] = {}): Promise<T> {
  const answer = await api<T>(base, method, url, options);
  if (answer.status !== expected) throw new Error(`${method} ${url} answered ${answer.status} (expected ${expected}): ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer.body;
}

/**
 * Registers a person from an invitation token through the real API and enrols the second factor
 * with the code an authenticator computes: answers the session token.
 */
export async function registerWithInvitation(base: string, invitation: string, user: string, password: string): Promise<string> {
  const registered = await apiOk<{ token: string; otp: { uri: string } }>(base, 'POST', '/api/register', 200, { body: { user, password, token: invitation } });
  const totp = OTPAuth.URI.parse(registered.otp.uri) as OTPAuth.TOTP;
  const session = await apiOk<{ token: string }>(base, 'POST', '/api/mfa', 200, { token: registered.token, body: { user, mfaCode: totp.generate() } });
  return session.token;
}
