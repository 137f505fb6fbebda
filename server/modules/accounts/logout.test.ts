import { beforeAll, expect, it } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { claimsOf, createFirstAdmin, inviteUser, sessionOf, signIn, type TestUser } from '../../../tests/utils/accounts.ts';

describeOnEachDatabase('accounts: POST /api/logout ends this session only', (server) => {
  let admin: TestUser;
  let ana: TestUser;

  beforeAll(async () => {
    admin = await createFirstAdmin(server());
    ana = await inviteUser(server(), admin, 'ana');
  });

  const me = (token: string) => call(server().app, { method: 'GET', url: '/api/me', token });
  const logout = (token: string, headers?: Record<string, string>) => call(server().app, { method: 'POST', url: '/api/logout', token, ...(headers ? { headers } : {}) });

  it('refuses the ended session token from then on, while the same user’s other sessions go on', async () => {
    const here = await signIn(server(), ana);
    // Another session of hers, as a sign-in elsewhere would give it (a second sign-in here would wait
    // up to 30 s for a one-time code not used yet).
    const elsewhere = await sessionOf(server(), ana.id);
    expect((await me(here)).statusCode).toBe(200);

    const ended = await logout(here);
    expect(ended.statusCode, ended.body).toBe(204);
    expect(ended.body).toBe('');

    const after = await me(here);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ type: 'invalid-access-token' });
    expect((await logout(here)).statusCode).toBe(401);
    expect((await me(elsewhere)).statusCode).toBe(200);
    expect((await me(admin.session)).statusCode).toBe(200);
  });

  it('needs a session token and the XSRF header, like every write', async () => {
    const token = await sessionOf(server(), ana.id);
    const unsigned = await server().app.inject({ method: 'POST', url: '/api/logout' });
    expect(unsigned.statusCode).toBe(401);
    const forged = await logout(token, { 'x-xsrf-token': 'not-the-cookie' });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ type: 'xsrf-token-mismatch' });
    expect((await me(token)).statusCode).toBe(200);
  });

  it('keeps an ended session only until its token would have expired', async () => {
    const db = server().db.kysely;
    await db.deleteFrom('ended_sessions').execute();
    // A session ended earlier whose token has expired since: its row goes when another session ends.
    await db.insertInto('ended_sessions').values({ session_id: 'long-gone', expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
    const token = await sessionOf(server(), ana.id);
    expect((await logout(token)).statusCode).toBe(204);
    const rows = await db.selectFrom('ended_sessions').selectAll().execute();
    expect(rows.map((row) => row.session_id)).toEqual([claimsOf(token).jti]);
    expect(Date.parse(rows[0]!.expires_at)).toBe((claimsOf(token).exp as number) * 1000);
  });
});
