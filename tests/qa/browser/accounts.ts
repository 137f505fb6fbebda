/**
 * Accounts for the browser paths, made through the real API by an administrator: an invitation,
 * a registration, the second factor enrolled with a code its authenticator computes. A path that
 * signs in gets an account of its own: a TOTP code is accepted once per 30-second step, so two
 * sign-ins of one account within a step would refuse the second.
 */
import * as OTPAuth from 'otpauth';
import type { SignedIn } from '../../e2e/session.ts';
import { cli } from '../../e2e/session.ts';
import { api, apiResponse, type Instance } from './world.ts';

export const PASSWORD = 'correct horse battery staple';

export interface Account {
  id: number;
  user: string;
  password: string;
  /** The authenticator's secret (base32); null before the second factor is enrolled. */
  secret: string | null;
}

let made = 0;
/** A user name no other account of this run has (letters and digits). */
export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${(made++).toString(36)}`;

/** The secret of an otpauth:// URI. */
export const secretOf = (uri: string) => (OTPAuth.URI.parse(uri) as OTPAuth.TOTP).secret.base32;

/** The code the authenticator shows, `offsetSteps` 30-second steps from now. */
export function totpCode(secret: string, user: string, offsetSteps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), label: user });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/** A code that is none of the ones accepted now. */
export function wrongCode(secret: string, user: string): string {
  const accepted = new Set([-1, 0, 1].map((offset) => totpCode(secret, user, offset)));
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, '0');
    if (!accepted.has(code)) return code;
  }
}

/**
 * Waits for the next 30-second step when this one ends within `margin` ms. The previous step's code
 * is accepted only until the step after this one begins: computed in the last moments of a step and
 * checked by a busy server after the boundary, it would be refused (seen once under load).
 */
async function clearOfStepEnd(margin = 5_000): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < margin) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/** An invitation token (and the address it was sent to). */
export async function invitation(instance: Instance, admin: SignedIn, email = `${uniqueName('qa')}@example.org`) {
  const created = await api(instance, 'POST', '/api/register-invitations', { email }, admin.token);
  return { token: created.token as string, email };
}

/** A registered account whose second factor is not enrolled yet (OTP_DISABLED), with its pending sign-in. */
export async function registeredAccount(instance: Instance, admin: SignedIn, prefix = 'qa') {
  const { token } = await invitation(instance, admin);
  const user = uniqueName(prefix);
  const answer = await api(instance, 'POST', '/api/register', { user, password: PASSWORD, token });
  const otp = answer.otp as { uri: string };
  return { user, password: PASSWORD, pendingToken: answer.token as string, secret: secretOf(otp.uri) };
}

/** An account with the second factor enrolled (OTP_ACTIVED); its enrolment used the previous step's code. */
export async function enrolledAccount(instance: Instance, admin: SignedIn, prefix = 'qa'): Promise<Account & { token: string }> {
  const registered = await registeredAccount(instance, admin, prefix);
  await clearOfStepEnd();
  const session = await api(
    instance,
    'POST',
    '/api/mfa',
    { user: registered.user, mfaCode: totpCode(registered.secret, registered.user, -1) },
    registered.pendingToken,
  );
  const users = (await api(instance, 'GET', '/api/usuarios', undefined, admin.token)) as unknown as Array<{ id: number; user: string }>;
  const id = users.find((candidate) => candidate.user === registered.user)!.id;
  return { id, user: registered.user, password: PASSWORD, secret: registered.secret, token: session.token as string };
}

/** Blocks the account (its sessions end at once). */
export async function block(instance: Instance, admin: SignedIn, account: Account): Promise<void> {
  await api(instance, 'PATCH', `/api/usuarios/${account.id}`, [{ op: 'replace', path: '/bloqueado', value: true }], admin.token);
}

/** Promotes the account to administrator: any change ends its sessions at once. */
export async function endSessions(instance: Instance, admin: SignedIn, account: Account): Promise<void> {
  await api(instance, 'PATCH', `/api/usuarios/${account.id}`, [{ op: 'replace', path: '/rol', value: 'admin' }], admin.token);
}

/** The account must enrol a new second factor at its next sign-in (OTP_REQUIRED): the operator's command line. */
export async function resetSecondFactor(instance: Instance, account: Account): Promise<void> {
  if (!instance.product) throw new Error('An OTP_REQUIRED account needs the CLI of a fresh product (`reset-otp`): not available with QA_BASE_URL');
  await cli(instance.product, ['reset-otp', account.user]);
}

/** Fails `count` sign-ins of `user` with a wrong password through the API. */
export async function failSignIns(instance: Instance, user: string, count: number): Promise<void> {
  for (let attempt = 0; attempt < count; attempt += 1) {
    await api(instance, 'POST', '/api/login', { user, password: `wrong password ${attempt}` }).catch(() => {});
  }
}

/** Fails `count` codes of a pending sign-in through the API. */
export async function failCodes(instance: Instance, user: string, secret: string, pendingToken: string, count: number): Promise<void> {
  for (let attempt = 0; attempt < count; attempt += 1) {
    // Each must be refused as a wrong code (counted by the server), or the path's later lock is not the fifth.
    const answer = await apiResponse(instance, 'POST', '/api/mfa', { user, mfaCode: wrongCode(secret, user) }, pendingToken);
    const body = await answer.text();
    if (answer.status !== 401 || !body.includes('invalid-mfa-token')) {
      throw new Error(`wrong code ${attempt + 1} of ${count} was answered ${answer.status} ${body}, not 401 invalid-mfa-token`);
    }
  }
}
