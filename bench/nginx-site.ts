/**
 * Debian's nginx running one site file of deploy/ (with its names and ports already replaced) inside
 * a configuration of our own: its prefix, logs and temporary paths under `prefix`, one worker, in
 * the foreground. Used by bench/https-proxy.ts (deploy/nginx-https.conf) and bench/instances.ts
 * (deploy/nginx.conf).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopChild } from './child-process.ts';

export interface NginxSite {
  child: ChildProcess;
  /** What nginx wrote to stdout, stderr and its error log. */
  log(): string;
  /** A graceful stop (SIGQUIT), waited for. */
  stop(): Promise<void>;
}

const TEMP_KINDS = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];

export async function startNginxSite(options: {
  binary: string;
  prefix: string;
  site: string;
  /** More lines for the `http` block (an access log, a header). */
  httpLines?: string[];
  /** True once the site answers as expected. */
  ready: () => Promise<boolean>;
  timeoutMs?: number;
}): Promise<NginxSite> {
  const { binary, prefix } = options;
  fs.mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  for (const kind of TEMP_KINDS) fs.mkdirSync(path.join(prefix, 'temp', kind), { recursive: true });
  // Started as root, nginx's worker runs as nobody: it must reach the prefix (mkdtemp makes 0700
  // directories) and write its temporary files.
  for (let at = prefix; at.startsWith(os.tmpdir()) && at !== os.tmpdir(); at = path.dirname(at)) fs.chmodSync(at, 0o755);
  fs.chmodSync(path.join(prefix, 'temp'), 0o755);
  for (const kind of TEMP_KINDS) fs.chmodSync(path.join(prefix, 'temp', kind), 0o777);
  fs.writeFileSync(path.join(prefix, 'site.conf'), options.site);
  const errorLog = path.join(prefix, 'logs/error.log');
  const config = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(
    config,
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${prefix}/nginx.pid;`,
      `error_log ${errorLog} warn;`,
      'events { worker_connections 256; }',
      'http {',
      ...(options.httpLines ?? ['access_log off;']).map((line) => `  ${line}`),
      ...TEMP_KINDS.map((kind) => `  ${kind}_temp_path ${prefix}/temp/${kind};`),
      `  include ${prefix}/site.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  let out = '';
  const child = spawn(binary, ['-p', `${prefix}/`, '-c', config, '-e', errorLog], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const log = () => out + (fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : '');
  const stop = () => stopChild(child, 'SIGQUIT');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${log()}`);
    if (await options.ready().catch(() => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not answer within ${timeoutMs / 1000} s: ${log()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, log, stop };
}
