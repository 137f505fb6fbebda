import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import type { RunningProduct } from './harness.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** `npm run cli -- <args>` on the product's data directory (the same database the server uses). */
export async function cli(product: RunningProduct, args: string[], timeoutMs = 120_000): Promise<string> {
  const { stdout } = await run(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: product.dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    timeout: timeoutMs,
    maxBuffer: 10 * 1024 * 1024,
  });
  return stdout;
}

/** A person's session as the browser keeps it. */
export interface SignedIn {
  user: string;
  token: string;
}

/** A request to the real API as a client sends it (JSON, double-submit XSRF, optional bearer token): its response, whatever the status. */
export function fetchApi(product: RunningProduct, method: string, url: string, body?: unknown, bearer?: string): Promise<Response> {
  // Double-submit XSRF: any value, the same in the cookie and the header.
  const xsrf = 'e2e-xsrf-token';
  return fetch(`${product.url}${url}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      Cookie: `XSRF-TOKEN=${xsrf}`,
      'X-XSRF-TOKEN': xsrf,
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A call to the real API that must succeed: its JSON body (throws on a refusal). */
export async function callApi(
  product: RunningProduct,
  method: string,
  url: string,
  body?: unknown,
  bearer?: string,
): Promise<Record<string, unknown>> {
  const response = await fetchApi(product, method, url, body, bearer);
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

const post = (product: RunningProduct, url: string, body: unknown, bearer?: string) => callApi(product, 'POST', url, body, bearer);

/**
 * Registers a person through the real API from an invitation made by the CLI (`invite`), enrols
 * the second factor with the code an authenticator computes from the answered URI, and answers the
 * session token — what the UI walk of tests/e2e/accounts.test.ts does by hand.
 */
export async function registerThroughApi(
  product: RunningProduct,
  user: string,
  { admin = false, org }: { admin?: boolean; org?: string } = {},
): Promise<SignedIn> {
  const args = ['invite', `${user}@example.org`, ...(admin ? ['--admin'] : []), ...(org ? ['--org', org] : [])];
  const link = (await cli(product, args)).match(/\/register\?invitation=([A-Za-z0-9_-]+)/)?.[1];
  if (!link) throw new Error(`the CLI printed no invitation link for ${user}`);
  const password = 'correct horse battery staple';
  const registered = await post(product, '/api/register', { user, password, token: link });
  const otp = registered.otp as { uri: string };
  const totp = OTPAuth.URI.parse(otp.uri) as OTPAuth.TOTP;
  const session = await post(product, '/api/mfa', { user, mfaCode: totp.generate() }, registered.token as string);
  return { user, token: session.token as string };
}

/** Opens the product signed in as `who`: the token is where the app keeps it (local storage 'token'). */
export async function openSignedIn(page: Page, product: RunningProduct, who: SignedIn, path = '/videos'): Promise<void> {
  await page.goto(`${product.url}/`);
  await page.evaluate((token) => window.localStorage.setItem('token', token), who.token);
  await page.goto(`${product.url}${path}`);
}
