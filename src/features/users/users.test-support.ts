/**
 * The fake accounts server of the 'Administrar usuarios' tests: Mock Service Worker handlers typed
 * against openapi.yaml over a few users and invitations. The writes the dialogs wait for (PATCH of
 * a user, POST and DELETE of an invitation) are held until the test answers them
 * (`answer('PATCH', 'ok' | 'refuse' | 'fail')`), so every state in between can be looked at; the
 * reads answer at once (the user list may be made to fail). Every GET is counted by path, so a
 * test sees which cached queries were asked again.
 */
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { components } from '../../../contract/openapi.gen.ts';
import { http, problem, server } from '../../../tests/utils/msw.ts';

type Usuario = components['schemas']['Usuario'];
type Invitation = components['schemas']['Invitation'];
type InvitationCreated = components['schemas']['InvitationCreated'];
type EmailDelivery = InvitationCreated['emailDelivery'];

/** The signed-in administrator (the session token's user). */
export const ROOT: Usuario = {
  id: 1,
  user: 'root',
  nombre: 'Rosa Admin',
  email: 'rosa@tao.example',
  rol: 'admin',
  organizacion: 'TAO',
  bloqueado: false,
  otpState: 'OTP_ACTIVED',
  lastLoginAt: '2026-11-20T09:30:00.000Z',
};

export const ANA: Usuario = {
  id: 2,
  user: 'ana',
  nombre: 'Ana Pérez',
  email: 'ana@tao.example',
  rol: 'user',
  organizacion: 'Ventas',
  bloqueado: true,
  otpState: 'OTP_REQUIRED',
  lastLoginAt: null,
};

export const PENDING: Invitation = {
  id: 11,
  email: 'luis@tao.example',
  rol: 'user',
  organizacion: 'TAO',
  createdAt: '2026-11-21T08:00:00.000Z',
  expiresAt: '2099-11-28T08:00:00.000Z',
  usedAt: null,
};
/** Used and expired invitations are not pending: the dialog does not list them. */
export const USED: Invitation = { ...PENDING, id: 12, email: 'usada@tao.example', usedAt: '2026-11-21T09:00:00.000Z' };
export const EXPIRED: Invitation = { ...PENDING, id: 13, email: 'caducada@tao.example', expiresAt: '2020-01-01T00:00:00.000Z' };

export const INVITED_EMAIL = 'nueva@tao.example';

type Write = 'PATCH' | 'POST' | 'DELETE';
/** ok; refuse: 409 conflict (PATCH) or 400 validation-error (POST); fail: 500. */
export type Outcome = 'ok' | 'refuse' | 'fail';

export interface FakeAccounts {
  users: () => Usuario[];
  invitations: () => Invitation[];
  /** PATCH bodies received, with the user's id. */
  patches: Array<{ id: number; body: unknown }>;
  /** POST bodies received. */
  posts: unknown[];
  /** DELETE ids received. */
  deletes: number[];
  /** How many GETs of a path were answered ('/api/usuarios', '/api/videos', '/api/me'…). */
  gets: (path: string) => number;
  held: (write: Write) => number;
  answer: (write: Write, outcome: Outcome) => Promise<void>;
  /** Every GET /api/usuarios answers 500 from now on (retries included) until `listUsersAgain`. */
  failUserList: () => void;
  listUsersAgain: () => void;
  /** Every GET /api/register-invitations answers 500 from now on. */
  failInvitationList: () => void;
  /** What the server says of the e-mail of the next invitations. */
  emailDelivery: (delivery: EmailDelivery) => void;
}

