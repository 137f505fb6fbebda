/**
 * Hacer administrador / Quitar administrador from 'Administrar usuarios' (R-USR-2), in
 * the real app with only the network replaced (users.test-support.ts): a model-based walk of the
 * role change's dialog machine as the app runs it (the confirmation, the PATCH, success with every
 * cached query asked again, failure), and the refusals the server makes (the last administrator,
 * oneself).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { DialogEvent } from '../../../machines/dialog/dialog.types.ts';
import {
  coveringPaths,
  createMachineModel,
  type DoneEvent,
  type ErrorEvent,
  type Executors,
  type StateChecks,
} from '../../../tests/utils/machine-model.ts';
import { describeConfirmationModel } from '../../../tests/utils/model/confirmation-dialog.ts';
import { sessionToken } from '../../../tests/utils/msw.ts';
import { renderApp } from '../../../tests/utils/render-app.tsx';
import { changeRoleDialog } from './users.actors.ts';
import type { Usuario } from './users.queries.ts';
import { ANA, listDialog, openUserAdmin, ROOT, serveAccounts, userItem, type FakeAccounts } from './users.test-support.ts';

type Snapshot = SnapshotFrom<typeof changeRoleDialog>;
type ModelEvent = DialogEvent<Usuario, undefined> | DoneEvent<'work', Usuario> | ErrorEvent<'work'>;

const CHANGED = 'Se ha cambiado el rol de Ana Pérez';
const FAILED = 'No se ha podido cambiar el rol';

const events: ModelEvent[] = [
  { type: 'dialog.open', subject: ANA },
  { type: 'dialog.submit', payload: undefined },
  { type: 'dialog.close' },
  // The answers come from the fake server: the PATCH is answered 200 or 500.
  { type: 'xstate.done.actor.work', output: { ...ANA, rol: 'admin' } },
  { type: 'xstate.error.actor.work', error: { status: 500, type: 'internal-server-error' } },
];

const model = createMachineModel(changeRoleDialog, { events });
const paths = coveringPaths(model);

let user: UserEvent;
let fake: FakeAccounts;
let toastsSeen: string[];
let freshToast: string | null;
let before: Snapshot;
/** GETs of the library and of the user list when the last PATCH was sent. */
let readsAtPatch = { videos: 0, me: 0, users: 0 };

beforeEach(() => {
  user = userEvent.setup();
});

async function openUsers() {
  fake = serveAccounts();
  toastsSeen = [];
  freshToast = null;
  await renderApp('/videos', { token: sessionToken({ user: 'root', role: 'admin' }) });
  await openUserAdmin(user);
}

const anaNow = () => fake.users().find((entry) => entry.id === ANA.id)!;
const confirmDialog = () => screen.getByRole('dialog', { name: /^(Hacer|Quitar) administrador$/ });
const queryConfirmDialog = () => screen.queryByRole('dialog', { name: /^(Hacer|Quitar) administrador$/ });
const confirmButton = () => within(confirmDialog()).getByRole('button', { name: 'Confirmar' });
const cancelButton = () => within(confirmDialog()).getByRole('button', { name: 'Cancelar' });
const closeButton = () => within(confirmDialog()).queryByRole('button', { name: 'Cerrar' });
const question = (rol: string) =>
  rol === 'admin'
    ? '¿Seguro que desea que «Ana Pérez» deje de ser administrador y pase a ser usuario?'
    : '¿Seguro que desea que «Ana Pérez» sea administrador?';
/** The role Ana's entry shows, and the change it offers. */
function expectAnaListedAs(rol: string) {
  const ana = userItem(ANA.nombre);
  expect(within(ana).getByText(rol === 'admin' ? 'Administrador' : 'Usuario')).toBeVisible();
  const offered = rol === 'admin' ? 'Quitar administrador a Ana Pérez' : 'Hacer administrador a Ana Pérez';
  expect(within(ana).getByRole('button', { name: offered })).toBeInTheDocument();
}

function expectToasts() {
  const shown = screen.queryAllByRole('alert').map((alert) => alert.textContent);
  for (const text of shown.filter((entry) => entry === CHANGED || entry === FAILED)) expect(toastsSeen).toContain(text);
  if (freshToast) expect(shown).toContain(freshToast);
  freshToast = null;
}

