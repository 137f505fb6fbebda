import { act, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { RegistrationPage } from '../../src/features/auth/registration-page.tsx';
import { getToken, storeToken } from '../../src/lib/auth-token.ts';
import { authMessages, mfaMessages, registerMessage, validationMessages } from '../../src/lib/messages.ts';
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
import { registrationMachine, validateRegistration, visibleErrors } from './registration.machine.ts';
import {
  INVITATION,
  registerProblems,
  registrationModel,
  type RegistrationModelEvent,
  type RegistrationSnapshot,
} from './registration.model.test-support.ts';
import type { FieldError, RegistrationField, RegistrationValues } from './registration.types.ts';

const SESSION = 'header.eyJ1c2VyIjoiYW5hIiwicm9sZSI6InVzZXIifQ.signature';

type Snapshot = RegistrationSnapshot;
type ModelEvent = RegistrationModelEvent;
// The model (events, filter, features) is shared with `npm run qa`: registration.model.test-support.ts.
const { events, paths } = registrationModel;

const messageOf: Record<FieldError, string> = {
  required: validationMessages.required,
  mismatch: validationMessages.passwordsMismatch,
};
let user: UserEvent;
let doubles: ActorDoubles;
let onSignedIn: Mock<() => void>;
let onTokenNotStored: Mock<() => void>;

beforeEach(() => {
  user = userEvent.setup();
  doubles = createActorDoubles();
  onSignedIn = vi.fn();
  onTokenNotStored = vi.fn();
  const logic = registrationMachine.provide({
    actors: {
      registerUser: doubles.promise('registerUser'),
      // The real second factor and modal; the network and the storage are doubled (storing itself is real).
      secondFactor: secondFactorMachine.provide({
        actors: {
          mfa: mfaMachine.provide({ actors: { verifyCode: doubles.promise('verifyCode') } }),
          storeToken: doubles.promise<void, StoreTokenInput>('storeToken', ({ token }) => void storeToken(token)),
        },
      }),
    },
  });
  renderWithTheme(
    <RegistrationPage logic={logic} invitation={INVITATION} onSignedIn={onSignedIn} onTokenNotStored={onTokenNotStored} />,
  );
});

const labels: Record<RegistrationField, string> = {
  user: authMessages.user,
  password: authMessages.password,
  confirmation: authMessages.confirmPassword,
};
const input = (field: RegistrationField) => screen.getByLabelText(labels[field]);
const enterButton = () => screen.getAllByRole('button', { name: authMessages.enter })[0]!;
const mfaDialog = () => screen.getByRole('dialog', { name: authMessages.mfaTitle });

const executors = {
  'registration.change': async ({ event }) => {
    await user.type(input(event.field), event.value);
    // Leave no field focused, so that the next click does not blur it behind the model's back.
    act(() => input(event.field).blur());
  },
  'registration.blur': async ({ event }) => {
    await user.click(input(event.field));
    act(() => input(event.field).blur());
  },
  'registration.submit': async () => user.click(enterButton()),
  'xstate.done.actor.registerUser': async ({ event }) => doubles.resolve('registerUser', event.output),
  'xstate.error.actor.registerUser': async ({ event }) => doubles.reject('registerUser', event.error),
  // The second factor is the real machine (tested on its own): the user finishes it as the outcome says.
  'xstate.done.actor.secondFactor': async ({ event }) => {
    const { outcome } = event.output;
    if (outcome === 'cancelled') {
      await user.click(within(mfaDialog()).getByRole('button', { name: authMessages.cancel }));
      return;
    }
    await user.type(within(mfaDialog()).getByPlaceholderText(authMessages.mfaCodePlaceholder), '123456');
    await user.click(within(mfaDialog()).getByRole('button', { name: authMessages.enter }));
    if (outcome === 'locked') {
      await doubles.reject('verifyCode', { status: 429, type: ATTEMPTS_EXCEEDED });
      return;
    }
    await doubles.resolve('verifyCode', { token: SESSION });
    if (outcome === 'verified') await doubles.resolve('storeToken');
    else await doubles.reject('storeToken', new Error('The browser did not store the session token'));
  },
} satisfies Executors<Snapshot, ModelEvent>;

/** The three fields with the values typed so far and the R-AUTH-6 messages that should show. */
function expectForm(snapshot: Snapshot, { busy, message }: { busy: boolean; message: string | null }) {
  const shown = visibleErrors(snapshot.context);
  for (const field of Object.keys(labels) as RegistrationField[]) {
    const element = input(field);
    expect(element).toHaveValue(snapshot.context.values[field]);
    if (busy) expect(element).toBeDisabled();
    else expect(element).toBeEnabled();
    const rule = shown[field];
    if (rule) {
      expect(element).toHaveAttribute('aria-invalid', 'true');
      expect(element).toHaveAccessibleDescription(messageOf[rule]);
    } else {
      expect(element).not.toHaveAttribute('aria-invalid', 'true');
    }
  }
  if (busy) expect(enterButton()).toHaveAttribute('data-loading', 'true');
  else expect(enterButton()).toBeEnabled();
  if (message) expect(screen.getByRole('alert')).toHaveTextContent(message);
  else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
}

const noDialog = () => expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

const states = {
  '#registration.editing.ready': (snapshot) => {
    expectForm(snapshot, { busy: false, message: null });
    noDialog();
  },
  '#registration.editing.rejected': (snapshot) => {
    expectForm(snapshot, { busy: false, message: registerMessage(snapshot.context.errorType ?? undefined) });
    noDialog();
  },
  '#registration.editing.locked': (snapshot) => {
    expectForm(snapshot, { busy: false, message: mfaMessages.attemptsExceeded });
    noDialog();
  },
  '#registration.sending': (snapshot) => {
    expectForm(snapshot, { busy: true, message: null });
    noDialog();
    expect(doubles.inputs('registerUser').at(-1)).toEqual({ user: 'ana', password: 'Secreto12', token: INVITATION });
  },
  '#registration.secondFactor': () => {
    expect(mfaDialog()).toHaveTextContent(authMessages.mfaSetup);
    expect(getToken()).toBeNull();
  },
  '#registration.signedIn': () => {
    noDialog();
    expect(doubles.inputs('storeToken').at(-1)).toEqual({ token: SESSION });
    expect(getToken()).toBe(SESSION);
    expect(onSignedIn).toHaveBeenCalledTimes(1);
    expect(onTokenNotStored).not.toHaveBeenCalled();
  },
  '#registration.tokenNotStored': () => {
    noDialog();
    expect(doubles.inputs('storeToken').at(-1)).toEqual({ token: SESSION });
    expect(getToken()).toBeNull();
    expect(onTokenNotStored).toHaveBeenCalledTimes(1);
    expect(onSignedIn).not.toHaveBeenCalled();
  },
} satisfies StateChecks<Snapshot>;

describe('registration page', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await runPath(path, states, executors);
      // Submitting is blocked while a rule fails: the server only ever saw valid forms.
      for (const sent of doubles.inputs('registerUser') as Array<{ user: string; password: string }>) {
        expect(validateRegistration({ user: sent.user, password: sent.password, confirmation: sent.password })).toEqual({});
      }
    });
  }
});

