/**
 * The machines whose QA paths also run in Chromium against a real server (docs/QA.md: login, MFA,
 * registration, session), each with how its events are caused there. The upload queue's paths stay in
 * jsdom (each step answers one file's actor among several); tests/e2e/bulk-upload.test.ts and
 * tests/e2e/upload.test.ts walk it in Chromium against the real server.
 */
import { loginBrowserPlan } from './login.browser.ts';
import { mfaBrowserPlan } from './mfa.browser.ts';
import type { AnyBrowserPlan } from './plan.ts';
import { registrationBrowserPlan } from './registration.browser.ts';
import { sessionBrowserPlan } from './session.browser.ts';

export const browserPlans: readonly AnyBrowserPlan[] = [
  loginBrowserPlan,
  mfaBrowserPlan,
  registrationBrowserPlan,
  sessionBrowserPlan,
];

export const findBrowserPlan = (machine: string) => browserPlans.find((plan) => plan.machine === machine);
