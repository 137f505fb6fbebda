/**
 * Debian's nginx running deploy/nginx-https.conf in front of a running product, as an organisation
 * serves it (README, "Behind HTTPS"): only the file's names, ports and certificate paths are
 * replaced (127.0.0.1, free ports, a self-signed certificate made by `openssl` for a day). Used by
 * tests/e2e/reverse-proxy.test.ts and by bench/lighthouse.ts (`BENCH_LIGHTHOUSE_HTTPS=1`).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './built-server.ts';
import { startNginxSite } from './nginx-site.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export interface HttpsProxy {
  /** https://127.0.0.1:<port>: the product through nginx (HTTP/2). */
  httpsUrl: string;
  /** http://127.0.0.1:<port>: answers with a redirect to httpsUrl. */
  httpUrl: string;
  /** What nginx wrote to stderr and its error log. */
  log(): string;
  stop(): Promise<void>;
}

/** deploy/nginx-https.conf with these names, ports and certificate, as an operator edits it. */
export function httpsSiteConfig(ports: { http: number; https: number; product: number }, certificate: { cert: string; key: string }): string {
  const site = fs.readFileSync(path.join(root, 'deploy/nginx-https.conf'), 'utf8');
  const replaced = site
    .replaceAll('videos.example.org', '127.0.0.1')
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${ports.product};`)
    .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`)
    .replace(/^\s*listen \[::\]:\d+.*$/gm, '')
    .replace('return 301 https://$host$request_uri;', `return 301 https://$host:${ports.https}$request_uri;`)
    .replace('/etc/letsencrypt/live/127.0.0.1/fullchain.pem', certificate.cert)
    .replace('/etc/letsencrypt/live/127.0.0.1/privkey.pem', certificate.key);
  // Every edit above must have found its line: an edit that finds nothing would run another file.
  for (const expected of [
    `server 127.0.0.1:${ports.product};`,
    `:${ports.http};`,
    `:${ports.https} ssl http2;`,
    `https://$host:${ports.https}`,
    certificate.cert,
    certificate.key,
  ]) {
    if (!replaced.includes(expected)) throw new Error(`deploy/nginx-https.conf changed: could not set ${expected}`);
  }
  return replaced;
}

export async function startHttpsProxy(productUrl: string): Promise<HttpsProxy> {
  if (!fs.existsSync(NGINX)) throw new Error(`nginx is not installed at ${NGINX}: run \`apt-get install -y nginx\` (.ci/run does) or set NGINX_PATH.`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-https-proxy-'));
  const cert = path.join(work, 'cert.pem');
  const key = path.join(work, 'key.pem');
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert]);
  const ports = { http: await freePort(), https: await freePort(), product: Number(new URL(productUrl).port) };
  const httpUrl = `http://127.0.0.1:${ports.http}`;
  const nginx = await startNginxSite({
    binary: NGINX,
    prefix: path.join(work, 'nginx'),
    site: httpsSiteConfig(ports, { cert, key }),
    ready: async () => (await fetch(`${httpUrl}/`, { redirect: 'manual' })).status === 301,
  }).catch((error: unknown) => {
    fs.rmSync(work, { recursive: true, force: true });
    throw error;
  });
  return {
    httpsUrl: `https://127.0.0.1:${ports.https}`,
    httpUrl,
    log: nginx.log,
    async stop() {
      await nginx.stop();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
