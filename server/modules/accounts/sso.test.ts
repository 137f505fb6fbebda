import { exportSPKI, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { findUserByKey } from './accounts.repository.ts';
import { claimsOf } from '../../../tests/utils/accounts.ts';
import { changeUser } from './users.service.ts';

const SECRET = 'the-identity-source-shared-secret-0123456789';
const ISSUER = 'https://idp.example.org';
const AUDIENCE = 'tao';
const key = new TextEncoder().encode(SECRET);
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

function token(claims: JWTPayload, options: { alg?: string; signWith?: Parameters<SignJWT['sign']>[0]; exp?: number | null; iss?: string; aud?: string } = {}) {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256' }).setIssuer(options.iss ?? ISSUER).setAudience(options.aud ?? AUDIENCE).setIssuedAt();
  if (options.exp !== null) jwt.setExpirationTime(options.exp ?? inAnHour());
  return jwt.sign(options.signWith ?? key);
}

/** An unsigned token: header {"alg":"none"}, no signature. */
function unsigned(claims: JWTPayload): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: ISSUER, aud: AUDIENCE, exp: inAnHour(), ...claims })}.`;
}

const ssoLogin = (app: Parameters<typeof call>[0], taoToken: string) => call(app, { method: 'POST', url: '/api/login', payload: { taoToken } });

describeOnEachDatabase('accounts: single sign-on not configured', (server) => {
  it('answers 503 sso-not-configured', async () => {
    const res = await ssoLogin(server().app, await token({ user: 'ana' }));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ type: 'sso-not-configured', status: 503 });
  });
});

describeOnEachDatabase('accounts: single sign-on with HS256', () => ({ SSO_HS256_SECRET: SECRET, SSO_ISSUER: ISSUER, SSO_AUDIENCE: AUDIENCE }), (server) => {
  const expectRefused = async (taoToken: string, type: string) => {
    const res = await ssoLogin(server().app, taoToken);
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toMatchObject({ type, status: 401 });
  };

  describe('a valid token', () => {
    it('provisions the user at the first sign-in and answers a session token', async () => {
      const res = await ssoLogin(server().app, await token({ user: 'sso.ana', nombre: 'Ana Sánchez', organizacion: 'Archivo', email: 'ana@example.org' }));
      expect(res.statusCode, res.body).toBe(200);
      const session = res.json().token as string;
      expect(Object.keys(res.json())).toEqual(['token']);
      expect(claimsOf(session)).toMatchObject({ user: 'sso.ana', role: 'user', aud: 'tao-session' });
      const me = await call(server().app, { method: 'GET', url: '/api/me', token: session });
      expect(me.json()).toMatchObject({ user: 'sso.ana', nombre: 'Ana Sánchez', organizacion: 'Archivo', email: 'ana@example.org', role: 'user' });
      const row = await findUserByKey(server().db.kysely, 'sso.ana');
      expect(row).toMatchObject({ password_hash: null, otp_state: 'OTP_DISABLED', rol: 'user', bloqueado: 0 });
    });

    it('signs the same user in again without a second account', async () => {
      const previous = (await findUserByKey(server().db.kysely, 'sso.ana'))!.last_login_at;
      expect(previous).toEqual(expect.any(String));
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await ssoLogin(server().app, await token({ user: 'SSO.Ana' }));
      expect(res.statusCode).toBe(200);
      const users = await server().db.kysely.selectFrom('users').select(['id', 'last_login_at']).where('username_key', '=', 'sso.ana').execute();
      expect(users).toHaveLength(1);
      expect(claimsOf(res.json().token)).toMatchObject({ sub: String(users[0]!.id) });
      // the last sign-in moved
      expect(users[0]!.last_login_at! > previous!).toBe(true);
    });

    it('reads preferred_username, name and org, or sub alone', async () => {
      expect((await ssoLogin(server().app, await token({ preferred_username: 'bea', name: 'Bea Ruiz', org: 'Biblioteca' }))).statusCode).toBe(200);
      expect(await findUserByKey(server().db.kysely, 'bea')).toMatchObject({ nombre: 'Bea Ruiz', organizacion: 'Biblioteca', email: null });
      const bySub = await token({ sub: 'cris-42' });
      expect((await ssoLogin(server().app, bySub)).statusCode).toBe(200);
      expect(await findUserByKey(server().db.kysely, 'cris-42')).toMatchObject({ nombre: 'cris-42', organizacion: null });
    });

    it('refuses a blocked user', async () => {
      const row = await findUserByKey(server().db.kysely, 'bea');
      await changeUser(server().app.ctx, null, row!.id, { bloqueado: true });
      const res = await ssoLogin(server().app, await token({ user: 'bea' }));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ type: 'blocked-user', status: 403 });
    });
  });

  describe('refused tokens', () => {
    it('refuses an expired token', async () => {
      await expectRefused(await token({ user: 'ana' }, { exp: Math.floor(Date.now() / 1000) - 60 }), 'tao-token expired');
    });

    it('refuses a token signed with another key', async () => {
      await expectRefused(await token({ user: 'ana' }, { signWith: new TextEncoder().encode('not-the-identity-source-secret-0123456789') }), 'invalid-signature');
    });

    it('refuses alg none', async () => {
      await expectRefused(unsigned({ user: 'ana' }), 'invalid');
    });

    it('refuses another algorithm, even with the right secret', async () => {
      await expectRefused(await token({ user: 'ana' }, { alg: 'HS512' }), 'invalid');
      const { privateKey } = await generateKeyPair('RS256');
      await expectRefused(await token({ user: 'ana' }, { alg: 'RS256', signWith: privateKey }), 'invalid');
    });

    it('refuses malformed tokens', async () => {
      for (const malformed of ['not-a-jwt', 'a.b.c', `${(await token({ user: 'ana' })).slice(0, -10)}`.replace(/\./, '.!')]) {
        await expectRefused(malformed, 'invalid');
      }
    });

    it('refuses a token without exp, from another issuer or for another audience', async () => {
      await expectRefused(await token({ user: 'ana' }, { exp: null }), 'invalid');
      await expectRefused(await token({ user: 'ana' }, { iss: 'https://evil.example.org' }), 'invalid');
      await expectRefused(await token({ user: 'ana' }, { aud: 'another-app' }), 'invalid');
    });

    it('refuses a token without a valid user name', async () => {
      await expectRefused(await token({ nombre: 'Nadie' }), 'invalid');
      await expectRefused(await token({ user: 'no válido' }), 'invalid');
      await expectRefused(await token({ user: 42 }), 'invalid');
    });
  });
});

const rsa = generateKeyPair('RS256', { extractable: true });

describeOnEachDatabase('accounts: single sign-on with RS256', async () => ({ SSO_PUBLIC_KEY: await exportSPKI((await rsa).publicKey) }), (server) => {
  it('accepts a token signed by the identity source', async () => {
    const res = await ssoLogin(server().app, await token({ user: 'rsa.user' }, { alg: 'RS256', signWith: (await rsa).privateKey }));
    expect(res.statusCode, res.body).toBe(200);
    expect(claimsOf(res.json().token)).toMatchObject({ user: 'rsa.user', role: 'user' });
  });

  it('refuses a token signed by another key', async () => {
    const other = await generateKeyPair('RS256');
    const res = await ssoLogin(server().app, await token({ user: 'rsa.user' }, { alg: 'RS256', signWith: other.privateKey }));
    expect(res.statusCode).toBe(401);
    expect(res.json().type).toBe('invalid-signature');
  });

  it('refuses HS256 signed with the public key as secret (algorithm confusion) and other algorithms', async () => {
    const pem = new TextEncoder().encode(await exportSPKI((await rsa).publicKey));
    const confused = await ssoLogin(server().app, await token({ user: 'rsa.user' }, { alg: 'HS256', signWith: pem }));
    expect(confused.statusCode).toBe(401);
    expect(confused.json().type).toBe('invalid');
    const ps = await ssoLogin(server().app, await token({ user: 'rsa.user' }, { alg: 'PS256', signWith: (await generateKeyPair('PS256')).privateKey }));
    expect(ps.statusCode).toBe(401);
    expect(ps.json().type).toBe('invalid');
    const none = await ssoLogin(server().app, unsigned({ user: 'rsa.user' }));
    expect(none.json().type).toBe('invalid');
  });
});

const ec = generateKeyPair('ES256', { extractable: true });

describe('accounts: single sign-on key configuration', () => {
  it('takes a P-256 key for ES256', async () => {
    const { makeSsoVerifier } = await import('./sso.ts');
    const verify = makeSsoVerifier({ hs256Secret: undefined, publicKeyPem: await exportSPKI((await ec).publicKey), issuer: ISSUER, audience: AUDIENCE });
    const identity = await verify!(await token({ user: 'ec.user', email: 'ec@example.org' }, { alg: 'ES256', signWith: (await ec).privateKey }));
    expect(identity).toEqual({ username: 'ec.user', nombre: 'ec.user', email: 'ec@example.org', organizacion: null });
    await expect(verify!(await token({ user: 'ec.user' }, { alg: 'RS256', signWith: (await rsa).privateKey }))).rejects.toMatchObject({ type: 'invalid' });
  });

  it('refuses a configuration that cannot work, at start-up', async () => {
    const { makeSsoVerifier } = await import('./sso.ts');
    const pem = await exportSPKI((await rsa).publicKey);
    expect(() => makeSsoVerifier({ hs256Secret: SECRET, publicKeyPem: pem, issuer: undefined, audience: undefined })).toThrow(/not both/);
    expect(() => makeSsoVerifier({ hs256Secret: undefined, publicKeyPem: 'not a key', issuer: undefined, audience: undefined })).toThrow(/SSO_PUBLIC_KEY/);
    expect(makeSsoVerifier({ hs256Secret: undefined, publicKeyPem: undefined, issuer: undefined, audience: undefined })).toBeNull();
  });
});
