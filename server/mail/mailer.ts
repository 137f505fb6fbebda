import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';

/** One e-mail: plain text and HTML alternatives of the same message. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends e-mail; rejects when the SMTP server cannot be reached or refuses the message. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** How long a send may wait on the SMTP server: an administrator waits for the answer. */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

/** The mailer of SMTP_URL / SMTP_FROM; null when SMTP is not configured (nothing is e-mailed). */
export function createMailer(config: Pick<Config, 'smtp'>): Mailer | null {
  const smtp = config.smtp;
  if (!smtp) return null;
  const transport = nodemailer.createTransport({
    url: smtp.url,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: CONNECTION_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
  });
  return {
    async send(message) {
      await transport.sendMail({ from: smtp.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
    },
  };
}

export const INVITATION_SUBJECT = 'Invitación a Contenido audiovisual TAO';

export interface InvitationMail {
  to: string;
  link: string;
  /** ISO-8601 instant */
  expiresAt: string;
  rol: 'admin' | 'user';
  organizacion: string | null;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** '29 de noviembre de 2026, 10:00 (UTC)' */
function spanishInstant(iso: string): string {
  const formatted = new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso));
  return `${formatted} (UTC)`;
}

/** The invitation e-mail, in Spanish: who is invited to what, the registration link, until when it works. */
export function invitationMessage(invitation: InvitationMail): MailMessage {
  const as = invitation.rol === 'admin' ? ' como administrador' : '';
  const org = invitation.organizacion ? ` (organización: ${invitation.organizacion})` : '';
  const until = spanishInstant(invitation.expiresAt);
  const text = [
    'Hola:',
    '',
    `Le han invitado a Contenido audiovisual TAO${as}${org}.`,
    '',
    'Para crear su cuenta, abra este enlace y elija su nombre de usuario y contraseña:',
    '',
    invitation.link,
    '',
    `El enlace sirve una sola vez y caduca el ${until}.`,
    'Si no esperaba esta invitación, puede ignorar este mensaje.',
    '',
  ].join('\n');
  const link = escapeHtml(invitation.link);
  const html = [
    '<!doctype html>',
    '<html lang="es"><head><meta charset="utf-8"><title>' + escapeHtml(INVITATION_SUBJECT) + '</title></head>',
    '<body style="font-family: sans-serif; line-height: 1.5">',
    '<p>Hola:</p>',
    `<p>Le han invitado a <strong>Contenido audiovisual TAO</strong>${escapeHtml(as)}${escapeHtml(org)}.</p>`,
    '<p>Para crear su cuenta, abra este enlace y elija su nombre de usuario y contraseña:</p>',
    `<p><a href="${link}">Crear mi cuenta</a></p>`,
    `<p style="font-size: 0.9em">Si el enlace no se abre, copie esta dirección en su navegador:<br>${link}</p>`,
    `<p>El enlace sirve una sola vez y caduca el ${escapeHtml(until)}.</p>`,
    '<p>Si no esperaba esta invitación, puede ignorar este mensaje.</p>',
    '</body></html>',
  ].join('\n');
  return { to: invitation.to, subject: INVITATION_SUBJECT, text, html };
}
