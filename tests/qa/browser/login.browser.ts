/**
 * The login screen's QA paths in Chromium. Each 'Entrar' types the credentials of an account made
 * for the answer the path goes on with: an enrolled account (OTP_ACTIVED), one whose second factor
 * the operator reset (OTP_REQUIRED, `reset-otp`), a wrong password, a blocked account, an account
 * with four failed sign-ins before (the fifth is refused with 429). The answers a healthy server
 * does not give (it answers 'wrong-password' for unknown users too, never 'access-denied' nor 503,
 * and only knows its own OTP states) are answered by page.route; the network failure is a cut.
 */
import type { LoginModelEvent } from '../../../machines/login/login.model.test-support.ts';
import { loginMessage } from '../../../src/lib/messages.ts';
import type { SignedIn } from '../../e2e/session.ts';
import { block, enrolledAccount, failSignIns, resetSecondFactor, secretOf, type Account } from './accounts.ts';
import { authMessages, enterButton, expectForm, expectMfaModal, field, finishSecondFactor, gone, mfaDialog, visible } from './auth-pages.ts';
import type { BrowserPlan, StepContext } from './plan.ts';
import { administrator } from './world.ts';

interface LoginData {
  admin: SignedIn;
}

interface LoginLocal {
  /** The account the last 'Entrar' used, and the authenticator secret its sign-in enrols or uses. */
  account: Account | null;
  secret: string | null;
}

const LABELS = [authMessages.user, authMessages.password];
/** The problems the real server gives on demand (the account typed provokes them). */
const REAL = new Set(['wrong-password', 'blocked-user', 'number-of-login-attempts-exceeded']);
const KNOWN_STATES = new Set(['OTP_DISABLED', 'OTP_REQUIRED', 'OTP_ACTIVED']);

type Context<TEvent extends LoginModelEvent> = StepContext<TEvent, LoginData, LoginLocal>;

/** The answer to the next 'Entrar', among the events still to come. */
const nextAnswer = (context: Context<LoginModelEvent>) =>
  (context.rest() as LoginModelEvent[]).find(
    (event) => event.type === 'xstate.done.actor.submitLogin' || event.type === 'xstate.error.actor.submitLogin',
  );

export const loginBrowserPlan: BrowserPlan<LoginModelEvent, LoginData, LoginLocal> = {
  machine: 'login',

  prepare: async (world) => ({ admin: await administrator(world.instance) }),

  async open({ page }) {
    await page.goto('/');
    await visible(field(page, authMessages.user));
    return { account: null, secret: null };
  },

  notes: (path) =>
    path.path.steps.some(
      (step) => step.event.type === 'xstate.done.actor.submitLogin' && (step.event as { output: { otp: { state: string } } }).output.otp.state === 'OTP_REQUIRED',
    )
      ? ['la cuenta OTP_REQUIRED la hace la CLI (reset-otp): solo contra un producto recién creado, no con --base-url']
      : [],

  gates: { submitLogin: { method: 'POST', matches: (url) => url.pathname === '/api/login' } },

  production: (event) => {
    if (event.type === 'xstate.error.actor.submitLogin') {
      const { status, type } = event.error as { status: number; type: string };
      return status === 0 ? 'network' : REAL.has(type) ? 'real' : 'injected';
    }
    if (event.type === 'xstate.done.actor.submitLogin') return KNOWN_STATES.has(event.output.otp.state) ? 'real' : 'injected';
    if (event.type === 'xstate.done.actor.secondFactor') return event.output.outcome === 'notStored' ? 'storage' : 'real';
    return 'real';
  },

  executors: {
    'login.submit': async (context) => {
      const { page, world, local } = context;
      const answer = nextAnswer(context);
      const account = await enrolledAccount(world.instance, world.data.admin, 'login');
      let password = account.password;
      if (answer?.type === 'xstate.done.actor.submitLogin' && answer.output.otp.state === 'OTP_REQUIRED') {
        await resetSecondFactor(world.instance, account);
      }
      if (answer?.type === 'xstate.error.actor.submitLogin') {
        const { type } = answer.error as { type: string };
        if (type === 'wrong-password') password = 'not the password';
        if (type === 'blocked-user') await block(world.instance, world.data.admin, account);
        if (type === 'number-of-login-attempts-exceeded') {
          // Four failed sign-ins before: this one, the fifth, locks the name.
          await failSignIns(world.instance, account.user, 4);
          password = 'not the password';
        }
      }
      local.account = account;
      local.secret = account.secret;
      await field(page, authMessages.user).fill(account.user);
      await field(page, authMessages.password).fill(password);
      await enterButton(page).click();
    },
    'xstate.done.actor.submitLogin': async ({ held, event, local }) => {
      const answer = await (await held('submitLogin')).fetch();
      const otp = (answer.json as { otp: { state: string; uri?: string } }).otp;
      if (otp.state !== (KNOWN_STATES.has(event.output.otp.state) ? event.output.otp.state : 'OTP_ACTIVED')) {
        throw new Error(`The server answered ${otp.state} where the path needs ${event.output.otp.state}`);
      }
      // An enrolment answers the new secret (the QR code's).
      if (otp.uri) local.secret = secretOf(otp.uri);
      if (KNOWN_STATES.has(event.output.otp.state)) await answer.fulfill();
      // A state a newer server might send: the real answer with that state.
      else await answer.fulfillWith({ ...(answer.json as object), otp: { ...otp, state: event.output.otp.state } });
    },
    'xstate.error.actor.submitLogin': async ({ held, event }) => {
      const { status, type } = event.error as { status: number; type: string };
      const call = await held('submitLogin');
      if (status === 0) return call.cut();
      if (!REAL.has(type)) return call.answerProblem(status, type);
      const answer = await call.fetch();
      if (answer.status !== status) throw new Error(`The server answered ${answer.status} where the path needs ${status} ${type}`);
      await answer.fulfill();
    },
    'xstate.done.actor.secondFactor': async ({ page, event, local }) => {
      await finishSecondFactor(page, event.output, local.account!.user, local.secret!);
    },
  },

  states: {
    '#login.idle.ready': async ({ page }) => {
      await expectForm(page, LABELS, { busy: false, message: null });
      await gone(page.getByRole('dialog'));
    },
    '#login.idle.rejected': async ({ page, snapshot }) => {
      await gone(mfaDialog(page));
      await expectForm(page, LABELS, { busy: false, message: loginMessage((snapshot.context.errorType as string | null) ?? undefined) });
    },
    '#login.sending': async ({ page }) => {
      await expectForm(page, LABELS, { busy: true, message: null });
    },
    '#login.secondFactor': async ({ page, snapshot }) => {
      await expectMfaModal(page, (snapshot.context.otp as { state: string }).state);
    },
    '#login.signedIn': async ({ page }) => {
      await page.waitForURL(/\/videos/, { timeout: 15_000 });
      await gone(mfaDialog(page));
      const token = await page.evaluate(() => window.localStorage.getItem('token'));
      if (!token) throw new Error('No session token is stored');
    },
  },
};
