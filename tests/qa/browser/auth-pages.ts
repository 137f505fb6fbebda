/**
 * What the login, registration and MFA browser plans share: finding the form and the MFA modal as
 * a person does (labels, roles, texts), waiting for what they show, and finishing the second factor
 * the way a path's outcome says (a right code, wrong codes until the lock, Cancelar, a browser that
 * refuses to store the session).
 */
import type { Locator, Page } from 'playwright-core';
import type { SecondFactorOutput } from '../../../machines/second-factor/second-factor.types.ts';
import { authMessages, genericError, mfaMessages } from '../../../src/lib/messages.ts';
import { totpCode, wrongCode } from './accounts.ts';

export const WAIT = 15_000;

export const visible = (locator: Locator, timeout = WAIT) => locator.first().waitFor({ state: 'visible', timeout });
export const gone = (locator: Locator, timeout = WAIT) => locator.first().waitFor({ state: 'hidden', timeout });
export const enabled = async (locator: Locator, timeout = WAIT) => {
  await visible(locator, timeout);
  await locator.and(locator.page().locator(':enabled')).first().waitFor({ timeout });
};
export const disabled = async (locator: Locator, timeout = WAIT) => {
  await visible(locator, timeout);
  await locator.and(locator.page().locator(':disabled')).first().waitFor({ timeout });
};

/** Retries `check` until it passes (what a person sees settles after a render or two). */
export async function eventually(check: () => Promise<void>, timeout = WAIT): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
/** The form's Entrar (the MFA modal has one too). */
export const enterButton = (page: Page) => page.getByRole('button', { name: authMessages.enter, exact: true }).first();
export const mfaDialog = (page: Page) => page.getByRole('dialog', { name: authMessages.mfaTitle });
export const codeInput = (page: Page) => mfaDialog(page).getByPlaceholder(authMessages.mfaCodePlaceholder);
/** An alert outside the modal: the page's message. */
export const pageAlert = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** The form is usable (or busy: fields disabled), showing `message` or no message. */
export async function expectForm(page: Page, labels: string[], { busy, message }: { busy: boolean; message: string | null }) {
  for (const label of labels) {
    if (busy) await disabled(field(page, label));
    else await enabled(field(page, label));
  }
  if (message) await visible(pageAlert(page, message));
  else await gone(page.getByRole('alert'));
}

/** The MFA modal for an OTP state: enrolment (QR and steps), the prompt, or no access. */
export async function expectMfaModal(page: Page, otpState: string) {
  await visible(mfaDialog(page));
  if (otpState === 'OTP_ACTIVED') await visible(mfaDialog(page).getByText(authMessages.mfaPrompt));
  else if (otpState === 'OTP_DISABLED' || otpState === 'OTP_REQUIRED') await visible(mfaDialog(page).getByText(authMessages.mfaSetup));
  else await visible(mfaDialog(page).getByText(authMessages.noAccess));
}

/** Types a code in the modal and presses its Entrar. */
export async function enterCode(page: Page, code: string) {
  await codeInput(page).fill(code);
  await mfaDialog(page).getByRole('button', { name: authMessages.enter, exact: true }).click();
}

/** From now on the browser refuses to store anything (a full or disabled storage): the session token is not kept. */
export async function refuseStorage(page: Page) {
  await page.evaluate(() => {
    Storage.prototype.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
}

/** Finishes the second factor as `output` says, with the account's authenticator (`secret`). */
export async function finishSecondFactor(page: Page, output: SecondFactorOutput, user: string, secret: string) {
  switch (output.outcome) {
    case 'cancelled':
      await mfaDialog(page).getByRole('button', { name: authMessages.cancel }).click();
      return;
    case 'notStored':
      await refuseStorage(page);
      await enterCode(page, totpCode(secret, user, 1));
      return;
    case 'verified':
      await enterCode(page, totpCode(secret, user, 1));
      return;
    case 'locked':
      // Wrong codes until the server ends the sign-in (the fifth): each earlier one says so in the modal.
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        await enterCode(page, wrongCode(secret, user));
        if (attempt === 5) break;
        await visible(mfaDialog(page).getByText(mfaMessages.invalidCode));
        await enabled(codeInput(page));
      }
      return;
  }
}

export { authMessages, genericError, mfaMessages };
