/**
 * The instance the browser paths run against: by default a product started from the build (dist/)
 * on a fresh temporary database (tests/e2e/harness.ts `startProduct`); with QA_BASE_URL, another
 * instance, whose administrator the run signs in as (QA_ADMIN_USER, QA_ADMIN_PASSWORD and the
 * base32 secret of its authenticator, QA_ADMIN_TOTP_SECRET). docs/QA.md says what such a run needs.
 */
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { startProduct, type RunningProduct } from '../../e2e/harness.ts';
import { callApi, fetchApi, registerThroughApi, type SignedIn } from '../../e2e/session.ts';

export interface Instance {
  url: string;
  /** Started for this run on a fresh temporary database (false with QA_BASE_URL). */
  fresh: boolean;
  /** The started product (the CLI and its data directory); null for another instance. */
  product: RunningProduct | null;
  stop(): Promise<void>;
}

/** The instance of this run: QA_BASE_URL, or a fresh product. */
export async function startInstance(): Promise<Instance> {
  const baseUrl = process.env.QA_BASE_URL;
  if (baseUrl) return { url: baseUrl.replace(/\/$/, ''), fresh: false, product: null, stop: async () => {} };
  const product = await startProduct();
  return {
    url: product.url,
    fresh: true,
    product,
    stop: async () => {
      await product.stop();
    },
  };
}

/** A call to the instance's API, as a client makes it. */
export const api = (instance: Instance, method: string, url: string, body?: unknown, bearer?: string) =>
  callApi({ url: instance.url } as RunningProduct, method, url, body, bearer);

/** The same call's response, whatever its status. */
export const apiResponse = (instance: Instance, method: string, url: string, body?: unknown, bearer?: string) =>
  fetchApi({ url: instance.url } as RunningProduct, method, url, body, bearer);

/** Signs in through the API with a password and the authenticator's secret (the second factor). */
export async function signInThroughApi(instance: Instance, user: string, password: string, totpSecret: string): Promise<SignedIn> {
  const pending = await api(instance, 'POST', '/api/login', { user, password });
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(totpSecret) });
  const session = await api(instance, 'POST', '/api/mfa', { user, mfaCode: totp.generate() }, pending.token as string);
  return { user, token: session.token as string };
}

const administrators = new WeakMap<Instance, Promise<SignedIn>>();

/**
 * The run's administrator, signed in once per instance (its authenticator's code is accepted once
 * per 30-second step): registered on a fresh product, or the one QA_ADMIN_* names on another instance.
 */
export function administrator(instance: Instance): Promise<SignedIn> {
  let signedIn = administrators.get(instance);
  if (!signedIn) {
    signedIn = signInAdministrator(instance);
    administrators.set(instance, signedIn);
  }
  return signedIn;
}

async function signInAdministrator(instance: Instance): Promise<SignedIn> {
  if (instance.product) return registerThroughApi(instance.product, 'qa.admin', { admin: true });
  const { QA_ADMIN_USER: user, QA_ADMIN_PASSWORD: password, QA_ADMIN_TOTP_SECRET: secret } = process.env;
  if (!user || !password || !secret) {
    throw new Error('A run against QA_BASE_URL needs QA_ADMIN_USER, QA_ADMIN_PASSWORD and QA_ADMIN_TOTP_SECRET (see docs/QA.md)');
  }
  return signInThroughApi(instance, user, password, secret);
}

/** Opens `path` signed in as `who`: the token where the app keeps it (local storage 'token'). */
export async function openSignedIn(page: Page, who: SignedIn, path = '/videos'): Promise<void> {
  await page.goto('/');
  await page.evaluate((token) => window.localStorage.setItem('token', token), who.token);
  await page.goto(path);
}
