import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { LoginPage } from '../../src/features/auth/login-page.tsx';
import { getToken, storeToken } from '../../src/lib/auth-token.ts';
import { authMessages, genericError, loginMessage, mfaMessages, pageMessages } from '../../src/lib/messages.ts';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import {
  coveredFeatures,
  createActorDoubles,
  itCoversTheMachine,
  runPath,
  type ActorDoubles,
  type Executors,
  type StateChecks,
} from '../../tests/utils/machine-model.ts';
import { mfaMachine } from '../mfa/mfa.machine.ts';
import { secondFactorMachine } from '../second-factor/second-factor.machine.ts';
import { ATTEMPTS_EXCEEDED } from '../shared/problem.ts';
import type { StoreTokenInput } from '../shared/session-token.types.ts';
import { loginMachine } from './login.machine.ts';
import {
  answers,
  CREDENTIALS,
  loginModel,
  loginProblems,
  PENDING,
  type LoginModelEvent,
  type LoginSnapshot,
} from './login.model.test-support.ts';

const SESSION = 'header.eyJ1c2VyIjoiYW5hIiwicm9sZSI6InVzZXIifQ.signature';

type Snapshot = LoginSnapshot;
type ModelEvent = LoginModelEvent;
// The model (events, filter, features) is shared with `npm run qa`: login.model.test-support.ts.
const { events, paths } = loginModel;

let user: UserEvent;
let doubles: ActorDoubles;
let onSignedIn: Mock<() => void>;

beforeEach(() => {
  user = userEvent.setup();
  doubles = createActorDoubles();
  onSignedIn = vi.fn();
  const logic = loginMachine.provide({
    actors: {
      submitLogin: doubles.promise('submitLogin'),
      // The real second factor and modal; the network and the storage are doubled (storing itself is real).
      secondFactor: secondFactorMachine.provide({
        actors: {
          mfa: mfaMachine.provide({ actors: { verifyCode: doubles.promise('verifyCode') } }),
          storeToken: doubles.promise<void, StoreTokenInput>('storeToken', ({ token }) => void storeToken(token)),
        },
      }),
    },
  });
  renderWithTheme(<LoginPage logic={logic} onSignedIn={onSignedIn} />);
});

const userInput = () => screen.getByLabelText(authMessages.user);
const passwordInput = () => screen.getByLabelText(authMessages.password);
const enterButton = () => screen.getAllByRole('button', { name: authMessages.enter })[0]!;
const mfaDialog = () => screen.getByRole('dialog', { name: authMessages.mfaTitle });

async function typeMfaCodeAndEnter() {
  const code = within(mfaDialog()).getByPlaceholderText(authMessages.mfaCodePlaceholder);
  await user.type(code, '123456');
  await user.click(within(mfaDialog()).getByRole('button', { name: authMessages.enter }));
}

const executors = {
  'login.submit': async ({ event }) => {
    await user.clear(userInput());
    await user.type(userInput(), event.user);
    await user.clear(passwordInput());
    await user.type(passwordInput(), event.password);
    await user.click(enterButton());
  },
  'xstate.done.actor.submitLogin': async ({ event }) => doubles.resolve('submitLogin', event.output),
  'xstate.error.actor.submitLogin': async ({ event }) => doubles.reject('submitLogin', event.error),
  // The second factor is the real machine (tested on its own): the user finishes it as the outcome says.
  'xstate.done.actor.secondFactor': async ({ event }) => {
    const { outcome } = event.output;
    if (outcome === 'cancelled') {
      await user.click(within(mfaDialog()).getByRole('button', { name: authMessages.cancel }));
      return;
    }
    await typeMfaCodeAndEnter();
    if (outcome === 'locked') {
      await doubles.reject('verifyCode', { status: 429, type: ATTEMPTS_EXCEEDED });
      return;
    }
    await doubles.resolve('verifyCode', { token: SESSION });
    if (outcome === 'verified') await doubles.resolve('storeToken');
    else await doubles.reject('storeToken', new Error('The browser did not store the session token'));
  },
} satisfies Executors<Snapshot, ModelEvent>;

function expectForm({ busy, message }: { busy: boolean; message: string | null }) {
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(pageMessages.appTitle);
  for (const input of [userInput(), passwordInput()]) {
    if (busy) expect(input).toBeDisabled();
    else expect(input).toBeEnabled();
  }
  if (busy) {
    expect(enterButton()).toBeDisabled();
    expect(enterButton()).toHaveAttribute('data-loading', 'true');
  } else {
    expect(enterButton()).toBeEnabled();
    expect(enterButton()).not.toHaveAttribute('data-loading');
  }
  if (message) expect(screen.getByRole('alert')).toHaveTextContent(message);
  else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
}

const noDialog = () => expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

const states = {
  '#login.idle.ready': () => {
    expectForm({ busy: false, message: null });
    noDialog();
    expect(getToken()).toBeNull();
  },
  '#login.idle.rejected': (snapshot) => {
    expectForm({ busy: false, message: loginMessage(snapshot.context.errorType ?? undefined) });
    noDialog();
    expect(getToken()).toBeNull();
  },
  '#login.sending': () => {
    expectForm({ busy: true, message: null });
    noDialog();
    expect(doubles.inputs('submitLogin').at(-1)).toEqual(CREDENTIALS);
  },
  '#login.secondFactor': (snapshot) => {
    const dialog = mfaDialog();
    const { state } = snapshot.context.otp;
    if (state === 'OTP_REQUIRED') expect(dialog).toHaveTextContent(authMessages.mfaSetup);
    else if (state === 'OTP_ACTIVED') expect(dialog).toHaveTextContent(authMessages.mfaPrompt);
    else expect(dialog).toHaveTextContent(authMessages.noAccess);
    expect(getToken()).toBeNull();
  },
  '#login.signedIn': () => {
    noDialog();
    expect(doubles.inputs('verifyCode').at(-1)).toEqual({ pendingToken: PENDING, user: 'ana', mfaCode: '123456' });
    expect(doubles.inputs('storeToken').at(-1)).toEqual({ token: SESSION });
    expect(getToken()).toBe(SESSION);
    expect(onSignedIn).toHaveBeenCalledTimes(1);
  },
} satisfies StateChecks<Snapshot>;

describe('login page', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await runPath(path, states, executors);
      if (!path.state.matches('signedIn')) expect(onSignedIn).not.toHaveBeenCalled();
    });
  }
});

describe('login model coverage', () => {
  const covered = coveredFeatures(paths);

  itCoversTheMachine(loginMachine, paths, { events, states, executors });
  it('shows every R-AUTH-2 login message, and the generic one for a token the browser did not store', () => {
    for (const { type } of loginProblems) expect(covered).toContain(`message ${loginMessage(type)}`);
    expect(covered).toContain(`message ${mfaMessages.attemptsExceeded}`);
    expect(covered).toContain(`message ${genericError}`);
  });
  it('opens the modal for every kind of OTP state', () => {
    for (const { otp } of answers) expect(covered).toContain(`modal for ${otp.state}`);
  });
});
