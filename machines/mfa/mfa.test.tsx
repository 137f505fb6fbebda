import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { useSelector } from '@xstate/react';
import { createActor } from 'xstate';
import { beforeEach, describe, expect, it } from 'vitest';
import { MfaModal, type MfaActorRef } from '../../src/features/auth/mfa-modal.tsx';
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
import { mfaMachine } from './mfa.machine.ts';
import { inputs, mfaModel, PENDING, SECRET, SESSION, type MfaModelEvent, type MfaSnapshot } from './mfa.model.test-support.ts';
import type { MfaInput, MfaOutput } from './mfa.types.ts';

type Snapshot = MfaSnapshot;
type ModelEvent = MfaModelEvent;
// The model (one per OTP state) is shared with `npm run qa`: mfa.model.test-support.ts.
const { events } = mfaModel;
const models = mfaModel.models.map(({ variant, paths }) => ({ name: variant!.name, input: variant!.input, paths }));

/** The parent closes the modal when the mfa machine is done, as the second factor does. */
function Host({ actor }: { actor: MfaActorRef }) {
  const active = useSelector(actor, (snapshot) => snapshot.status === 'active');
  return <MfaModal actorRef={active ? actor : undefined} />;
}

let user: UserEvent;
let doubles: ActorDoubles;
let actor: MfaActorRef;

function start(input: MfaInput) {
  user = userEvent.setup();
  doubles = createActorDoubles();
  actor = createActor(mfaMachine.provide({ actors: { verifyCode: doubles.promise('verifyCode') } }), { input }).start();
  renderWithTheme(<Host actor={actor} />);
}

const dialog = () => screen.getByRole('dialog', { name: authMessages.mfaTitle });
const codeInput = () => within(dialog()).getByPlaceholderText(authMessages.mfaCodePlaceholder);
const button = (name: string) => within(dialog()).getByRole('button', { name });

const executors = {
  'mfa.submit': async ({ event }) => {
    await user.clear(codeInput());
    await user.type(codeInput(), event.code);
    await user.click(button(authMessages.enter));
  },
  'mfa.cancel': async () => user.click(button(authMessages.cancel)),
  'xstate.done.actor.verifyCode': async ({ event }) => doubles.resolve('verifyCode', event.output),
  'xstate.error.actor.verifyCode': async ({ event }) => doubles.reject('verifyCode', event.error),
} satisfies Executors<Snapshot, ModelEvent>;

/** The modal's content for the account's OTP state, with the code input enabled or not. */
function expectCodeForm(snapshot: Snapshot, { busy, error }: { busy: boolean; error: string | null }) {
  const modal = dialog();
  const enrolment = snapshot.context.otp.state !== 'OTP_ACTIVED';
  if (enrolment) {
    expect(modal).toHaveTextContent(authMessages.mfaSetup);
    const steps = within(modal).getAllByRole('listitem');
    expect(steps).toHaveLength(3);
    expect(steps[0]).toHaveTextContent(authMessages.mfaStepOpenApp);
    expect(steps[1]).toHaveTextContent(authMessages.mfaStepScan);
    expect(within(steps[1]!).getByRole('img', { name: authMessages.mfaQrLabel })).toBeInTheDocument();
    expect(steps[1]).toHaveTextContent(SECRET);
    expect(steps[2]).toHaveTextContent(authMessages.mfaStepType);
    expect(within(steps[2]!).getByPlaceholderText(authMessages.mfaCodePlaceholder)).toBeInTheDocument();
    expect(modal).not.toHaveTextContent(authMessages.mfaPrompt);
  } else {
    expect(modal).toHaveTextContent(authMessages.mfaPrompt);
    expect(modal).not.toHaveTextContent(authMessages.mfaSetup);
    expect(within(modal).queryByRole('img', { name: authMessages.mfaQrLabel })).not.toBeInTheDocument();
  }
  const input = codeInput();
  expect(input).toHaveAttribute('inputmode', 'numeric');
  expect(input).toHaveAttribute('autocomplete', 'one-time-code');
  expect(input).toHaveAttribute('maxlength', '6');
  expect(modal).not.toHaveTextContent(authMessages.noAccess);
  const enter = button(authMessages.enter);
  if (busy) {
    expect(input).toBeDisabled();
    expect(enter).toBeDisabled();
    expect(enter).toHaveAttribute('data-loading', 'true');
    expect(button(authMessages.cancel)).toBeDisabled();
  } else {
    expect(input).toBeEnabled();
    expect(enter).toBeEnabled();
    expect(enter).not.toHaveAttribute('data-loading');
    expect(button(authMessages.cancel)).toBeEnabled();
  }
  if (error) expect(within(modal).getByRole('alert')).toHaveTextContent(error);
  else expect(within(modal).queryByRole('alert')).not.toBeInTheDocument();
}

function expectClosedWith(output: MfaOutput) {
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  // What the parent (login or registration) receives.
  expect(actor.getSnapshot().output).toEqual(output);
}

const states = {
  '#mfa.entering.ready': (snapshot) => expectCodeForm(snapshot, { busy: false, error: null }),
  '#mfa.entering.invalidCode': (snapshot) => expectCodeForm(snapshot, { busy: false, error: mfaMessages.invalidCode }),
  '#mfa.entering.failed': (snapshot) => expectCodeForm(snapshot, { busy: false, error: genericError }),
  '#mfa.verifying': (snapshot) => {
    expectCodeForm(snapshot, { busy: true, error: null });
    expect(doubles.inputs('verifyCode').at(-1)).toEqual({ pendingToken: PENDING, user: 'ana', mfaCode: '123456' });
  },
  '#mfa.noAccess': () => {
    const modal = dialog();
    expect(modal).toHaveTextContent(authMessages.noAccess);
    expect(within(modal).queryByPlaceholderText(authMessages.mfaCodePlaceholder)).not.toBeInTheDocument();
    expect(within(modal).queryByRole('button', { name: authMessages.enter })).not.toBeInTheDocument();
    expect(modal).not.toHaveTextContent(authMessages.mfaSetup);
    expect(modal).not.toHaveTextContent(authMessages.mfaPrompt);
    expect(button(authMessages.cancel)).toBeEnabled();
  },
  '#mfa.verified': () => expectClosedWith({ outcome: 'verified', token: SESSION }),
  '#mfa.cancelled': () => {
    expectClosedWith({ outcome: 'cancelled' });
    expect(doubles.pendingCount('verifyCode')).toBe(0);
  },
  '#mfa.locked': () => expectClosedWith({ outcome: 'locked' }),
} satisfies StateChecks<Snapshot>;

for (const { name, input, paths } of models) {
  describe(`mfa modal, ${name}`, () => {
    beforeEach(() => start(input));
    for (const { name: pathName, path } of paths) {
      it(pathName, async () => {
        await runPath(path, states, executors);
      });
    }
  });
}

describe('mfa model coverage', () => {
  itCoversTheMachine(
    mfaMachine,
    models.flatMap((entry) => entry.paths),
    { events, states, executors },
  );
});

describe('mfa modal, closing', () => {
  it('Escape cancels like Cancelar', async () => {
    start(inputs.OTP_ACTIVED!);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(actor.getSnapshot().output).toEqual({ outcome: 'cancelled' });
  });
  it('keeps only digits in the code input', async () => {
    start(inputs.OTP_ACTIVED!);
    await user.type(codeInput(), '12a3 4-56789');
    expect(codeInput()).toHaveValue('123456');
  });
});
