import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { findUserById } from './accounts.repository.ts';
import {
  authenticatorOf,
  claimsOf,
  createFirstAdmin,
  freshCode,
  inviteUser,
  lastStepOf,
  login,
  mfa,
  sessionOf,
  wrongCode,
  type TestUser,
} from '../../../tests/utils/accounts.ts';
import { changeUser, resetOtp } from './users.service.ts';

describeOnEachDatabase('accounts: second factor (TOTP)', (server) => {
  let admin: TestUser;
  let ana: TestUser;

  beforeAll(async () => {
    admin = await createFirstAdmin(server());
    ana = await inviteUser(server(), admin, 'ana');
  });

  const pendingFor = async (user: TestUser) => {
    const res = await login(server().app, user.user, user.password);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { token: string; otp: { state: string; user: string; uri?: string } };
  };

  describe('enrolment', () => {
    it('activates the secret the first code proves, and answers a session token', async () => {
      const bea = await inviteUser(server(), admin, 'bea');
      await resetOtp(server().app.ctx, bea.id);
      const pending = await pendingFor(bea);
      expect(pending.otp.state).toBe('OTP_REQUIRED');
      const totp = authenticatorOf(pending.otp.uri!);

      const res = await mfa(server().app, pending.token, 'bea', totp.generate());
      expect(res.statusCode, res.body).toBe(200);
      const session = res.json().token as string;
      expect(claimsOf(session)).toMatchObject({ aud: 'tao-session', iss: 'tao', sub: String(bea.id), user: 'bea', role: 'user' });
      const claims = claimsOf(session);
      expect(Number(claims.exp) - Number(claims.iat)).toBe(12 * 3600);

      const row = await findUserById(server().db.kysely, bea.id);
      expect(row).toMatchObject({ otp_state: 'OTP_ACTIVED', otp_secret: totp.secret.base32 });
      expect(row!.otp_last_step).toBeGreaterThanOrEqual(totp.counter() - 1);
      expect(await server().db.kysely.selectFrom('pending_logins').selectAll().where('user_id', '=', bea.id).execute()).toEqual([]);

      const me = await call(server().app, { method: 'GET', url: '/api/me', token: session });
      expect(me.statusCode).toBe(200);

      // the next sign-in asks for a code of that authenticator, without a new URI
      const next = await pendingFor(bea);
      expect(next.otp).toEqual({ state: 'OTP_ACTIVED', user: 'bea' });
      const ok = await mfa(server().app, next.token, 'bea', await freshCode(totp, await lastStepOf(server(), bea.id)));
      expect(ok.statusCode, ok.body).toBe(200);
    });

    it('accepts a code of the previous step (clock drift)', async () => {
      const cris = await inviteUser(server(), admin, 'cris');
      await resetOtp(server().app.ctx, cris.id);
      const pending = await pendingFor(cris);
      const totp = authenticatorOf(pending.otp.uri!);
      const res = await mfa(server().app, pending.token, 'cris', totp.generate({ timestamp: Date.now() - 30_000 }));
      expect(res.statusCode, res.body).toBe(200);
    });

    it('drops an enrolment overtaken by another one that completed first', async () => {
      const dani = await inviteUser(server(), admin, 'dani');
      await resetOtp(server().app.ctx, dani.id);
      const first = await pendingFor(dani);
      const second = await pendingFor(dani);
      expect((await mfa(server().app, first.token, 'dani', authenticatorOf(first.otp.uri!).generate())).statusCode).toBe(200);
      const stale = await mfa(server().app, second.token, 'dani', authenticatorOf(second.otp.uri!).generate());
      expect(stale.statusCode).toBe(401);
      expect(stale.json().type).toBe('invalid-access-token');
    });
  });

  describe('refused codes', () => {
    it('accepts a code once: the same code on a second sign-in is refused', async () => {
      const first = await pendingFor(ana);
      const code = await freshCode(ana.totp, await lastStepOf(server(), ana.id));
      expect((await mfa(server().app, first.token, 'ana', code)).statusCode).toBe(200);
      const second = await pendingFor(ana);
      const replay = await mfa(server().app, second.token, 'ana', code);
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toMatchObject({ type: 'invalid-mfa-token', status: 401 });
    });

    it('refuses a wrong code, and ends the sign-in at the fifth one in a row', async () => {
      const pending = await pendingFor(ana);
      for (let i = 1; i <= 4; i++) {
        const res = await mfa(server().app, pending.token, 'ana', wrongCode(ana.totp));
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ type: 'invalid-mfa-token', status: 401 });
      }
      const fifth = await mfa(server().app, pending.token, 'ana', wrongCode(ana.totp));
      expect(fifth.statusCode).toBe(429);
      expect(fifth.json()).toMatchObject({ type: 'number-of-login-attempts-exceeded', status: 429 });

      // the pending token is dead, even with a right code
      const after = await mfa(server().app, pending.token, 'ana', ana.totp.generate());
      expect(after.statusCode).toBe(401);
      expect(after.json().type).toBe('invalid-access-token');
    });

    it('checks no more than five codes of a burst of parallel guesses', async () => {
      const pending = await pendingFor(ana);
      const codes = Array.from({ length: 8 }, () => wrongCode(ana.totp));
      const answers = await Promise.all(codes.map((code) => mfa(server().app, pending.token, 'ana', code)));
      const types = answers.map((a) => (a.json() as { type: string }).type);
      // four refused codes, the fifth ends the sign-in; the rest find it ended (429, or already gone)
      expect(types.filter((t) => t === 'invalid-mfa-token')).toHaveLength(4);
      expect(types).toContain('number-of-login-attempts-exceeded');
      expect(types.every((t) => ['invalid-mfa-token', 'number-of-login-attempts-exceeded', 'invalid-access-token'].includes(t))).toBe(true);
      const after = await mfa(server().app, pending.token, 'ana', ana.totp.generate());
      expect(after.statusCode).toBe(401);
      expect(after.json().type).toBe('invalid-access-token');
    });

    it('refuses a code for another user than the pending one', async () => {
      const pending = await pendingFor(ana);
      const res = await mfa(server().app, pending.token, 'admin', ana.totp.generate());
      expect(res.statusCode).toBe(401);
      expect(res.json().type).toBe('invalid-access-token');
    });

    it('refuses a blocked user, even with a right code', async () => {
      const eli = await inviteUser(server(), admin, 'eli');
      const pending = await pendingFor(eli);
      await changeUser(server().app.ctx, admin.id, eli.id, { bloqueado: true });
      const res = await mfa(server().app, pending.token, 'eli', await freshCode(eli.totp, await lastStepOf(server(), eli.id)));
      // blocking ends the sign-ins in progress
      expect(res.statusCode).toBe(401);
      expect(res.json().type).toBe('invalid-access-token');
    });
  });

  describe('the pending token', () => {
    it('stops working when the sign-in expires (10 minutes)', async () => {
      const pending = await pendingFor(ana);
      await server().db.kysely.updateTable('pending_logins').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', String(claimsOf(pending.token).jti)).execute();
      const res = await mfa(server().app, pending.token, 'ana', ana.totp.generate());
      expect(res.statusCode).toBe(401);
      expect(res.json().type).toBe('invalid-access-token');
    });

    it('works once: after the session is given it is dead', async () => {
      const gus = await inviteUser(server(), admin, 'gus');
      const pending = await pendingFor(gus);
      expect((await mfa(server().app, pending.token, 'gus', await freshCode(gus.totp, await lastStepOf(server(), gus.id)))).statusCode).toBe(200);
      const again = await mfa(server().app, pending.token, 'gus', gus.totp.generate());
      expect(again.statusCode).toBe(401);
      expect(again.json().type).toBe('invalid-access-token');
    });

    it('opens nothing but POST /api/mfa', async () => {
      const pending = await pendingFor(ana);
      const me = await call(server().app, { method: 'GET', url: '/api/me', token: pending.token });
      expect(me.statusCode).toBe(401);
      expect(me.json()).toMatchObject({ type: 'invalid-access-token' });
      const users = await call(server().app, { method: 'GET', url: '/api/usuarios', token: pending.token });
      expect(users.statusCode).toBe(401);
      expect(users.json()).toMatchObject({ type: 'invalid-access-token' });
    });

    it('is required, and a session token is not one', async () => {
      const none = await call(server().app, { method: 'POST', url: '/api/mfa', payload: { user: 'ana', mfaCode: '123456' } });
      expect(none.statusCode).toBe(401);
      expect(none.json().type).toBe('authorization-header-not-present');
      const session = await sessionOf(server(), ana.id);
      const withSession = await call(server().app, { method: 'POST', url: '/api/mfa', token: session, payload: { user: 'ana', mfaCode: '123456' } });
      expect(withSession.statusCode).toBe(401);
      expect(withSession.json().type).toBe('invalid-access-token');
    });

    it('needs the XSRF header too', async () => {
      const pending = await pendingFor(ana);
      const res = await server().app.inject({
        method: 'POST',
        url: '/api/mfa',
        payload: { user: 'ana', mfaCode: '123456' },
        headers: { authorization: `Bearer ${pending.token}`, cookie: 'XSRF-TOKEN=abcdefabcdef', 'x-xsrf-token': 'fedcbafedcba' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('xsrf-token-mismatch');
    });
  });

  describe('reset of the second factor', () => {
    it('makes the user enrol again and ends their sessions', async () => {
      const fran = await inviteUser(server(), admin, 'fran');
      await resetOtp(server().app.ctx, fran.id);
      expect(await findUserById(server().db.kysely, fran.id)).toMatchObject({ otp_state: 'OTP_REQUIRED', otp_secret: null, otp_last_step: null });
      const me = await call(server().app, { method: 'GET', url: '/api/me', token: fran.session });
      expect(me.statusCode).toBe(401);
      const pending = await pendingFor(fran);
      expect(pending.otp.state).toBe('OTP_REQUIRED');
      expect(pending.otp.uri).toMatch(/^otpauth:\/\/totp\//);
    });
  });
});

describe('accounts: codes are checked against the clock', () => {
  it('finds the time step of a code within one step either side', async () => {
    const { matchTotpStep, newTotpSecret } = await import('./totp.ts');
    const { TOTP, Secret } = await import('otpauth');
    const secret = newTotpSecret();
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const now = 1_800_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchTotpStep(secret, 'x', totp.generate({ timestamp: now }), now)).toBe(step);
    expect(matchTotpStep(secret, 'x', totp.generate({ timestamp: now - 30_000 }), now)).toBe(step - 1);
    expect(matchTotpStep(secret, 'x', totp.generate({ timestamp: now + 30_000 }), now)).toBe(step + 1);
    expect(matchTotpStep(secret, 'x', totp.generate({ timestamp: now - 60_000 }), now)).toBeNull();
  });
});
