import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { mfaMachine } from '../../../machines/mfa/mfa.machine.ts';
import type { SessionTokenOutput, VerifyCodeInput } from '../../../machines/mfa/mfa.types.ts';
import { ApiError } from '../../lib/api/api-error.ts';
import { authMessages, mfaMessages } from '../../lib/first-screen-messages.ts';
import { renderWithTheme } from '../../../tests/utils/render.tsx';
import { MfaModal } from './mfa-modal.tsx';

/** The modal over an mfa machine whose server refuses the codes it is given in `refused`. */
function openModal(refused: string[]) {
  const sent: string[] = [];
  const verifyCode = fromPromise<SessionTokenOutput, VerifyCodeInput>(async ({ input }) => {
    sent.push(input.mfaCode);
    if (refused.includes(input.mfaCode)) throw new ApiError({ status: 401, type: 'invalid-mfa-token', title: 'Unauthorized' });
    return { token: 'session-token' };
  });
  const actor = createActor(mfaMachine.provide({ actors: { verifyCode } }), {
    input: { pendingToken: 'pending', otp: { state: 'OTP_ACTIVED', user: 'ana' } },
  }).start();
  renderWithTheme(<MfaModal actorRef={actor} />);
  const dialog = screen.getByRole('dialog', { name: authMessages.mfaTitle });
  return { actor, sent, dialog, code: () => within(dialog).getByPlaceholderText(authMessages.mfaCodePlaceholder) };
}

describe('the MFA modal after a wrong code', () => {
  it('says so, empties the field and puts the focus back in it, ready for the next code', async () => {
    const user = userEvent.setup();
    const { sent, dialog, code } = openModal(['111111', '222222']);
    await user.type(code(), '111111');
    await user.click(within(dialog).getByRole('button', { name: authMessages.enter }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(mfaMessages.invalidCode);
    expect(code()).toHaveValue('');
    expect(code()).toHaveFocus();

    // Typed straight away, without clicking the field: a second wrong code, the same again.
    await user.keyboard('222222{Enter}');
    expect(sent).toEqual(['111111', '222222']);
    await act(async () => {});
    expect(within(dialog).getByRole('alert')).toHaveTextContent(mfaMessages.invalidCode);
    expect(code()).toHaveValue('');
    expect(code()).toHaveFocus();
  });

  it('a right code after a wrong one signs in', async () => {
    const user = userEvent.setup();
    const { actor, code } = openModal(['111111']);
    await user.type(code(), '111111{Enter}');
    await screen.findByRole('alert');
    await user.keyboard('123456{Enter}');
    await act(async () => {});
    expect(actor.getSnapshot().output).toEqual({ outcome: 'verified', token: 'session-token' });
  });
});