const executors = {
  'dialog.open': async () => {
    const name = anaNow().rol === 'admin' ? 'Quitar administrador a Ana Pérez' : 'Hacer administrador a Ana Pérez';
    await user.click(within(userItem(ANA.nombre)).getByRole('button', { name }));
  },
  'dialog.submit': async () => {
    readsAtPatch = { videos: fake.gets('/api/videos'), me: fake.gets('/api/me'), users: fake.gets('/api/usuarios') };
    await user.click(confirmButton());
  },
  // Cancelar from the question, the close button after a failure.
  'dialog.close': async () => {
    await user.click(before.matches('failed') ? closeButton()! : cancelButton());
  },
  'xstate.done.actor.work': async () => {
    toastsSeen.push(CHANGED);
    freshToast = CHANGED;
    await fake.answer('PATCH', 'ok');
    await screen.findByText(CHANGED);
    // Every cached query is asked again: the library, the header's user, the user list.
    await waitFor(() => {
      expect(fake.gets('/api/videos')).toBeGreaterThan(readsAtPatch.videos);
      expect(fake.gets('/api/me')).toBeGreaterThan(readsAtPatch.me);
      expect(fake.gets('/api/usuarios')).toBeGreaterThan(readsAtPatch.users);
    });
  },
  'xstate.error.actor.work': async () => {
    toastsSeen.push(FAILED);
    freshToast = FAILED;
    await fake.answer('PATCH', 'fail');
    await screen.findAllByText(FAILED);
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#dialog.closed': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(queryConfirmDialog()).not.toBeInTheDocument());
    expect(listDialog()).toBeVisible();
    // The list shows the role the server has now.
    await waitFor(() => expectAnaListedAs(anaNow().rol));
    expect(fake.held('PATCH')).toBe(0);
    expectToasts();
  },
  '#dialog.open.editing': async (snapshot) => {
    before = snapshot;
    expect(await screen.findByText(question(anaNow().rol))).toBeVisible();
    expect(confirmButton()).toBeEnabled();
    expect(confirmButton()).not.toHaveAttribute('data-loading');
    expect(cancelButton()).toBeEnabled();
    expect(closeButton()).toBeEnabled();
    expect(fake.held('PATCH')).toBe(0);
    expectToasts();
  },
  '#dialog.working': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(fake.held('PATCH')).toBe(1));
    // One replace of /rol with the other role.
    expect(fake.patches.at(-1)).toEqual({ id: ANA.id, body: [{ op: 'replace', path: '/rol', value: anaNow().rol === 'admin' ? 'user' : 'admin' }] });
    expect(confirmButton()).toHaveAttribute('data-loading', 'true');
    expect(cancelButton()).toBeDisabled();
    expect(closeButton()).not.toBeInTheDocument();
    // Escape closes neither this dialog nor the list under it.
    await user.keyboard('{Escape}');
    expect(confirmDialog()).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Administrar usuarios', hidden: true })).toBeInTheDocument();
    expectToasts();
  },
  '#dialog.failed': async (snapshot) => {
    before = snapshot;
    // Still open, saying why, with the question (the list waits under it).
    expect(confirmDialog()).toBeVisible();
    expect(within(confirmDialog()).getByText(FAILED)).toBeVisible();
    expect(within(confirmDialog()).getByText(question(anaNow().rol))).toBeVisible();
    expect(confirmButton()).toBeEnabled();
    expect(closeButton()).toBeEnabled();
    expectToasts();
  },
} satisfies StateChecks<Snapshot>;

describeConfirmationModel('change role dialog', 'user list, administrator', {
  machine: changeRoleDialog,
  paths,
  events,
  states,
  executors,
  start: async () => {
    before = model.initial;
    await openUsers();
  },
});

describe('change role dialog', () => {
  it('promotes Ana, then downgrades her again', async () => {
    await openUsers();
    await user.click(within(userItem(ANA.nombre)).getByRole('button', { name: 'Hacer administrador a Ana Pérez' }));
    await user.click(confirmButton());
    await fake.answer('PATCH', 'ok');
    await waitFor(() => expectAnaListedAs('admin'));
    await user.click(within(userItem(ANA.nombre)).getByRole('button', { name: 'Quitar administrador a Ana Pérez' }));
    expect(screen.getByText(question('admin'))).toBeVisible();
    await user.click(confirmButton());
    await fake.answer('PATCH', 'ok');
    await waitFor(() => expectAnaListedAs('user'));
    expect(fake.patches.map((patch) => patch.body)).toEqual([
      [{ op: 'replace', path: '/rol', value: 'admin' }],
      [{ op: 'replace', path: '/rol', value: 'user' }],
    ]);
  });

  it('a refused downgrade (the last administrator) says so and changes nothing', async () => {
    fake = serveAccounts();
    await renderApp('/videos', { token: sessionToken({ user: 'root', role: 'admin' }) });
    fake.users().splice(1, 1, { ...ANA, rol: 'admin' });
    await openUserAdmin(user);
    await user.click(within(userItem(ANA.nombre)).getByRole('button', { name: 'Quitar administrador a Ana Pérez' }));
    await user.click(confirmButton());
    await fake.answer('PATCH', 'refuse');
    const message = 'No se puede quitar el rol al último administrador';
    expect(await within(confirmDialog()).findByText(message)).toBeVisible();
    expect(screen.getAllByText(message).length).toBeGreaterThanOrEqual(2); // in the dialog and as a toast
    await user.click(closeButton()!);
    await waitFor(() => expect(queryConfirmDialog()).not.toBeInTheDocument());
    expectAnaListedAs('admin');
  });

  it('a refused self-demotion says the administrator cannot demote themself', async () => {
    await openUsers();
    await user.click(within(userItem(ROOT.nombre)).getByRole('button', { name: 'Quitar administrador a Rosa Admin' }));
    expect(screen.getByText('¿Seguro que desea que «Rosa Admin» deje de ser administrador y pase a ser usuario?')).toBeVisible();
    await user.click(confirmButton());
    await fake.answer('PATCH', 'refuse');
    expect(await within(confirmDialog()).findByText('No puede quitarse a sí mismo el rol de administrador')).toBeVisible();
    expect(fake.users().find((entry) => entry.id === ROOT.id)?.rol).toBe('admin');
  });
});
