/**
 * 'Administrar usuarios' from the header's menu of an administrator, in the real app with only the
 * network replaced (users.test-support.ts): the list dialog's own model walk (opened, closed) with
 * what it shows, its reads only while open, a failed read (toast, the dialog closes), and the
 * non-administrator's menu.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { DialogEvent } from '../../../machines/dialog/dialog.types.ts';
import { coverageReport, coveringPaths, createMachineModel, runPath, type Executors, type StateChecks } from '../../../tests/utils/machine-model.ts';
import { sessionToken } from '../../../tests/utils/msw.ts';
import { renderApp } from '../../../tests/utils/render-app.tsx';
import { formatDateTime } from './user-format.ts';
import { userListDialog } from './users.actors.ts';
import { ANA, listDialog, openUserAdmin, PENDING, pendingEmails, queryListDialog, ROOT, serveAccounts, userItem, type FakeAccounts } from './users.test-support.ts';

type Snapshot = SnapshotFrom<typeof userListDialog>;
type ModelEvent = Exclude<DialogEvent<'usuarios', undefined>, { type: 'dialog.submit' }>;

const LOAD_FAILED = 'Error al recuperar la lista de usuarios';

const events: ModelEvent[] = [{ type: 'dialog.open', subject: 'usuarios' }, { type: 'dialog.close' }];
// The list has no confirm button: nothing submits it.
const model = createMachineModel(userListDialog, { events, filterEvents: (_, event) => (event as { type: string }).type !== 'dialog.submit' });
const paths = coveringPaths(model);

let user: UserEvent;
let fake: FakeAccounts;
/** GET /api/usuarios answered when the dialog last closed. */
let readsWhenClosed = 0;

beforeEach(() => {
  user = userEvent.setup();
});

async function openLibrary(role: 'admin' | 'user' = 'admin') {
  fake = serveAccounts();
  readsWhenClosed = 0;
  await renderApp('/videos', { token: sessionToken({ user: 'root', role }) });
  await screen.findByRole('button', { name: /Menú de usuario/ });
}

const executors = {
  'dialog.open': async () => {
    await openUserAdmin(user, { waitForUsers: false });
  },
  'dialog.close': async () => {
    await user.click(within(listDialog()).getByRole('button', { name: 'Cerrar' }));
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#dialog.closed': async () => {
    await waitFor(() => expect(queryListDialog()).not.toBeInTheDocument());
    // Nothing is read while the dialog is closed.
    readsWhenClosed = fake.gets('/api/usuarios');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.gets('/api/usuarios')).toBe(readsWhenClosed);
  },
  '#dialog.open.editing': async () => {
    expect(await screen.findByRole('dialog', { name: 'Administrar usuarios' })).toBeVisible();
    const ana = await waitFor(() => userItem(ANA.nombre));
    // Name, user and e-mail, role, blocked flag, second factor, organisation, last sign-in; the change offered.
    expect(ana).toHaveTextContent('Ana Pérez');
    expect(ana).toHaveTextContent('ana · ana@tao.example');
    expect(within(ana).getByText('Usuario')).toBeVisible();
    expect(within(ana).getByText('Bloqueado')).toBeVisible();
    expect(within(ana).getByText('Segundo factor: pendiente de activar')).toBeVisible();
    expect(ana).toHaveTextContent('Organización: Ventas · Último acceso: nunca');
    expect(within(ana).getByRole('button', { name: 'Hacer administrador a Ana Pérez' })).toBeEnabled();
    const rosa = userItem(ROOT.nombre);
    expect(rosa).toHaveTextContent('Rosa Admin (usted)');
    expect(within(rosa).getByText('Administrador')).toBeVisible();
    expect(within(rosa).queryByText('Bloqueado')).not.toBeInTheDocument();
    expect(within(rosa).getByText('Segundo factor: activado')).toBeVisible();
    expect(rosa).toHaveTextContent(`Organización: TAO · Último acceso: ${formatDateTime(ROOT.lastLoginAt!)}`);
    expect(within(rosa).getByRole('button', { name: 'Quitar administrador a Rosa Admin' })).toBeEnabled();
    // Only the invitations still pending (not the used nor the expired one), each with Revocar.
    await waitFor(() => expect(pendingEmails()).toEqual([PENDING.email]));
    expect(within(listDialog()).getByRole('button', { name: `Revocar la invitación de ${PENDING.email}` })).toBeEnabled();
    expect(within(listDialog()).getByRole('button', { name: 'Nuevo usuario' })).toBeEnabled();
    // Asked for at this opening.
    expect(fake.gets('/api/usuarios')).toBeGreaterThan(0);
  },
} satisfies StateChecks<Snapshot>;