/** Serves the accounts (and an empty library) to the app; each test calls it once. */
export function serveAccounts(): FakeAccounts {
  let users = [ROOT, ANA].map((entry) => ({ ...entry }));
  let invitations = [PENDING, USED, EXPIRED].map((entry) => ({ ...entry }));
  let nextId = 40;
  let failUsers = false;
  let failInvitations = false;
  let delivery: EmailDelivery = 'not-configured';
  const counts = new Map<string, number>();
  const count = (path: string) => counts.set(path, (counts.get(path) ?? 0) + 1);
  const held: Array<{ write: Write; settle: (outcome: Outcome) => void }> = [];
  const hold = (write: Write) => new Promise<Outcome>((settle) => held.push({ write, settle }));

  const fake: FakeAccounts = {
    users: () => users,
    invitations: () => invitations,
    patches: [],
    posts: [],
    deletes: [],
    gets: (path) => counts.get(path) ?? 0,
    held: (write) => held.filter((entry) => entry.write === write).length,
    answer: async (write, outcome) => {
      await waitFor(() => {
        if (!held.some((entry) => entry.write === write)) throw new Error(`No ${write} reached the server`);
      });
      const index = held.findIndex((entry) => entry.write === write);
      const [entry] = held.splice(index, 1);
      entry!.settle(outcome);
    },
    failUserList: () => {
      failUsers = true;
    },
    listUsersAgain: () => {
      failUsers = false;
    },
    failInvitationList: () => {
      failInvitations = true;
    },
    emailDelivery: (next) => {
      delivery = next;
    },
  };

  server.use(
    http.get('/api/me', ({ response }) => {
      count('/api/me');
      return response(200).json({ id: ROOT.id, user: ROOT.user, nombre: ROOT.nombre, email: ROOT.email, role: 'admin', organizacion: ROOT.organizacion });
    }),
    http.get('/api/videos', ({ response }) => {
      count('/api/videos');
      return response(200).json([], { headers: { 'X-Total-Count': '0' } });
    }),
    http.get('/api/usuarios', ({ response }) => {
      count('/api/usuarios');
      if (failUsers) return problem(500, 'internal-server-error');
      return response(200).json(users);
    }),
    http.patch('/api/usuarios/{id}', async ({ params, request, response }) => {
      const id = Number(params.id);
      const body = await request.json();
      fake.patches.push({ id, body });
      const outcome = await hold('PATCH');
      if (outcome === 'refuse') return problem(409, 'conflict', 'the last administrator cannot be demoted or blocked');
      if (outcome === 'fail') return problem(500, 'internal-server-error');
      const [operation] = body;
      users = users.map((entry) => (entry.id === id && operation?.path === '/rol' ? { ...entry, rol: operation.value } : entry));
      const saved = users.find((entry) => entry.id === id);
      return saved ? response(200).json(saved) : problem(404, 'resource-not-found');
    }),
    http.get('/api/register-invitations', ({ response }) => {
      count('/api/register-invitations');
      if (failInvitations) return problem(500, 'internal-server-error');
      return response(200).json(invitations);
    }),
    http.post('/api/register-invitations', async ({ request, response }) => {
      const body = await request.json();
      fake.posts.push(body);
      const outcome = await hold('POST');
      if (outcome === 'refuse') return problem(400, 'validation-error', 'body.email must match format "email"');
      if (outcome === 'fail') return problem(500, 'internal-server-error');
      nextId += 1;
      const expiresAt = '2099-12-01T10:00:00.000Z';
      invitations = [
        { id: nextId, email: body.email, rol: 'user', organizacion: 'TAO', createdAt: '2026-11-22T10:00:00.000Z', expiresAt, usedAt: null },
        ...invitations,
      ];
      const token = `token-${nextId}`;
      return response(201).json({
        id: nextId,
        token,
        link: `http://localhost/register?invitation=${token}`,
        email: body.email,
        expiresAt,
        emailDelivery: delivery,
      });
    }),
    http.delete('/api/register-invitations/{id}', async ({ params, response }) => {
      const id = Number(params.id);
      fake.deletes.push(id);
      const outcome = await hold('DELETE');
      if (outcome !== 'ok') return problem(500, 'internal-server-error');
      invitations = invitations.filter((entry) => entry.id !== id);
      return response(204).empty();
    }),
  );
  return fake;
}

/** The list dialog and its parts, as a user finds them. */
export const listDialog = () => screen.getByRole('dialog', { name: 'Administrar usuarios' });
export const queryListDialog = () => screen.queryByRole('dialog', { name: 'Administrar usuarios' });
/** A user's entry in the list (by their name). */
export const userItem = (nombre: string) => within(within(listDialog()).getByRole('list', { name: 'Usuarios' })).getByRole('listitem', { name: nombre });
/** The e-mails of the pending invitations listed, in order; [] when none is listed. */
export const pendingEmails = () => {
  const list = within(listDialog()).queryByRole('list', { name: 'Invitaciones pendientes' });
  return list ? within(list).getAllByRole('listitem').map((item) => item.getAttribute('aria-label')) : [];
};

/** Opens 'Administrar usuarios' from the header's menu and waits for the users. */
export async function openUserAdmin(user: UserEvent, { waitForUsers = true } = {}) {
  await user.click(screen.getByRole('button', { name: /Menú de usuario/ }));
  await user.click(screen.getByRole('menuitem', { name: 'Administrar usuarios' }));
  if (waitForUsers) await within(await screen.findByRole('dialog', { name: 'Administrar usuarios' })).findByRole('list', { name: 'Usuarios' });
}
