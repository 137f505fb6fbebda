/**
 * The machines whose QA paths also run in Chromium against a real server (issue 11: login, MFA,
 * registration, session, upload wizard), each with how its events are caused there.
 */
import type { AnyBrowserPlan } from './plan.ts';
import { uploadWizardBrowserPlan } from './upload-wizard.browser.ts';

export const browserPlans: readonly AnyBrowserPlan[] = [uploadWizardBrowserPlan];

export const findBrowserPlan = (machine: string) => browserPlans.find((plan) => plan.machine === machine);