describe('registration model coverage', () => {
  const covered = coveredFeatures(paths);

  itCoversTheMachine(registrationMachine, paths, { events, states, executors });
  it('shows every R-AUTH-6 field message and every R-AUTH-7 register message', () => {
    const signatures = [...covered].filter((feature) => feature.startsWith('field messages '));
    for (const field of ['user', 'password', 'confirmation'] as const) {
      expect(signatures.some((signature) => signature.includes(`"${field}":"required"`))).toBe(true);
    }
    expect(signatures.some((signature) => signature.includes('"confirmation":"mismatch"'))).toBe(true);
    for (const { type } of registerProblems) expect(covered).toContain(`message ${registerMessage(type)}`);
  });
});

describe('registration rules (R-AUTH-6)', () => {
  const cases: Array<[RegistrationValues, ReturnType<typeof validateRegistration>]> = [
    [
      { user: '', password: '', confirmation: '' },
      { user: 'required', password: 'required', confirmation: 'required' },
    ],
    [
      { user: ' \t ', password: '   ', confirmation: '  ' },
      { user: 'required', password: 'required', confirmation: 'required' },
    ],
    [{ user: 'ana', password: 'Secreto12', confirmation: '' }, { confirmation: 'mismatch' }],
    [
      { user: 'ana', password: '', confirmation: 'Secreto12' },
      { password: 'required', confirmation: 'mismatch' },
    ],
    [{ user: 'ana', password: 'Secreto12', confirmation: 'Secreto13' }, { confirmation: 'mismatch' }],
    [{ user: 'ana', password: 'Secreto12', confirmation: 'Secreto12' }, {}],
  ];
  it.each(cases)('%j → %j', (values, errors) => {
    expect(validateRegistration(values)).toEqual(errors);
  });
});
