import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { findUserByKey } from './accounts.repository.ts';
import { authenticatorOf, claimsOf, invitationTokenOf, mfa, register, registerAndEnrol, type TestUser } from '../../../tests/utils/accounts.ts';
import { firstAdministratorLink } from './bootstrap.ts';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

describeOnEachDatabase('accounts: invitations and registration', (server) => {
  let admin: TestUser;

  const invite = (body: Record<string, unknown>, token = admin.session) =>
    call(server().app, { method: 'POST', url: '/api/register-invitations', token, payload: body });
  const list = () => call(server().app, { method: 'GET', url: '/api/register-invitations', token: admin.session });
  const revoke = (id: number) => call(server().app, { method: 'DELETE', url: `/api/register-invitations/${id}`, token: admin.session });
  const invitationToken = async (body: Record<string, unknown> = {}) => {
    const res = await invite({ email: 'someone@example.org', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; token: string; link: string; email: string; expiresAt: string; emailDelivery: string };
  };

  describe('the first administrator', () => {
    let link: string;

    beforeAll(async () => {
      link = (await firstAdministratorLink(server().app.ctx))!;
    });

    it('has a link while no administrator exists, the same on every call', async () => {
      expect(link).toMatch(/^http:\/\/localhost:8080\/register\?invitation=[A-Za-z0-9_-]{43}$/);
      expect(await firstAdministratorLink(server().app.ctx)).toBe(link);
      const rows = await server().db.kysely.selectFrom('invitations').selectAll().execute();
      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect(row).toMatchObject({ bootstrap: 1, rol: 'admin', expires_at: null, used_at: null });
      // the token is derived, not stored: only its hash is
      const token = invitationTokenOf(link);
      const derived = crypto.createHmac('sha256', server().app.ctx.secrets.urlKey).update(`bootstrap-admin:${row!.id}`).digest('base64url');
      expect(token).toBe(derived);
      expect(row!.token_hash).toBe(sha256(token));
    });

    it('registers an administrator, after which there is no link and the old one is used', async () => {
      admin = await registerAndEnrol(server(), invitationTokenOf(link), 'admin', 'admin-password-1');
      expect(claimsOf(admin.session)).toMatchObject({ role: 'admin' });
      expect(await firstAdministratorLink(server().app.ctx)).toBeNull();
      const again = await register(server().app, invitationTokenOf(link), 'second-admin', 'admin-password-2');
      expect(again.statusCode).toBe(410);
      expect(again.json().type).toBe('register-invitation-was-used');
    });

    it('is not listed among the invitations', async () => {
      const res = await list();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });
  });

  describe('invitations', () => {
    it('creates one with a one-time token and its registration link, valid for 7 days', async () => {
      await server().db.kysely.updateTable('users').set({ organizacion: 'TAO' }).where('id', '=', admin.id).execute();
      const created = await invitationToken({ email: 'ana@example.org' });
      expect(created.email).toBe('ana@example.org');
      expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(created.link).toBe(`http://localhost:8080/register?invitation=${created.token}`);
      // no SMTP on this server: nothing was e-mailed, and the answer says so
      expect(created.emailDelivery).toBe('not-configured');
      const days = (Date.parse(created.expiresAt) - Date.now()) / (24 * 3600 * 1000);
      expect(days).toBeGreaterThan(6.99);
      expect(days).toBeLessThanOrEqual(7);

      const row = await server().db.kysely.selectFrom('invitations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row.token_hash).toBe(sha256(created.token));
      expect(JSON.stringify(row)).not.toContain(created.token);
      // role user and the inviter's organisation by default
      expect(row).toMatchObject({ rol: 'user', organizacion: 'TAO', created_by: admin.id, bootstrap: 0 });
    });

    it('takes a role and an organisation', async () => {
      const created = await invitationToken({ email: 'boss@example.org', rol: 'admin', organizacion: 'Archivo' });
      const listed = (await list()).json().find((i: { id: number }) => i.id === created.id);
      expect(listed).toMatchObject({ email: 'boss@example.org', rol: 'admin', organizacion: 'Archivo', usedAt: null, expiresAt: created.expiresAt });
    });

    it('lists the newest first, and revokes unused ones', async () => {
      const older = await invitationToken({ email: 'older@example.org' });
      const newer = await invitationToken({ email: 'newer@example.org' });
      const ids = (await list()).json().map((i: { id: number }) => i.id);
      expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));

      const res = await revoke(older.id);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await list()).json().map((i: { id: number }) => i.id)).not.toContain(older.id);
      const registration = await register(server().app, older.token, 'olga', 'olga-password-1');
      expect(registration.statusCode).toBe(404);
      expect(registration.json().type).toBe('resource-not-found');

      expect((await revoke(older.id)).statusCode).toBe(404);
      expect((await revoke(999_999)).json()).toMatchObject({ type: 'resource-not-found', status: 404 });
    });

    it('cannot revoke a used invitation', async () => {
      const created = await invitationToken({ email: 'used@example.org' });
      expect((await register(server().app, created.token, 'ulises', 'ulises-password')).statusCode).toBe(200);
      const res = await revoke(created.id);
      expect(res.statusCode).toBe(409);
      expect(res.json().type).toBe('conflict');
      const listed = (await list()).json().find((i: { id: number }) => i.id === created.id);
      expect(listed.usedAt).toEqual(expect.any(String));
    });

    it('refuses a bad e-mail address', async () => {
      const res = await invite({ email: 'not-an-address' });
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe('validation-error');
    });
  });

  describe('registration', () => {
    it('creates the user from the invitation and answers like a sign-in, with the second factor to enrol', async () => {
      const created = await invitationToken({ email: 'ana@example.org', organizacion: 'Biblioteca' });
      const res = await register(server().app, created.token, '  ana.lopez_1  ', 'ana-password-1');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.otp).toMatchObject({ state: 'OTP_DISABLED', user: 'ana.lopez_1' });
      expect(claimsOf(body.token)).toMatchObject({ aud: 'tao-mfa', user: 'ana.lopez_1' });

      const row = await findUserByKey(server().db.kysely, 'ana.lopez_1');
      expect(row).toMatchObject({ username: 'ana.lopez_1', nombre: 'ana.lopez_1', email: 'ana@example.org', rol: 'user', organizacion: 'Biblioteca', otp_state: 'OTP_DISABLED', bloqueado: 0 });
      expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      const invitation = await server().db.kysely.selectFrom('invitations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(invitation.used_by).toBe(row!.id);
      expect(invitation.used_at).toEqual(expect.any(String));

      // the pending token leads to a session after the code
      const totp = authenticatorOf(body.otp.uri);
      const session = await mfa(server().app, body.token, 'ana.lopez_1', totp.generate());
      expect(session.statusCode).toBe(200);
      const me = await call(server().app, { method: 'GET', url: '/api/me', token: session.json().token });
      expect(me.json()).toMatchObject({ user: 'ana.lopez_1', role: 'user', organizacion: 'Biblioteca' });
    });

    it('refuses an unknown invitation', async () => {
      const res = await register(server().app, 'no-such-invitation-token', 'nadie', 'nadie-password');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ type: 'resource-not-found', status: 404 });
    });

    it('refuses a used invitation', async () => {
      const created = await invitationToken();
      expect((await register(server().app, created.token, 'primero', 'primero-password')).statusCode).toBe(200);
      const res = await register(server().app, created.token, 'segundo', 'segundo-password');
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({ type: 'register-invitation-was-used', status: 410 });
    });

    it('refuses an expired invitation', async () => {
      const created = await invitationToken();
      await server().db.kysely.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', created.id).execute();
      const res = await register(server().app, created.token, 'tarde', 'tarde-password');
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({ type: 'register-invitation-expired', status: 410 });
    });

    it('refuses a taken user name, whatever its case, and leaves the invitation unused', async () => {
      const created = await invitationToken();
      const res = await register(server().app, created.token, 'ADMIN', 'other-password');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ type: 'users-exists', status: 409 });
      expect((await register(server().app, created.token, 'libre', 'libre-password')).statusCode).toBe(200);
    });

    it('refuses a password shorter than 8 characters', async () => {
      const created = await invitationToken();
      const res = await register(server().app, created.token, 'corto', 'short12');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ type: 'invalid-password', status: 400 });
      const tooLong = await register(server().app, created.token, 'largo', 'x'.repeat(129));
      expect(tooLong.statusCode).toBe(400);
      expect((await register(server().app, created.token, 'corto', 'exactly8')).statusCode).toBe(200);
    });

    it('refuses a user name outside the rule, naming body.user', async () => {
      const created = await invitationToken();
      for (const user of ['ab', 'con espacio', 'ñandú', 'a'.repeat(65).slice(0, 64) + '!']) {
        const res = await register(server().app, created.token, user, 'valid-password');
        expect(res.statusCode, user).toBe(400);
        expect(res.json().type).toBe('validation-error');
        expect(res.json().errors).toEqual([expect.objectContaining({ field: 'body.user' })]);
      }
    });

    it('lets only one of two simultaneous registrations use an invitation', async () => {
      const created = await invitationToken();
      const answers = await Promise.all([
        register(server().app, created.token, 'rapido-1', 'rapido-password'),
        register(server().app, created.token, 'rapido-2', 'rapido-password'),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410]);
      expect(answers.find((a) => a.statusCode === 410)!.json().type).toBe('register-invitation-was-used');
      const users = await server().db.kysely.selectFrom('users').select('username').where('username', 'like', 'rapido-%').execute();
      expect(users).toHaveLength(1);
    });

    it('needs the XSRF header', async () => {
      const res = await server().app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { user: 'sinxsrf', password: 'sinxsrf-password', token: 'whatever' },
        headers: { cookie: 'XSRF-TOKEN=abcdefabcdef' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('xsrf-token-mismatch');
    });
  });

  describe('invitations are for administrators', () => {
    it('refuses users without the admin role', async () => {
      const created = await invitationToken();
      const user = await registerAndEnrol(server(), created.token, 'normal', 'normal-password');
      const res = await invite({ email: 'x@example.org' }, user.session);
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('unauthorized-role');
      const del = await call(server().app, { method: 'DELETE', url: `/api/register-invitations/${created.id}`, token: user.session });
      expect(del.statusCode).toBe(403);
    });
  });
});
