import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the local SMTP server received it, with what a mail program would show. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** the decoded Subject header */
  subject: string;
  /** the text/plain part, decoded */
  text: string;
  /** the text/html part, decoded */
  html: string;
  raw: string;
}

export interface LocalSmtp {
  /** SMTP_URL of the server */
  url: string;
  messages: ReceivedMail[];
  /** while true, every recipient is refused (550) */
  refuse: boolean;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1, a free port, no authentication nor TLS, collecting what it receives. */
export async function startLocalSmtp(): Promise<LocalSmtp> {
  const messages: ReceivedMail[] = [];
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refuse) callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        messages.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw, ...parseMail(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ── a small MIME reader: headers, encoded words, multipart, quoted-printable and base64 ─────────────

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const at = raw.indexOf('\r\n\r\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replace(/_/g, ' ')));
}

function quotedPrintable(text: string): string {
  const bytes: number[] = [];
  const input = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < input.length; i++) {
    const hex = input[i] === '=' ? input.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(input[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return quotedPrintable(part.body);
  return part.body;
}

function leaves(part: Part): Part[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part];
  const sections = part.body.split(`--${boundary}`).slice(1);
  return sections.filter((s) => !s.startsWith('--')).flatMap((s) => leaves(splitPart(s.replace(/^\r\n/, ''))));
}

export function parseMail(raw: string): { subject: string; text: string; html: string } {
  const message = splitPart(raw);
  const parts = leaves(message);
  const of = (type: string) => {
    const part = parts.find((p) => (p.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(type));
    return part ? decodeBody(part).replace(/\r\n/g, '\n') : '';
  };
  return { subject: decodeWords(message.headers.get('subject') ?? ''), text: of('text/plain'), html: of('text/html') };
}
