import { beforeAll, describe, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { createFirstAdmin, inviteUser, register, type TestUser } from '../../../tests/utils/accounts.ts';
import { createInvitation, deleteInvitation } from './invitations.service.ts';
import { changeUser, resetOtp } from './users.service.ts';

interface AuditRecord {
  actor_id: number | null;
  actor_nombre: string | null;
  action: string;
  subject_type: string;
  subject_id: string | null;
  before: unknown;
  after: unknown;
  detail: string | null;
}

describeOnEachDatabase('accounts: administration is admin-only and recorded in the audit log', (server) => {
  let admin: TestUser;
  let ana: TestUser;

  beforeAll(async () => {
    admin = await createFirstAdmin(server());
    ana = await inviteUser(server(), admin, 'ana');
  });

  const lastId = async () => {
    const row = await server().db.kysely.selectFrom('audit_log').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
    return Number(row?.id ?? 0);
  };
  /** the audit rows written by `change`, oldest first */
  const recorded = async (change: () => Promise<unknown>): Promise<AuditRecord[]> => {
    const from = await lastId();
    await change();
    const rows = await server().db.kysely.selectFrom('audit_log').selectAll().where('id', '>', from).orderBy('id').execute();
    return rows.map(({ id: _id, at: _at, before, after, ...rest }) => ({
      ...rest,
      before: before === null ? null : JSON.parse(before),
      after: after === null ? null : JSON.parse(after),
    }));
  };
  const patch = (token: string, id: number, body: unknown) =>
    call(server().app, { method: 'PATCH', url: `/api/usuarios/${id}`, token, payload: body as object });
  const byAdmin = () => ({ actor_id: admin.id, actor_nombre: 'admin' });

  describe('every users and invitations call', () => {
    it('refuses a user without the admin role (403 unauthorized-role), changing and recording nothing', async () => {
      const pending = (await call(server().app, { method: 'POST', url: '/api/register-invitations', token: admin.session, payload: { email: 'p@example.org' } })).json() as { id: number };
      const requests = [
        { method: 'GET', url: '/api/usuarios' },
        { method: 'PATCH', url: `/api/usuarios/${ana.id}`, payload: [{ op: 'replace', path: '/rol', value: 'admin' }] },
        { method: 'GET', url: '/api/register-invitations' },
        { method: 'POST', url: '/api/register-invitations', payload: { email: 'colado@example.org' } },
        { method: 'DELETE', url: `/api/register-invitations/${pending.id}` },
      ] as const;
      const rows = await recorded(async () => {
        for (const request of requests) {
          const res = await call(server().app, { ...request, token: ana.session });
          expect(res.statusCode, `${request.method} ${request.url}`).toBe(403);
          expect(res.json(), `${request.method} ${request.url}`).toMatchObject({ type: 'unauthorized-role', status: 403 });
        }
      });
      expect(rows).toEqual([]);
      const invitations = await server().db.kysely.selectFrom('invitations').select(['id', 'email']).execute();
      expect(invitations.map((i) => i.email)).not.toContain('colado@example.org');
      expect(invitations.map((i) => i.id)).toContain(pending.id);
      expect((await server().db.kysely.selectFrom('users').select('rol').where('id', '=', ana.id).executeTakeFirstOrThrow()).rol).toBe('user');
    });
  });

  describe('users', () => {
    it('records a role change with the role before and after, and who made it', async () => {
      const rows = await recorded(async () => expect((await patch(admin.session, ana.id, [{ op: 'replace', path: '/rol', value: 'admin' }])).statusCode).toBe(200));
      expect(rows).toEqual([{ ...byAdmin(), action: 'user.role-changed', subject_type: 'user', subject_id: String(ana.id), before: { rol: 'user' }, after: { rol: 'admin' }, detail: 'ana' }]);
      const back = await recorded(async () => expect((await patch(admin.session, ana.id, [{ op: 'replace', path: '/rol', value: 'user' }])).statusCode).toBe(200));
      expect(back).toEqual([expect.objectContaining({ action: 'user.role-changed', before: { rol: 'admin' }, after: { rol: 'user' } })]);
    });

    it('records a block and an unblock; one row per change when a patch makes two', async () => {
      const blocked = await recorded(() => patch(admin.session, ana.id, [{ op: 'replace', path: '/bloqueado', value: true }]));
      expect(blocked).toEqual([{ ...byAdmin(), action: 'user.blocked', subject_type: 'user', subject_id: String(ana.id), before: { bloqueado: false }, after: { bloqueado: true }, detail: 'ana' }]);
      const both = await recorded(() => patch(admin.session, ana.id, [{ op: 'replace', path: '/rol', value: 'admin' }, { op: 'replace', path: '/bloqueado', value: false }]));
      expect(both.map((r) => [r.action, r.before, r.after])).toEqual([
        ['user.role-changed', { rol: 'user' }, { rol: 'admin' }],
        ['user.unblocked', { bloqueado: true }, { bloqueado: false }],
      ]);
      await changeUser(server().app.ctx, admin.id, ana.id, { rol: 'user' });
    });

    it('records nothing for a patch that changes nothing, nor for a refused one', async () => {
      const rows = await recorded(async () => {
        expect((await patch(admin.session, ana.id, [{ op: 'replace', path: '/rol', value: 'user' }])).statusCode).toBe(200);
        // self-demotion and self-block
        expect((await patch(admin.session, admin.id, [{ op: 'replace', path: '/rol', value: 'user' }])).statusCode).toBe(409);
        expect((await patch(admin.session, admin.id, [{ op: 'replace', path: '/bloqueado', value: true }])).statusCode).toBe(409);
        // the last unblocked administrator (from the command line, which has no "self")
        await expect(changeUser(server().app.ctx, null, admin.id, { rol: 'user' })).rejects.toMatchObject({ status: 409, type: 'conflict' });
        await expect(changeUser(server().app.ctx, null, admin.id, { bloqueado: true })).rejects.toMatchObject({ status: 409, type: 'conflict' });
        // an unknown user
        expect((await patch(admin.session, 999_999, [{ op: 'replace', path: '/rol', value: 'admin' }])).statusCode).toBe(404);
      });
      expect(rows).toEqual([]);
    });

    it('records changes from the command line with no user, named cli', async () => {
      const rows = await recorded(async () => {
        await changeUser(server().app.ctx, null, ana.id, { bloqueado: true });
        await changeUser(server().app.ctx, null, ana.id, { bloqueado: false });
        await resetOtp(server().app.ctx, ana.id);
      });
      expect(rows.map((r) => [r.actor_id, r.actor_nombre, r.action])).toEqual([
        [null, 'cli', 'user.blocked'],
        [null, 'cli', 'user.unblocked'],
        [null, 'cli', 'user.otp-reset'],
      ]);
      expect(rows[2]).toMatchObject({ subject_id: String(ana.id), before: { otpState: 'OTP_ACTIVED' }, after: { otpState: 'OTP_REQUIRED' } });
    });

    it('records a second factor reset by an administrator; an unknown user records nothing', async () => {
      const rows = await recorded(() => resetOtp(server().app.ctx, ana.id, admin.id));
      expect(rows).toEqual([{ ...byAdmin(), action: 'user.otp-reset', subject_type: 'user', subject_id: String(ana.id), before: { otpState: 'OTP_REQUIRED' }, after: { otpState: 'OTP_REQUIRED' }, detail: 'ana' }]);
      expect(await recorded(() => expect(resetOtp(server().app.ctx, 999_999, admin.id)).rejects.toMatchObject({ status: 404 }))).toEqual([]);
    });
  });

  describe('invitations', () => {
    const invite = (body: Record<string, unknown>) => call(server().app, { method: 'POST', url: '/api/register-invitations', token: admin.session, payload: body });
    const revoke = (id: number) => call(server().app, { method: 'DELETE', url: `/api/register-invitations/${id}`, token: admin.session });

    it('records an invitation created, naming the invitation it replaces', async () => {
      let first: { id: number; expiresAt: string } | undefined;
      const rows = await recorded(async () => {
        first = (await invite({ email: 'bruno@example.org', organizacion: 'Archivo' })).json();
      });
      expect(rows).toEqual([{
        ...byAdmin(),
        action: 'invitation.created',
        subject_type: 'invitation',
        subject_id: String(first!.id),
        before: null,
        after: { email: 'bruno@example.org', rol: 'user', organizacion: 'Archivo', expiresAt: first!.expiresAt },
        detail: null,
      }]);
      let second: { id: number } | undefined;
      const again = await recorded(async () => {
        second = (await invite({ email: 'Bruno@Example.org', rol: 'admin' })).json();
      });
      expect(again).toEqual([expect.objectContaining({ action: 'invitation.created', subject_id: String(second!.id), detail: `replaces invitation ${first!.id}` })]);
      // the replaced one is gone from the list and cannot be revoked
      expect((await revoke(first!.id)).statusCode).toBe(404);
    });

    it('records an invitation revoked, with what it was; refused revocations record nothing', async () => {
      const created = (await invite({ email: 'carla@example.org' })).json() as { id: number; token: string; expiresAt: string };
      const rows = await recorded(async () => expect((await revoke(created.id)).statusCode).toBe(204));
      expect(rows).toEqual([{
        ...byAdmin(),
        action: 'invitation.revoked',
        subject_type: 'invitation',
        subject_id: String(created.id),
        before: { email: 'carla@example.org', rol: 'user', organizacion: null, expiresAt: created.expiresAt },
        after: null,
        detail: null,
      }]);

      const used = (await invite({ email: 'dora@example.org' })).json() as { id: number; token: string };
      expect((await register(server().app, used.token, 'dora', 'dora-password-1')).statusCode).toBe(200);
      const refused = await recorded(async () => {
        expect((await revoke(used.id)).statusCode).toBe(409);
        expect((await revoke(created.id)).statusCode).toBe(404);
        expect((await revoke(999_999)).statusCode).toBe(404);
      });
      expect(refused).toEqual([]);
    });

    it('records invitations of the command line with no user, named cli', async () => {
      const rows = await recorded(async () => {
        const created = await createInvitation(server().app.ctx, { email: 'eloy@example.org', invitedBy: null });
        expect(created.emailDelivery).toBe('not-configured');
        await deleteInvitation(server().app.ctx, created.id, null);
      });
      expect(rows.map((r) => [r.actor_id, r.actor_nombre, r.action])).toEqual([[null, 'cli', 'invitation.created'], [null, 'cli', 'invitation.revoked']]);
    });
  });
});
