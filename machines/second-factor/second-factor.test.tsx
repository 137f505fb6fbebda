import { act, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { LoginPage } from '../../src/features/auth/login-page.tsx';
import { RegistrationPage } from '../../src/features/auth/registration-page.tsx';
import { getToken, storeToken } from '../../src/lib/auth-token.ts';
import { authMessages, genericError, mfaMessages } from '../../src/lib/messages.ts';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import {
  createActorDoubles,
  itCoversTheMachine,
  runPath,
  type ActorDoubles,
  type Executors,
  type StateChecks,
} from '../../tests/utils/machine-model.ts';
import { loginMachine } from '../login/login.machine.ts';
import { mfaMachine } from '../mfa/mfa.machine.ts';
import type { MfaChallenge } from '../mfa/mfa.types.ts';
import { registrationMachine } from '../registration/registration.machine.ts';
import { ATTEMPTS_EXCEEDED } from '../shared/problem.ts';
import type { StoreTokenInput } from '../shared/session-token.types.ts';
import { secondFactorMachine } from './second-factor.machine.ts';
import {
  PENDING,
  SESSION,
  secondFactorModel,
  type SecondFactorModelEvent,
  type SecondFactorSnapshot,
} from './second-factor.model.test-support.ts';

type Snapshot = SecondFactorSnapshot;
type ModelEvent = SecondFactorModelEvent;
// The model (one per screen) is shared with `npm run qa`: second-factor.model.test-support.ts.
const { events } = secondFactorModel;

let user: UserEvent;
let doubles: ActorDoubles;
let onSignedIn: Mock<() => void>;
let onTokenNotStored: Mock<() => void>;

/** The second factor as the app provides it, with the network and the storage doubled. */
const secondFactor = () =>
  secondFactorMachine.provide({
    actors: {
      mfa: mfaMachine.provide({ actors: { verifyCode: doubles.promise('verifyCode') } }),
      // The double only decides when; storing is the real one.
      storeToken: doubles.promise<void, StoreTokenInput>('storeToken', ({ token }) => void storeToken(token)),
    },
  });

const enterButton = () => screen.getAllByRole('button', { name: authMessages.enter })[0]!;
const mfaDialog = () => screen.getByRole('dialog', { name: authMessages.mfaTitle });
const textboxes = () => [...screen.getAllByLabelText(new RegExp(`^(${authMessages.user}|${authMessages.password}|${authMessages.confirmPassword})$`))];

/** The form behind the modal, enabled or disabled with a spinner on Entrar. */
function expectForm({ busy, message }: { busy: boolean; message: string | null }) {
  for (const input of textboxes()) {
    if (busy) expect(input).toBeDisabled();
    else expect(input).toBeEnabled();
  }
  if (busy) expect(enterButton()).toHaveAttribute('data-loading', 'true');
  else expect(enterButton()).not.toHaveAttribute('data-loading');
  if (message) expect(screen.getByRole('alert')).toHaveTextContent(message);
  else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
}

const noDialog = () => expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

/** Both screens that end in the second factor: what each shows is the same, but for a token not stored. */
const screens: Record<string, { open(challenge: MfaChallenge): Promise<void>; notStored(): void }> = {
  'on the login page': {
    async open(challenge: MfaChallenge) {
      const logic = loginMachine.provide({ actors: { submitLogin: doubles.promise('submitLogin'), secondFactor: secondFactor() } });
      renderWithTheme(<LoginPage logic={logic} onSignedIn={onSignedIn} />);
      await user.type(screen.getByLabelText(authMessages.user), 'ana');
      await user.type(screen.getByLabelText(authMessages.password), 'secreto');
      await user.click(enterButton());
      await doubles.resolve('submitLogin', { token: challenge.pendingToken, otp: challenge.otp });
    },
    notStored() {
      expectForm({ busy: false, message: genericError });
      expect(onSignedIn).not.toHaveBeenCalled();
    },
  },
  'on the registration page': {
    async open(challenge: MfaChallenge) {
      const logic = registrationMachine.provide({
        actors: { registerUser: doubles.promise('registerUser'), secondFactor: secondFactor() },
      });
      renderWithTheme(
        <RegistrationPage logic={logic} invitation="invitation-123" onSignedIn={onSignedIn} onTokenNotStored={onTokenNotStored} />,
      );
      await user.type(screen.getByLabelText(authMessages.user), 'ana');
      await user.type(screen.getByLabelText(authMessages.password), 'Secreto12');
      await user.type(screen.getByLabelText(authMessages.confirmPassword), 'Secreto12');
      act(() => (document.activeElement as HTMLElement | null)?.blur());
      await user.click(enterButton());
      await doubles.resolve('registerUser', { token: challenge.pendingToken, otp: challenge.otp });
    },
    // R-AUTH-7: registration goes to '/' when the token cannot be stored.
    notStored() {
      expect(onTokenNotStored).toHaveBeenCalledTimes(1);
      expect(onSignedIn).not.toHaveBeenCalled();
    },
  },
};
const variants = secondFactorModel.models.map(({ variant, paths }) => ({
  name: variant!.name,
  challenge: variant!.input,
  ...screens[variant!.name]!,
  paths,
}));

beforeEach(() => {
  user = userEvent.setup();
  doubles = createActorDoubles();
  onSignedIn = vi.fn();
  onTokenNotStored = vi.fn();
});

const executors = {
  // The modal is the real mfa machine: the user finishes it as the outcome says.
  'xstate.done.actor.mfa': async ({ event }) => {
    const { outcome } = event.output;
    if (outcome === 'cancelled') {
      await user.click(within(mfaDialog()).getByRole('button', { name: authMessages.cancel }));
      return;
    }
    await user.type(within(mfaDialog()).getByPlaceholderText(authMessages.mfaCodePlaceholder), '123456');
    await user.click(within(mfaDialog()).getByRole('button', { name: authMessages.enter }));
    if (outcome === 'verified') await doubles.resolve('verifyCode', { token: SESSION });
    else await doubles.reject('verifyCode', { status: 429, type: ATTEMPTS_EXCEEDED });
  },
  'xstate.done.actor.storeToken': async () => doubles.resolve('storeToken'),
  'xstate.error.actor.storeToken': async ({ event }) => doubles.reject('storeToken', event.error),
} satisfies Executors<Snapshot, ModelEvent>;

function statesFor(notStored: () => void) {
  return {
    '#secondFactor.mfa': (snapshot) => {
      const dialog = mfaDialog();
      if (snapshot.context.otp.state === 'OTP_ACTIVED') expect(dialog).toHaveTextContent(authMessages.mfaPrompt);
      else expect(dialog).toHaveTextContent(authMessages.mfaSetup);
      expect(getToken()).toBeNull();
    },
    '#secondFactor.storingToken': () => {
      noDialog();
      expectForm({ busy: true, message: null });
      expect(doubles.inputs('verifyCode').at(-1)).toEqual({ pendingToken: PENDING, user: 'ana', mfaCode: '123456' });
      expect(doubles.inputs('storeToken')).toEqual([{ token: SESSION }]);
      expect(onSignedIn).not.toHaveBeenCalled();
    },
    '#secondFactor.verified': () => {
      noDialog();
      expect(getToken()).toBe(SESSION);
      expect(onSignedIn).toHaveBeenCalledTimes(1);
      expect(onTokenNotStored).not.toHaveBeenCalled();
    },
    '#secondFactor.cancelled': () => {
      noDialog();
      expectForm({ busy: false, message: null });
      expect(doubles.inputs('verifyCode')).toEqual([]);
      expect(getToken()).toBeNull();
    },
    '#secondFactor.locked': () => {
      noDialog();
      expectForm({ busy: false, message: mfaMessages.attemptsExceeded });
      expect(getToken()).toBeNull();
    },
    '#secondFactor.notStored': () => {
      noDialog();
      expect(getToken()).toBeNull();
      notStored();
    },
  } satisfies StateChecks<Snapshot>;
}

for (const { name, challenge, open, notStored, paths } of variants) {
  describe(`second factor ${name}`, () => {
    const states = statesFor(notStored);
    for (const { name: pathName, path } of paths) {
      it(pathName, async () => {
        await open(challenge);
        await runPath(path, states, executors);
      });
    }
  });
}

describe('second factor model coverage', () => {
  itCoversTheMachine(
    secondFactorMachine,
    variants.flatMap((variant) => variant.paths),
    { events, states: statesFor(() => {}), executors },
  );
});
