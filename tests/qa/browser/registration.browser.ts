/**
 * The registration page's QA paths in Chromium, each on a fresh invitation of its own. The name
 * typed is a new one (the model's 'ana', made unique); the password is one the server refuses when
 * the path goes on with 'invalid-password' (shorter than 8 characters). An invitation replaced by a
 * newer one to the same address is 'register-invitation-expired' for real; 'users-exists' before a
 * registration that succeeds with the same name, and 'register-invitation-was-used' after an
 * expired one, cannot both be true of one name or link: page.route answers those.
 */
import type { Locator, Page } from 'playwright-core';
import type { RegistrationModelEvent } from '../../../machines/registration/registration.model.test-support.ts';
import { visibleErrors } from '../../../machines/registration/registration.machine.ts';
import type { FieldError, RegistrationContext, RegistrationField } from '../../../machines/registration/registration.types.ts';
import { registerMessage, validationMessages } from '../../../src/lib/messages.ts';
import type { SignedIn } from '../../e2e/session.ts';
import { invitation, secretOf, uniqueName } from './accounts.ts';
import { authMessages, enabled, enterButton, eventually, expectMfaModal, field, finishSecondFactor, gone, mfaDialog, mfaMessages, pageAlert, visible } from './auth-pages.ts';
import type { BrowserPlan, StepContext } from './plan.ts';
import { administrator } from './world.ts';

interface RegistrationData {
  admin: SignedIn;
}

interface RegistrationLocal {
  email: string;
  user: string;
  password: string;
  secret: string | null;
}

const LABELS: Record<RegistrationField, string> = {
  user: authMessages.user,
  password: authMessages.password,
  confirmation: authMessages.confirmPassword,
};
const SHORT_PASSWORD = 'corta';
const REAL = new Set(['register-invitation-expired', 'invalid-password']);

type Context = StepContext<RegistrationModelEvent, RegistrationData, RegistrationLocal>;

/** The server's answer to the next 'Entrar', among the events still to come. */
const nextAnswer = (context: Context) =>
  (context.rest() as RegistrationModelEvent[]).find(
    (event) => event.type === 'xstate.done.actor.registerUser' || event.type === 'xstate.error.actor.registerUser',
  );

export const registrationBrowserPlan: BrowserPlan<RegistrationModelEvent, RegistrationData, RegistrationLocal> = {
  machine: 'registration',

  prepare: async (world) => ({ admin: await administrator(world.instance) }),

  async open({ page, world }) {
    const { token, email } = await invitation(world.instance, world.data.admin);
    await page.goto(`/register?invitation=${token}`);
    await visible(field(page, authMessages.user));
    return { email, user: uniqueName('ana'), password: 'Secreto12', secret: null };
  },

  gates: { registerUser: { method: 'POST', matches: (url) => url.pathname === '/api/register' } },

  production: (event) => {
    if (event.type === 'xstate.error.actor.registerUser') return REAL.has((event.error as { type: string }).type) ? 'real' : 'injected';
    if (event.type === 'xstate.done.actor.secondFactor') return event.output.outcome === 'notStored' ? 'storage' : 'real';
    return 'real';
  },

  executors: {
    'registration.change': async (context) => {
      const { page, event, local } = context;
      let value = event.value;
      if (event.field === 'user' && value.trim()) value = local.user;
      if (event.field === 'password') {
        const answer = nextAnswer(context);
        local.password = answer?.type === 'xstate.error.actor.registerUser' && (answer.error as { type: string }).type === 'invalid-password'
          ? SHORT_PASSWORD
          : event.value;
        value = local.password;
      }
      // The confirmation that matches is the password typed.
      if (event.field === 'confirmation' && value === 'Secreto12') value = local.password;
      const input = field(page, LABELS[event.field]);
      await input.fill(value);
      await input.blur();
    },
    'registration.blur': async ({ page, event }) => {
      const input = field(page, LABELS[event.field]);
      await input.focus();
      await input.blur();
    },
    'registration.submit': async ({ page }) => enterButton(page).click(),
    'xstate.done.actor.registerUser': async ({ held, local }) => {
      const answer = await (await held('registerUser')).fetch();
      if (answer.status !== 201 && answer.status !== 200) throw new Error(`The server refused the registration: ${answer.status} ${JSON.stringify(answer.json)}`);
      local.secret = secretOf((answer.json as { otp: { uri: string } }).otp.uri);
      await answer.fulfill();
    },
    'xstate.error.actor.registerUser': async ({ held, event, world, local }) => {
      const { status, type } = event.error as { status: number; type: string };
      const call = await held('registerUser');
      if (!REAL.has(type)) return call.answerProblem(status, type);
      // Inviting the address again replaces its invitation: the link in the address has expired.
      if (type === 'register-invitation-expired') await invitation(world.instance, world.data.admin, local.email);
      const answer = await call.fetch();
      if (answer.status !== status) throw new Error(`The server answered ${answer.status} where the path needs ${status} ${type}`);
      await answer.fulfill();
    },
    'xstate.done.actor.secondFactor': async ({ page, event, local }) => {
      await finishSecondFactor(page, event.output, local.user, local.secret!);
    },
  },

  states: {
    '#registration.editing.ready': async ({ page, snapshot }) => expectFields(page, snapshot.context as RegistrationContext, null),
    '#registration.editing.rejected': async ({ page, snapshot }) => {
      const context = snapshot.context as RegistrationContext;
      await expectFields(page, context, registerMessage(context.errorType ?? undefined));
    },
    '#registration.editing.locked': async ({ page, snapshot }) =>
      expectFields(page, snapshot.context as RegistrationContext, mfaMessages.attemptsExceeded),
    '#registration.sending': async ({ page }) => {
      for (const label of Object.values(LABELS)) await field(page, label).and(page.locator(':disabled')).waitFor({ timeout: 15_000 });
    },
    '#registration.secondFactor': async ({ page }) => expectMfaModal(page, 'OTP_DISABLED'),
    '#registration.signedIn': async ({ page }) => {
      await gone(mfaDialog(page));
      await page.waitForURL(/\/videos/, { timeout: 15_000 });
    },
    '#registration.tokenNotStored': async ({ page }) => {
      await gone(mfaDialog(page));
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    },
  },
};

const fieldMessages = { required: validationMessages.required, mismatch: validationMessages.passwordsMismatch };

/** The form, enabled, with the R-AUTH-6 message of each field the machine says shows, and the page's message. */
async function expectFields(page: Page, context: RegistrationContext, message: string | null) {
  await gone(mfaDialog(page));
  const shown = visibleErrors(context);
  for (const [name, label] of Object.entries(LABELS) as Array<[RegistrationField, string]>) {
    const input = field(page, label);
    await enabled(input);
    await eventually(() => expectFieldMessage(page, input, label, shown[name]));
  }
  if (message) await visible(pageAlert(page, message));
  else await gone(page.getByRole('alert'));
}

async function expectFieldMessage(page: Page, input: Locator, label: string, rule: FieldError | undefined) {
  const invalid = await input.getAttribute('aria-invalid');
  if (!rule) {
    if (invalid === 'true') throw new Error(`${label} is marked invalid`);
    return;
  }
  if (invalid !== 'true') throw new Error(`${label} is not marked invalid (${rule})`);
  const describedBy = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const description = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).innerText()));
  if (!description.join(' ').includes(fieldMessages[rule])) throw new Error(`${label} does not say '${fieldMessages[rule]}'`);
}
