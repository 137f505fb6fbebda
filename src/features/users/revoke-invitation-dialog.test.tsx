/**
 * Revocar on a pending invitation of 'Administrar usuarios' (R-INV-4), in the real app with only the
 * network replaced (users.test-support.ts): a model-based walk of the revocation's dialog machine
 * as the app runs it (the confirmation, the DELETE, success taking the invitation out of the list,
 * failure leaving it there).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, expect } from 'vitest';
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
import { revokeInvitationDialog } from './users.actors.ts';
import type { Invitation } from './users.queries.ts';
import { listDialog, openUserAdmin, PENDING, pendingEmails, serveAccounts, type FakeAccounts } from './users.test-support.ts';

type Snapshot = SnapshotFrom<typeof revokeInvitationDialog>;
type ModelEvent = DialogEvent<Invitation, undefined> | DoneEvent<'work', undefined> | ErrorEvent<'work'>;

const REVOKED = 'La invitación se ha revocado';
const FAILED = 'No se ha podido revocar la invitación';
const QUESTION = `¿Seguro que desea revocar la invitación de ${PENDING.email}?`;

const events: ModelEvent[] = [
  { type: 'dialog.open', subject: PENDING },
  { type: 'dialog.submit', payload: undefined },
  { type: 'dialog.close' },
  // The answers come from the fake server: the DELETE is answered 204 or 500.
  { type: 'xstate.done.actor.work', output: undefined },
  { type: 'xstate.error.actor.work', error: { status: 500, type: 'internal-server-error' } },
];

const model = createMachineModel(revokeInvitationDialog, { events });
const paths = coveringPaths(model);

let user: UserEvent;
let fake: FakeAccounts;
let toastsSeen: string[];
let freshToast: string | null;
let before: Snapshot;

beforeEach(() => {
  user = userEvent.setup();
});

async function openUsers() {
  fake = serveAccounts();
  toastsSeen = [];
  freshToast = null;
  await renderApp('/videos', { token: sessionToken({ user: 'root', role: 'admin' }) });
  await openUserAdmin(user);
  await waitFor(() => expect(pendingEmails()).toEqual([PENDING.email]));
}

const revoked = () => !fake.invitations().some((invitation) => invitation.id === PENDING.id);
const confirmDialog = () => screen.getByRole('dialog', { name: 'Revocar invitación' });
const queryConfirmDialog = () => screen.queryByRole('dialog', { name: 'Revocar invitación' });
const confirmButton = () => within(confirmDialog()).getByRole('button', { name: 'Revocar' });
const cancelButton = () => within(confirmDialog()).getByRole('button', { name: 'Cancelar' });
const closeButton = () => within(confirmDialog()).queryByRole('button', { name: 'Cerrar' });

function expectToasts() {
  const shown = screen.queryAllByRole('alert').map((alert) => alert.textContent);
  for (const text of shown.filter((entry) => entry === REVOKED || entry === FAILED)) expect(toastsSeen).toContain(text);
  if (freshToast) expect(shown).toContain(freshToast);
  freshToast = null;
}

const executors = {
  'dialog.open': async () => {
    await user.click(within(listDialog()).getByRole('button', { name: `Revocar la invitación de ${PENDING.email}` }));
  },
  'dialog.submit': async () => {
    await user.click(confirmButton());
  },
  'dialog.close': async () => {
    await user.click(before.matches('failed') ? closeButton()! : cancelButton());
  },
  'xstate.done.actor.work': async () => {
    toastsSeen.push(REVOKED);
    freshToast = REVOKED;
    await fake.answer('DELETE', 'ok');
    await screen.findByText(REVOKED);
  },
  'xstate.error.actor.work': async () => {
    toastsSeen.push(FAILED);
    freshToast = FAILED;
    await fake.answer('DELETE', 'fail');
    await screen.findAllByText(FAILED);
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#dialog.closed': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(queryConfirmDialog()).not.toBeInTheDocument());
    // Revoked: gone from the list at once; otherwise still listed.
    await waitFor(() => expect(pendingEmails()).toEqual(revoked() ? [] : [PENDING.email]));
    if (revoked()) expect(within(listDialog()).getByText('No hay invitaciones pendientes')).toBeVisible();
    expect(fake.held('DELETE')).toBe(0);
    expectToasts();
  },
  '#dialog.open.editing': async (snapshot) => {
    before = snapshot;
    expect(await screen.findByRole('dialog', { name: 'Revocar invitación' })).toBeVisible();
    expect(within(confirmDialog()).getByText(QUESTION)).toBeVisible();
    expect(confirmButton()).toBeEnabled();
    expect(cancelButton()).toBeEnabled();
    expect(fake.held('DELETE')).toBe(0);
    expectToasts();
  },
  '#dialog.working': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(fake.held('DELETE')).toBe(1));
    expect(fake.deletes.at(-1)).toBe(PENDING.id);
    expect(confirmButton()).toHaveAttribute('data-loading', 'true');
    expect(cancelButton()).toBeDisabled();
    expect(closeButton()).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(confirmDialog()).toBeVisible();
    expectToasts();
  },
  '#dialog.failed': async (snapshot) => {
    before = snapshot;
    expect(confirmDialog()).toBeVisible();
    expect(within(confirmDialog()).getByText(FAILED)).toBeVisible();
    expect(confirmButton()).toBeEnabled();
    expect(closeButton()).toBeEnabled();
    expect(revoked()).toBe(false);
    expectToasts();
  },
} satisfies StateChecks<Snapshot>;

describeConfirmationModel('revoke invitation dialog', 'user list, administrator', {
  machine: revokeInvitationDialog,
  paths,
  events,
  states,
  executors,
  start: async () => {
    before = model.initial;
    await openUsers();
  },
});
