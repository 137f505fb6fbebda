import { Secret, TOTP } from 'otpauth';

/** The second factor: TOTP as authenticator apps know it (RFC 6238: SHA-1, 6 digits, 30-second steps). */
const ISSUER = 'TAO';
const PERIOD_SECONDS = 30;
/** Codes of the previous and the next step are accepted too (clock drift). */
const WINDOW = 1;

function totpOf(secretBase32: string, username: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A fresh random secret (160 bits), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, username: string): string {
  return totpOf(secretBase32, username).toString();
}

/** The time step a code belongs to (within ±1 step of now), or null when the code is wrong. */
export function matchTotpStep(secretBase32: string, username: string, code: string, now = Date.now()): number | null {
  const totp = totpOf(secretBase32, username);
  const delta = totp.validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}
