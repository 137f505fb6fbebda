import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { authenticatorOf, claimsOf, createFirstAdmin, inviteUser, mfa, register, sessionOf, signIn, type TestUser } from '../../../tests/utils/accounts.ts';
import { changeUser } from './users.service.ts';

describeOnEachDatabase('accounts: sessions and user administration', (server) => {
  let admin: TestUser;
  let ana: TestUser;

  beforeAll(async () => {
    admin = await createFirstAdmin(server(), 'admin', 'admin-password-1');
    await server().db.kysely.updateTable('users').set({ organizacion: 'TAO', email: 'admin@example.org' }).where('id', '=', admin.id).execute();
    ana = await inviteUser(server(), admin, 'ana', { organizacion: 'Biblioteca' });
  });

  const me = (token: string | undefined, headers: Record<string, string> = {}) =>
    call(server().app, { method: 'GET', url: '/api/me', ...(token ? { token } : {}), headers });
  const patch = (token: string, id: number, body: unknown) =>
    call(server().app, { method: 'PATCH', url: `/api/usuarios/${id}`, token, payload: body as object });

  describe('GET /api/me', () => {
    it('answers the signed-in user', async () => {
      const res = await me(ana.session);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ id: ana.id, user: 'ana', nombre: 'ana', email: 'ana@example.org', role: 'user', organizacion: 'Biblioteca' });
    });

    it('issues session tokens with the claims user and role, signed for the session audience', async () => {
      expect(claimsOf(ana.session)).toMatchObject({ user: 'ana', role: 'user', sub: String(ana.id), aud: 'tao-session', iss: 'tao', tv: 0 });
      // a real sign-in gives the same kind of token
      const fresh = await signIn(server(), ana);
      expect((await me(fresh)).statusCode).toBe(200);
    });
  });

  describe('the session scheme', () => {
    it('needs the Authorization header', async () => {
      const res = await me(undefined);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ type: 'authorization-header-not-present', status: 401 });
    });

    it('needs the Bearer form', async () => {
      for (const authorization of ['Basic YWRtaW46eA==', 'Bearer', `Token ${ana.session}`, `Bearer ${ana.session} extra`]) {
        const res = await me(undefined, { authorization });
        expect(res.statusCode, authorization).toBe(401);
        expect(res.json().type, authorization).toBe('invalid-authorization-header');
      }
    });

    it('refuses a bad signature, an expired token and a token of another audience', async () => {
      const key = server().app.ctx.secrets.tokenKey;
      const claims = { user: 'ana', role: 'user', tv: 0 };
      const sign = (k: Uint8Array, aud: string, exp: number) =>
        new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(String(ana.id)).setIssuer('tao').setAudience(aud).setIssuedAt().setExpirationTime(exp).sign(k);
      const inAnHour = Math.floor(Date.now() / 1000) + 3600;
      const tokens = {
        badSignature: await sign(new TextEncoder().encode('another-secret-another-secret-another'), 'tao-session', inAnHour),
        expired: await sign(key, 'tao-session', Math.floor(Date.now() / 1000) - 10),
        otherAudience: await sign(key, 'tao-mfa', inAnHour),
        tampered: ana.session.replace(/\.([^.]+)\./, (_m, p: string) => `.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), role: 'admin' })).toString('base64url')}.`),
        garbage: 'not.a.jwt',
      };
      for (const [name, token] of Object.entries(tokens)) {
        const res = await me(token);
        expect(res.statusCode, name).toBe(401);
        expect(res.json().type, name).toBe('invalid-access-token');
      }
      // the same signing, right audience and expiry, works: the checks above are what failed
      expect((await me(await sign(key, 'tao-session', inAnHour))).statusCode).toBe(200);
    });

    it('refuses a user without the role of an admin operation', async () => {
      for (const [method, url] of [['GET', '/api/usuarios'], ['GET', '/api/register-invitations']] as const) {
        const res = await call(server().app, { method, url, token: ana.session });
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toMatchObject({ type: 'unauthorized-role', status: 403 });
      }
      const res = await patch(ana.session, ana.id, [{ op: 'replace', path: '/rol', value: 'admin' }]);
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('unauthorized-role');
    });
  });

  describe('listUsuarios', () => {
    it('lists every user by user name', async () => {
      const res = await call(server().app, { method: 'GET', url: '/api/usuarios', token: admin.session });
      expect(res.statusCode).toBe(200);
      const users = res.json() as Array<{ user: string }>;
      expect(users.map((u) => u.user)).toEqual([...users.map((u) => u.user)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(users.find((u) => u.user === 'ana')).toEqual({
        id: ana.id,
        user: 'ana',
        nombre: 'ana',
        email: 'ana@example.org',
        rol: 'user',
        organizacion: 'Biblioteca',
        bloqueado: false,
        otpState: 'OTP_ACTIVED',
        lastLoginAt: expect.any(String),
      });
    });

    it('shows the last sign-in: none before the second factor, then the time of each sign-in', async () => {
      const lastLoginOf = async (id: number) => {
        const users = (await call(server().app, { method: 'GET', url: '/api/usuarios', token: admin.session })).json() as Array<{ id: number; lastLoginAt: string | null }>;
        return users.find((u) => u.id === id)!.lastLoginAt;
      };
      const invitation = await call(server().app, { method: 'POST', url: '/api/register-invitations', token: admin.session, payload: { email: 'luz@example.org' } });
      const registered = await register(server().app, invitation.json().token, 'luz', 'luz-password-1');
      const pending = registered.json() as { token: string; otp: { uri: string } };
      const id = Number(claimsOf(pending.token).sub);
      expect(await lastLoginOf(id)).toBeNull();

      const before = new Date().toISOString();
      const totp = authenticatorOf(pending.otp.uri);
      expect((await mfa(server().app, pending.token, 'luz', totp.generate())).statusCode).toBe(200);
      const first = await lastLoginOf(id);
      expect(first! >= before && first! <= new Date().toISOString()).toBe(true);

      await new Promise((resolve) => setTimeout(resolve, 5));
      await signIn(server(), { id, user: 'luz', password: 'luz-password-1', totp, session: '' });
      expect((await lastLoginOf(id))! > first!).toBe(true);
    });
  });

  describe('patchUsuario', () => {
    it('blocking ends the user\'s sessions at once; unblocking does not bring them back', async () => {
      const bea = await inviteUser(server(), admin, 'bea');
      expect((await me(bea.session)).statusCode).toBe(200);
      const blocked = await patch(admin.session, bea.id, [{ op: 'replace', path: '/bloqueado', value: true }]);
      expect(blocked.statusCode).toBe(200);
      expect(blocked.json()).toMatchObject({ id: bea.id, bloqueado: true });
      const refused = await me(bea.session);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().type).toBe('invalid-access-token');
      // a fresh token of a blocked user is refused too
      expect((await me(await sessionOf(server(), bea.id))).statusCode).toBe(401);

      const unblocked = await patch(admin.session, bea.id, [{ op: 'replace', path: '/bloqueado', value: false }]);
      expect(unblocked.json()).toMatchObject({ bloqueado: false });
      expect((await me(bea.session)).statusCode).toBe(401);
      expect((await me(await sessionOf(server(), bea.id))).statusCode).toBe(200);
    });

    it('a role change revokes the old token; the new one carries the new role', async () => {
      const cris = await inviteUser(server(), admin, 'cris');
      const promoted = await patch(admin.session, cris.id, [{ op: 'replace', path: '/rol', value: 'admin' }]);
      expect(promoted.statusCode).toBe(200);
      expect(promoted.json()).toMatchObject({ rol: 'admin' });
      expect((await me(cris.session)).statusCode).toBe(401);
      const fresh = await sessionOf(server(), cris.id);
      expect(claimsOf(fresh)).toMatchObject({ role: 'admin' });
      expect((await call(server().app, { method: 'GET', url: '/api/usuarios', token: fresh })).statusCode).toBe(200);

      const demoted = await patch(admin.session, cris.id, [{ op: 'replace', path: '/rol', value: 'user' }]);
      expect(demoted.json()).toMatchObject({ rol: 'user' });
      const refused = await call(server().app, { method: 'GET', url: '/api/usuarios', token: fresh });
      expect(refused.statusCode).toBe(401);
    });

    it('takes both changes in one patch (application/json-patch+json too)', async () => {
      const dani = await inviteUser(server(), admin, 'dani');
      const res = await call(server().app, {
        method: 'PATCH',
        url: `/api/usuarios/${dani.id}`,
        token: admin.session,
        headers: { 'content-type': 'application/json-patch+json' },
        payload: JSON.stringify([
          { op: 'replace', path: '/rol', value: 'admin' },
          { op: 'replace', path: '/bloqueado', value: true },
        ]),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ rol: 'admin', bloqueado: true });
    });

    it('changes nothing, and revokes nothing, when the values are the same', async () => {
      const res = await patch(admin.session, ana.id, [{ op: 'replace', path: '/rol', value: 'user' }]);
      expect(res.statusCode).toBe(200);
      expect((await me(ana.session)).statusCode).toBe(200);
    });

    it('does not let administrators demote or block themselves', async () => {
      for (const operation of [{ op: 'replace', path: '/rol', value: 'user' }, { op: 'replace', path: '/bloqueado', value: true }]) {
        const res = await patch(admin.session, admin.id, [operation]);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({ type: 'conflict', status: 409 });
      }
      expect((await me(admin.session)).statusCode).toBe(200);
    });

    it('keeps the last unblocked administrator', async () => {
      // dani (admin) is blocked; cris was demoted: admin is the only unblocked administrator
      await expect(changeUser(server().app.ctx, null, admin.id, { rol: 'user' })).rejects.toMatchObject({ status: 409, type: 'conflict' });
      await expect(changeUser(server().app.ctx, null, admin.id, { bloqueado: true })).rejects.toMatchObject({ status: 409, type: 'conflict' });
      // with a second one, either may go
      const eva = await inviteUser(server(), admin, 'eva', { rol: 'admin' });
      const demoted = await patch(eva.session, admin.id, [{ op: 'replace', path: '/rol', value: 'user' }]);
      expect(demoted.statusCode).toBe(200);
      await expect(changeUser(server().app.ctx, null, eva.id, { bloqueado: true })).rejects.toMatchObject({ status: 409 });
      await changeUser(server().app.ctx, null, admin.id, { rol: 'admin' });
      admin.session = await sessionOf(server(), admin.id);
    });

    it('answers 404 for an unknown user and 400 for a path it does not know', async () => {
      const unknown = await patch(admin.session, 999_999, [{ op: 'replace', path: '/rol', value: 'admin' }]);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().type).toBe('resource-not-found');
      const bad = await patch(admin.session, ana.id, [{ op: 'replace', path: '/password', value: 'x' }]);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().type).toBe('validation-error');
    });

    it('needs the XSRF header', async () => {
      const res = await server().app.inject({
        method: 'PATCH',
        url: `/api/usuarios/${ana.id}`,
        payload: [{ op: 'replace', path: '/rol', value: 'admin' }],
        headers: { authorization: `Bearer ${admin.session}` },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('xsrf-token-mismatch');
    });
  });
});
