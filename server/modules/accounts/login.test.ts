import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { findUserByKey } from './accounts.repository.ts';
import { authenticatorOf, claimsOf, createFirstAdmin, inviteUser, login, type TestUser } from '../../../tests/utils/accounts.ts';
import { changeUser } from './users.service.ts';

describeOnEachDatabase('accounts: sign-in with user and password', (server) => {
  let admin: TestUser;
  let ana: TestUser;

  beforeAll(async () => {
    admin = await createFirstAdmin(server());
    ana = await inviteUser(server(), admin, 'ana');
  });

  const db = () => server().db.kysely;
  const failuresOf = async (key: string) =>
    db().selectFrom('login_failures').selectAll().where('username_key', '=', key).executeTakeFirst();

  describe('wrong credentials', () => {
    it('answers an unknown user exactly like a wrong password, in about the same time', async () => {
      const started = Date.now();
      const unknown = await login(server().app, 'nobody-here', 'some-password');
      const unknownMs = Date.now() - started;
      const wrong = await login(server().app, 'ana', 'not-her-password');
      expect(unknown.statusCode).toBe(401);
      expect(wrong.statusCode).toBe(401);
      expect(unknown.json()).toEqual(wrong.json());
      expect(unknown.json()).toMatchObject({ type: 'wrong-password', status: 401 });
      // an argon2 verification ran for the unknown user too (a dummy hash)
      expect(unknownMs).toBeGreaterThan(15);
      await db().deleteFrom('login_failures').execute();
    });

    it('refuses a user provisioned by single sign-on (no password) like a wrong password', async () => {
      const at = new Date().toISOString();
      await db()
        .insertInto('users')
        .values({ username: 'sso-only', username_key: 'sso-only', nombre: 'SSO', email: null, rol: 'user', organizacion: null, password_hash: null, otp_state: 'OTP_DISABLED', otp_secret: null, otp_last_step: null, created_at: at, updated_at: at })
        .execute();
      const res = await login(server().app, 'sso-only', 'any-password');
      expect(res.statusCode).toBe(401);
      expect(res.json().type).toBe('wrong-password');
    });
  });

  describe('the answer of a right password', () => {
    it('gives a pending token and an enrolment URI to a user without a second factor, a fresh secret each time', async () => {
      const bea = await inviteUser(server(), admin, 'bea');
      await db().updateTable('users').set({ otp_state: 'OTP_DISABLED', otp_secret: null, otp_last_step: null }).where('id', '=', bea.id).execute();

      const first = await login(server().app, 'bea', bea.password);
      const second = await login(server().app, 'BEA', bea.password);
      expect(first.statusCode).toBe(200);
      expect(second.statusCode).toBe(200);
      const a = first.json();
      const b = second.json();
      expect(a.otp).toMatchObject({ state: 'OTP_DISABLED', user: 'bea' });
      expect(a.otp.uri).toMatch(/^otpauth:\/\/totp\/TAO:bea\?/);
      const totp = authenticatorOf(a.otp.uri);
      expect(totp).toMatchObject({ issuer: 'TAO', label: 'bea', algorithm: 'SHA1', digits: 6, period: 30 });
      expect(b.otp.uri).not.toEqual(a.otp.uri);
      // the secret waits on the pending sign-in, not on the user, until a code proves it
      const row = await findUserByKey(db(), 'bea');
      expect(row).toMatchObject({ otp_state: 'OTP_DISABLED', otp_secret: null });
    });

    it('gives a user with an active second factor no URI', async () => {
      const res = await login(server().app, 'ana', ana.password);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.otp).toEqual({ state: 'OTP_ACTIVED', user: 'ana' });
    });

    it('signs the pending token for the MFA step only, expiring in 10 minutes', async () => {
      const res = await login(server().app, 'ana', ana.password);
      const claims = claimsOf(res.json().token);
      expect(claims).toMatchObject({ aud: 'tao-mfa', sub: String(ana.id), user: 'ana' });
      expect(typeof claims.jti).toBe('string');
      expect(Number(claims.exp) - Math.floor(Date.now() / 1000)).toBeGreaterThan(9 * 60);
      expect(Number(claims.exp) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(10 * 60);
      const pending = await db().selectFrom('pending_logins').selectAll().where('id', '=', String(claims.jti)).executeTakeFirstOrThrow();
      expect(pending).toMatchObject({ user_id: ana.id, otp_secret: null, failures: 0 });
      expect(Buffer.from(String(claims.jti), 'base64url')).toHaveLength(32);
    });
  });

  describe('a blocked user', () => {
    it('learns of the block only with the right password', async () => {
      const carl = await inviteUser(server(), admin, 'carl');
      await changeUser(server().app.ctx, admin.id, carl.id, { bloqueado: true });
      const right = await login(server().app, 'carl', carl.password);
      expect(right.statusCode).toBe(403);
      expect(right.json()).toMatchObject({ type: 'blocked-user', status: 403 });
      const wrong = await login(server().app, 'carl', 'wrong-password');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().type).toBe('wrong-password');
    });
  });

  describe('lockout after five failures', () => {
    it('locks the name at the fifth consecutive failure, even for the right password, for 15 minutes', async () => {
      const dora = await inviteUser(server(), admin, 'dora');
      for (let i = 1; i <= 4; i++) {
        const res = await login(server().app, 'dora', `wrong-${i}-password`);
        expect(res.statusCode).toBe(401);
        expect(res.json().type).toBe('wrong-password');
      }
      const fifth = await login(server().app, 'dora', 'wrong-5-password');
      expect(fifth.statusCode).toBe(429);
      expect(fifth.json()).toMatchObject({ type: 'number-of-login-attempts-exceeded', status: 429 });

      const right = await login(server().app, 'Dora', dora.password);
      expect(right.statusCode).toBe(429);
      expect(right.json().type).toBe('number-of-login-attempts-exceeded');

      const row = await failuresOf('dora');
      const lockedFor = Date.parse(row!.locked_until!) - Date.now();
      expect(lockedFor).toBeGreaterThan(14 * 60 * 1000);
      expect(lockedFor).toBeLessThanOrEqual(15 * 60 * 1000);

      // 15 minutes later
      await db().updateTable('login_failures').set({ locked_until: new Date(Date.now() - 1000).toISOString() }).where('username_key', '=', 'dora').execute();
      const after = await login(server().app, 'dora', dora.password);
      expect(after.statusCode).toBe(200);
      expect(await failuresOf('dora')).toBeUndefined();
    });

    it('starts counting again once a lock has run out', async () => {
      await db().insertInto('login_failures').values({ username_key: 'eve', failures: 5, locked_until: new Date(Date.now() - 1000).toISOString(), updated_at: new Date().toISOString() }).execute();
      const res = await login(server().app, 'eve', 'wrong-password');
      expect(res.statusCode).toBe(401);
      expect(await failuresOf('eve')).toMatchObject({ failures: 1, locked_until: null });
    });

    it('locks unknown names the same way, so a lock reveals nothing', async () => {
      for (let i = 1; i <= 4; i++) expect((await login(server().app, 'ghost', 'wrong-password')).statusCode).toBe(401);
      const fifth = await login(server().app, 'ghost', 'wrong-password');
      expect(fifth.statusCode).toBe(429);
      expect(fifth.json().type).toBe('number-of-login-attempts-exceeded');
    });

    it('checks no more than five passwords of a burst of parallel guesses', async () => {
      const fede = await inviteUser(server(), admin, 'fede');
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => login(server().app, 'fede', `guess-${i}-password`)));
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(4);
      expect(statuses.filter((s) => s === 429)).toHaveLength(4);
      expect((await login(server().app, 'fede', fede.password)).statusCode).toBe(429);
    });

    it('resets the count on a success', async () => {
      for (let i = 1; i <= 4; i++) expect((await login(server().app, 'ana', 'wrong-password')).statusCode).toBe(401);
      expect((await login(server().app, 'ana', ana.password)).statusCode).toBe(200);
      for (let i = 1; i <= 4; i++) expect((await login(server().app, 'ana', 'wrong-password')).statusCode).toBe(401);
      expect((await login(server().app, 'ana', ana.password)).statusCode).toBe(200);
    });

    it('forgets counts a day old at the next right password, but not recent ones nor a running lock', async () => {
      const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();
      await db().deleteFrom('login_failures').execute();
      await db()
        .insertInto('login_failures')
        .values([
          // guessed names nobody has, a day and more ago: gone
          { username_key: 'guess-1', failures: 3, locked_until: null, updated_at: hoursAgo(25) },
          { username_key: 'guess-2', failures: 5, locked_until: hoursAgo(24.5), updated_at: hoursAgo(24.75) },
          // recent: kept (still counting towards a lock)
          { username_key: 'guess-3', failures: 4, locked_until: null, updated_at: hoursAgo(23) },
          // an old row whose lock still runs (a clock moved back, say): kept until it runs out
          { username_key: 'guess-4', failures: 5, locked_until: new Date(Date.now() + 600_000).toISOString(), updated_at: hoursAgo(30) },
        ])
        .execute();
      expect((await login(server().app, 'ana', ana.password)).statusCode).toBe(200);
      const left = await db().selectFrom('login_failures').select('username_key').orderBy('username_key').execute();
      expect(left.map((row) => row.username_key)).toEqual(['guess-3', 'guess-4']);
      // the recent count still locks at its fifth failure
      expect((await login(server().app, 'guess-3', 'whatever')).statusCode).toBe(429);
      await db().deleteFrom('login_failures').execute();
    });
  });

  describe('request checks', () => {
    it('refuses a sign-in without the XSRF header, or with one that does not match the cookie', async () => {
      const payload = { user: 'ana', password: ana.password };
      const missing = await server().app.inject({ method: 'POST', url: '/api/login', payload, headers: { cookie: 'XSRF-TOKEN=abcdefabcdef' } });
      expect(missing.statusCode).toBe(403);
      expect(missing.json()).toMatchObject({ type: 'xsrf-token-mismatch' });
      const mismatched = await server().app.inject({
        method: 'POST',
        url: '/api/login',
        payload,
        headers: { cookie: 'XSRF-TOKEN=abcdefabcdef', 'x-xsrf-token': 'abcdefabcdeX' },
      });
      expect(mismatched.statusCode).toBe(403);
      expect(mismatched.json()).toMatchObject({ type: 'xsrf-token-mismatch' });
      const noCookie = await server().app.inject({ method: 'POST', url: '/api/login', payload, headers: { 'x-xsrf-token': 'abcdefabcdef' } });
      expect(noCookie.statusCode).toBe(403);
    });

    it('refuses a body that is neither credentials nor a single-sign-on token', async () => {
      const res = await call(server().app, { method: 'POST', url: '/api/login', payload: { user: 'ana' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe('validation-error');
    });
  });
});