describe('user list dialog model (library page, administrator)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await openLibrary();
      await runPath(path, states, executors);
    });
  }
});

describe('user list dialog model coverage', () => {
  it('walks opening and closing; the list has no confirm button, so no work runs', () => {
    const report = coverageReport(userListDialog, paths, { events, states, executors });
    expect(report).toEqual({
      undescribed: [],
      unvisited: ['node dialog.open.invalid', 'node dialog.working', 'node dialog.failed'],
      untaken: [
        'transition dialog.open on dialog.submit #0',
        'transition dialog.open on dialog.submit #1',
        'transition dialog.open on dialog.submit #2',
        'transition dialog.working on xstate.done.actor.work #0',
        'transition dialog.working on xstate.error.actor.work #0',
        'transition dialog.failed on dialog.submit #0',
        'transition dialog.failed on dialog.submit #1',
        'transition dialog.failed on dialog.submit #2',
        'transition dialog.failed on dialog.close #0',
      ],
      undeclared: [],
      deadEnds: [],
      unusedEvents: [],
      uncheckedStates: ['#dialog.open.invalid', '#dialog.working', '#dialog.failed'],
      unknownChecks: [],
      undrivenEvents: [],
      unusedExecutors: [],
    });
  });
});

describe('user list dialog', () => {
  it('reads the users only once it is opened', async () => {
    await openLibrary();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.gets('/api/usuarios')).toBe(0);
    expect(fake.gets('/api/register-invitations')).toBe(0);
    await openUserAdmin(user);
    expect(fake.gets('/api/usuarios')).toBe(1);
  });

  it("a failed load shows 'Error al recuperar la lista de usuarios' and closes the dialog (not 'Error obteniendo datos'); the next opening asks again", async () => {
    await openLibrary();
    fake.failUserList();
    await openUserAdmin(user, { waitForUsers: false });
    expect(await screen.findByText(LOAD_FAILED)).toBeVisible();
    await waitFor(() => expect(queryListDialog()).not.toBeInTheDocument());
    // The read was retried (3 times after the first) before it was reported, once.
    expect(fake.gets('/api/usuarios')).toBe(4);
    expect(screen.getAllByText(LOAD_FAILED)).toHaveLength(1);
    expect(screen.queryByRole('dialog', { name: 'Error obteniendo datos' })).not.toBeInTheDocument();

    fake.listUsersAgain();
    await openUserAdmin(user);
    expect(userItem(ANA.nombre)).toBeVisible();
    expect(fake.gets('/api/usuarios')).toBe(5);
  });

  it('a failed invitation list says so in its section; the users stay listed and the dialog open', async () => {
    await openLibrary();
    fake.failInvitationList();
    await openUserAdmin(user);
    expect(await within(listDialog()).findByText('No se ha podido recuperar la lista de invitaciones')).toBeVisible();
    expect(userItem(ANA.nombre)).toBeVisible();
    expect(within(listDialog()).getByRole('button', { name: 'Nuevo usuario' })).toBeEnabled();
    expect(screen.queryByText(LOAD_FAILED)).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Error obteniendo datos' })).not.toBeInTheDocument();
  });

  it('a user who is not an administrator has no Administrar usuarios entry', async () => {
    await openLibrary('user');
    await user.click(screen.getByRole('button', { name: /Menú de usuario/ }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Cerrar sesión']);
    expect(screen.queryByRole('menuitem', { name: 'Administrar usuarios' })).not.toBeInTheDocument();
    expect(fake.gets('/api/usuarios')).toBe(0);
  });
});
