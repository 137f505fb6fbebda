/**
 * The machines whose QA paths also run in Chromium against a real server (docs/QA.md: login, MFA,
 * registration, session, upload wizard), each with how its events are caused there.
 */
import { loginBrowserPlan } from './login.browser.ts';
import { mfaBrowserPlan } from './mfa.browser.ts';
import type { AnyBrowserPlan } from './plan.ts';
import { registrationBrowserPlan } from './registration.browser.ts';
import { sessionBrowserPlan } from './session.browser.ts';
import { uploadWizardBrowserPlan } from './upload-wizard.browser.ts';

export const browserPlans: readonly AnyBrowserPlan[] = [
  loginBrowserPlan,
  mfaBrowserPlan,
  registrationBrowserPlan,
  sessionBrowserPlan,
  uploadWizardBrowserPlan,
];

export const findBrowserPlan = (machine: string) => browserPlans.find((plan) => plan.machine === machine);
