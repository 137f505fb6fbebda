import { argon2id, hash, verify } from 'argon2';
import { HttpProblem } from '../../plugins/problems.ts';

/** argon2id with the OWASP minimum: 19 MiB of memory, 2 passes, 1 lane. */
const ARGON2 = { type: argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** The rule for new passwords: 8 to 128 characters (code points, as the contract counts them). */
export function checkNewPassword(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw new HttpProblem(400, 'invalid-password', `the password must have from ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/**
 * The hash, with ARGON2's parameters (keep them equal), of a random password nobody kept: unknown
 * users are verified against it, so they take as long as known ones.
 */
const DUMMY_HASH = '$argon2id$v=19$m=19456,p=1,t=2$WO46F79gwZdi+R8IId7Vog$z6y/P0wNYdnelYRHRtxnibhqpLtJVqHeOeDcnVZFvvM';

/**
 * Verifies a password against a stored hash. Without a hash (unknown user, single-sign-on account)
 * the dummy hash is verified instead and the answer is false, in about the same time.
 */
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  const digest = storedHash ?? DUMMY_HASH;
  let matches = false;
  try {
    matches = await verify(digest, password);
  } catch {
    matches = false;
  }
  return matches && storedHash !== null && storedHash !== undefined;
}
