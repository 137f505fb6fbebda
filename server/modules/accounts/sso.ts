import crypto from 'node:crypto';
import { errors, importSPKI, jwtVerify, type JWTPayload, type KeyInput } from 'jose';
import type { Config } from '../../config.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import { isValidUsername } from './users.service.ts';

/** Who the organisation's identity source says is signing in. */
export interface SsoIdentity {
  username: string;
  nombre: string;
  email: string | null;
  organizacion: string | null;
}

/** Verifies a single-sign-on token (a JWT of the identity source) and reads its identity. */
export type SsoVerifier = (token: string) => Promise<SsoIdentity>;

const refused = (type: 'tao-token expired' | 'invalid-signature' | 'invalid', detail: string) => new HttpProblem(401, type, detail);

/** The one algorithm a public key allows: RS256 for RSA keys, ES256 for P-256 keys. */
function algorithmOf(publicKeyPem: string): 'RS256' | 'ES256' {
  if (!publicKeyPem.includes('-----BEGIN PUBLIC KEY-----')) throw new Error('SSO_PUBLIC_KEY must be a PEM public key (-----BEGIN PUBLIC KEY-----)');
  let key: crypto.KeyObject;
  try {
    key = crypto.createPublicKey(publicKeyPem);
  } catch {
    throw new Error('SSO_PUBLIC_KEY is not a PEM public key');
  }
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new Error('SSO_PUBLIC_KEY must be an RSA key (RS256) or a P-256 EC key (ES256)');
}

function text(payload: JWTPayload, names: string[], max: number): string | null {
  for (const name of names) {
    const value = payload[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw refused('invalid', `the claim ${name} must be a string`);
    const trimmed = value.trim();
    if (trimmed !== '') return trimmed.slice(0, max);
  }
  return null;
}

function identityOf(payload: JWTPayload): SsoIdentity {
  const username = text(payload, ['user', 'preferred_username', 'sub'], 1000);
  if (!username || !isValidUsername(username)) throw refused('invalid', 'the token names no valid user');
  return {
    username,
    nombre: text(payload, ['nombre', 'name'], 200) ?? username,
    email: text(payload, ['email'], 254),
    organizacion: text(payload, ['organizacion', 'org'], 100),
  };
}

/**
 * The verifier of the configured identity source, or null when single sign-on is not configured.
 * Exactly one algorithm is allowed (HS256 with SSO_HS256_SECRET, RS256/ES256 with SSO_PUBLIC_KEY);
 * `alg: none` and every other algorithm are refused, `exp` is required, and issuer and audience are
 * checked when configured. Throws at start-up on a configuration that cannot work.
 */
export function makeSsoVerifier(sso: Config['sso']): SsoVerifier | null {
  if (!sso.hs256Secret && !sso.publicKeyPem) return null;
  if (sso.hs256Secret && sso.publicKeyPem) throw new Error('configure SSO_HS256_SECRET or SSO_PUBLIC_KEY, not both');
  const algorithm = sso.publicKeyPem ? algorithmOf(sso.publicKeyPem) : 'HS256';
  let key: Promise<KeyInput> | undefined;
  const keyOf = () => (key ??= sso.publicKeyPem ? importSPKI(sso.publicKeyPem, algorithm) : Promise.resolve(new TextEncoder().encode(sso.hs256Secret)));

  return async (token) => {
    const verificationKey = await keyOf();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, verificationKey, {
        algorithms: [algorithm],
        requiredClaims: ['exp'],
        ...(sso.issuer ? { issuer: sso.issuer } : {}),
        ...(sso.audience ? { audience: sso.audience } : {}),
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw refused('tao-token expired', 'the token has expired');
      if (error instanceof errors.JWSSignatureVerificationFailed) throw refused('invalid-signature', 'the token signature is not valid');
      throw refused('invalid', 'the token is not valid');
    }
    return identityOf(payload);
  };
}
