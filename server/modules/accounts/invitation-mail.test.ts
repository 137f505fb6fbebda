import net from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { call, describeOnEachDatabase } from '../../../tests/utils/server-harness.ts';
import { createFirstAdmin, invitationTokenOf, register, type TestUser } from '../../../tests/utils/accounts.ts';
import { startLocalSmtp, type LocalSmtp, type ReceivedMail } from '../../mail/smtp.test-support.ts';
import { createMailer } from '../../mail/mailer.ts';
import { findUserByKey } from './accounts.repository.ts';
import { createInvitation, invitationForRegistration } from './invitations.service.ts';

let smtp: LocalSmtp | undefined;
afterAll(async () => {
  await smtp?.close();
});

async function smtpEnv() {
  smtp ??= await startLocalSmtp();
  return { SMTP_URL: smtp.url, SMTP_FROM: 'Contenido TAO <videos@example.org>' };
}

describeOnEachDatabase('accounts: invitations by e-mail (a real local SMTP server)', smtpEnv, (server) => {
  let admin: TestUser;
  const invite = (body: Record<string, unknown>) =>
    call(server().app, { method: 'POST', url: '/api/register-invitations', token: admin.session, payload: body });
  /** an address of this run (both databases share the SMTP server) */
  const address = (name: string) => `${name}.${server().kind}@example.org`;
  const mailsTo = (to: string): ReceivedMail[] => smtp!.messages.filter((m) => m.to.some((r) => r.toLowerCase() === to.toLowerCase()));

  beforeAll(async () => {
    admin = await createFirstAdmin(server());
  });

  it('e-mails the invitation in Spanish with the link in the text and the HTML; the link registers an account', async () => {
    const to = address('nueva');
    const res = await invite({ email: to, organizacion: 'Archivo' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as { token: string; link: string; expiresAt: string; emailDelivery: string };
    expect(created.emailDelivery).toBe('sent');

    const [mail, ...more] = mailsTo(to);
    expect(more).toEqual([]);
    expect(mail!.from).toBe('videos@example.org');
    expect(mail!.subject).toBe('Invitación a Contenido audiovisual TAO');
    expect(mail!.text).toContain('Le han invitado a Contenido audiovisual TAO (organización: Archivo).');
    expect(mail!.text).toContain(`\n${created.link}\n`);
    expect(mail!.html).toContain(`<a href="${created.link}">Crear mi cuenta</a>`);
    const expires = new Date(created.expiresAt);
    const month = new Intl.DateTimeFormat('es-ES', { month: 'long', timeZone: 'UTC' }).format(expires);
    const time = `${expires.getUTCHours()}:${String(expires.getUTCMinutes()).padStart(2, '0')}`;
    expect(mail!.text).toContain(`El enlace sirve una sola vez y caduca el ${expires.getUTCDate()} de ${month} de ${expires.getUTCFullYear()} a las ${time} (UTC).`);

    // the person opens the link from the e-mail's text
    const link = /https?:\/\/\S+/.exec(mail!.text)![0];
    const registration = await register(server().app, invitationTokenOf(link), 'desde-correo', 'desde-correo-1');
    expect(registration.statusCode, registration.body).toBe(200);
    const user = await findUserByKey(server().db.kysely, 'desde-correo');
    expect(user).toMatchObject({ email: to, organizacion: 'Archivo', rol: 'user' });
  });

  it('says "administrador" in an invitation to administer', async () => {
    const to = address('jefa');
    expect((await invite({ email: to, rol: 'admin' })).json().emailDelivery).toBe('sent');
    expect(mailsTo(to)[0]!.text).toContain('Le han invitado a Contenido audiovisual TAO como administrador');
  });

  it('reports a refused send, logs it at warn, and the invitation stays valid', async () => {
    const to = address('rechazo');
    const warn = vi.spyOn(server().app.ctx.log, 'warn');
    smtp!.refuse = true;
    let res;
    try {
      res = await invite({ email: to });
    } finally {
      smtp!.refuse = false;
    }
    const warnings = warn.mock.calls.slice();
    warn.mockRestore();
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as { id: number; token: string; emailDelivery: string };
    expect(created.emailDelivery).toBe('failed');
    expect(mailsTo(to)).toEqual([]);
    expect(warnings).toEqual([[expect.objectContaining({ invitation: created.id, to }), expect.stringContaining('could not be sent')]]);

    const listed = await call(server().app, { method: 'GET', url: '/api/register-invitations', token: admin.session });
    expect(listed.json().map((i: { id: number }) => i.id)).toContain(created.id);
    const registration = await register(server().app, created.token, 'sin-correo', 'sin-correo-1');
    expect(registration.statusCode, registration.body).toBe(200);
  });

  it('inviting the address again replaces the pending invitation and e-mails the new link', async () => {
    const to = address('otra-vez');
    const first = (await invite({ email: to })).json() as { id: number; token: string; link: string };
    const second = (await invite({ email: to.toUpperCase(), rol: 'admin' })).json() as { id: number; token: string; link: string };
    // two e-mails to the address: the first with the first link, the second with the new one
    expect(mailsTo(to).map((m) => [m.text.includes(first.link), m.text.includes(second.link)])).toEqual([[true, false], [false, true]]);

    const listed = (await call(server().app, { method: 'GET', url: '/api/register-invitations', token: admin.session })).json() as Array<{ id: number; email: string }>;
    expect(listed.filter((i) => i.email.toLowerCase() === to)).toEqual([expect.objectContaining({ id: second.id, rol: 'admin' })]);
    const old = await register(server().app, first.token, 'viejo-enlace', 'viejo-enlace-1');
    expect(old.statusCode).toBe(410);
    expect(old.json().type).toBe('register-invitation-expired');
    expect((await register(server().app, second.token, 'nuevo-enlace', 'nuevo-enlace-1')).statusCode).toBe(200);
  });

  it('reports an SMTP server that cannot be reached as failed; the invitation stays valid', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const warnings: unknown[][] = [];
    const mailer = createMailer({ smtp: { url: `smtp://127.0.0.1:${closed}`, from: 'videos@example.org' } });
    const created = await createInvitation(server().app.ctx, { email: address('inalcanzable'), invitedBy: admin.id }, { mailer, log: { warn: (...args) => warnings.push(args) } });
    expect(created.emailDelivery).toBe('failed');
    expect(warnings).toHaveLength(1);
    expect(await invitationForRegistration(server().app.ctx, created.token)).toMatchObject({ id: created.id, used_at: null });
  });
});
