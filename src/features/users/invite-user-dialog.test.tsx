/**
 * 'Nuevo usuario' from 'Administrar usuarios' (R-INV-1 "create user (takes an e-mail)",
 * "invitation link", R-INV-1 POST /api/register-invitations), in the real app with only the network
 * replaced (users.test-support.ts): a model-based walk of the invitation dialog's machine as the app
 * runs it — the address, the POST, success opening the invitation link dialog (copy button,
 * 'Copiado') and the refreshed list of pending invitations, a refused address — and whether the
 * link dialog says the invitation was e-mailed.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { DialogEvent } from '../../../machines/dialog/dialog.types.ts';
import {
  coverageReport,
  coveringPaths,
  createMachineModel,
  runPath,
  type DoneEvent,
  type ErrorEvent,
  type Executors,
  type StateChecks,
} from '../../../tests/utils/machine-model.ts';
import { sessionToken } from '../../../tests/utils/msw.ts';
import { renderApp } from '../../../tests/utils/render-app.tsx';
import { inviteUserDialog } from './users.actors.ts';
import type { InvitationCreated } from './users.queries.ts';
import { INVITED_EMAIL, listDialog, openUserAdmin, PENDING, pendingEmails, serveAccounts, type FakeAccounts } from './users.test-support.ts';

type Snapshot = SnapshotFrom<typeof inviteUserDialog>;
type ModelEvent = DialogEvent<'invitacion', string> | DoneEvent<'work', InvitationCreated> | ErrorEvent<'work'>;

const INVALID = 'La dirección de correo electrónico no es válida';
const FAILED = 'No se ha podido crear la invitación';
const EMAILED = 'Enviada por correo electrónico';

const events: ModelEvent[] = [
  { type: 'dialog.open', subject: 'invitacion' },
  { type: 'dialog.submit', payload: INVITED_EMAIL },
  { type: 'dialog.close' },
  // The answers come from the fake server: the POST is answered 201 or 400.
  {
    type: 'xstate.done.actor.work',
    output: { id: 41, token: 'token-41', link: 'http://localhost/register?invitation=token-41', email: INVITED_EMAIL, expiresAt: '2099-12-01T10:00:00.000Z', emailDelivery: 'not-configured' },
  },
  { type: 'xstate.error.actor.work', error: { status: 400, type: 'validation-error' } },
];

const model = createMachineModel(inviteUserDialog, { events });
const paths = coveringPaths(model);

let user: UserEvent;
let fake: FakeAccounts;
let before: Snapshot;

beforeEach(() => {
  user = userEvent.setup();
});

async function openUsers() {
  fake = serveAccounts();
  await renderApp('/videos', { token: sessionToken({ user: 'root', role: 'admin' }) });
  await openUserAdmin(user);
}

const inviteDialog = () => screen.getByRole('dialog', { name: 'Nuevo usuario' });
const queryInviteDialog = () => screen.queryByRole('dialog', { name: 'Nuevo usuario' });
const emailField = () => within(inviteDialog()).getByLabelText('Correo electrónico');
const createButton = () => within(inviteDialog()).getByRole('button', { name: 'Crear invitación' });
const cancelButton = () => within(inviteDialog()).getByRole('button', { name: 'Cancelar' });
const closeButton = () => within(inviteDialog()).queryByRole('button', { name: 'Cerrar' });
const queryLinkDialog = () => screen.queryByRole('dialog', { name: 'Enlace de invitación' });
const created = () => fake.invitations().some((invitation) => invitation.email === INVITED_EMAIL);

/** The link dialog of the invitation just created: its link, Copiar enlace → 'Copiado' and the clipboard. */
async function copyTheLink() {
  const dialog = await screen.findByRole('dialog', { name: 'Enlace de invitación' });
  const token = `token-${fake.invitations()[0]!.id}`;
  const link = `http://localhost/register?invitation=${token}`;
  expect(within(dialog).getByText(`Invitación para ${INVITED_EMAIL}. Envíe este enlace a la persona invitada:`)).toBeVisible();
  expect(within(dialog).getByLabelText('Enlace de invitación')).toHaveValue(link);
  await user.click(within(dialog).getByRole('button', { name: 'Copiar enlace' }));
  expect(await within(dialog).findByRole('button', { name: 'Copiado' })).toBeVisible();
  expect(await navigator.clipboard.readText()).toBe(link);
  return dialog;
}

const executors = {
  'dialog.open': async () => {
    await user.click(within(listDialog()).getByRole('button', { name: 'Nuevo usuario' }));
  },
  'dialog.submit': async () => {
    await user.clear(emailField());
    await user.type(emailField(), INVITED_EMAIL);
    await user.click(createButton());
  },
  // Cancelar from the form, the close button after a failure.
  'dialog.close': async () => {
    await user.click(before.matches('failed') ? closeButton()! : cancelButton());
  },
  // Created: the link dialog opens; the administrator copies the link and closes it.
  'xstate.done.actor.work': async () => {
    await fake.answer('POST', 'ok');
    const dialog = await copyTheLink();
    // Not e-mailed (the server has no SMTP): nothing says it was.
    expect(within(dialog).queryByText(EMAILED)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(queryLinkDialog()).not.toBeInTheDocument());
  },
  'xstate.error.actor.work': async () => {
    await fake.answer('POST', 'refuse');
    await screen.findAllByText(INVALID);
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#dialog.closed': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(queryInviteDialog()).not.toBeInTheDocument());
    expect(listDialog()).toBeVisible();
    // The pending invitations as the server has them now: a created one is listed first.
    await waitFor(() => expect(pendingEmails()).toEqual(created() ? [INVITED_EMAIL, PENDING.email] : [PENDING.email]));
    expect(fake.held('POST')).toBe(0);
  },
  '#dialog.open.editing': async (snapshot) => {
    before = snapshot;
    expect(await screen.findByRole('dialog', { name: 'Nuevo usuario' })).toBeVisible();
    // A fresh, empty form at each opening; no message before sending (R-INV-1).
    expect(emailField()).toHaveValue('');
    expect(emailField()).toBeEnabled();
    expect(emailField()).not.toHaveAttribute('aria-invalid', 'true');
    expect(createButton()).toBeEnabled();
    expect(cancelButton()).toBeEnabled();
    expect(fake.held('POST')).toBe(0);
  },
  '#dialog.working': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(fake.held('POST')).toBe(1));
    expect(fake.posts.at(-1)).toEqual({ email: INVITED_EMAIL });
    expect(createButton()).toHaveAttribute('data-loading', 'true');
    expect(emailField()).toBeDisabled();
    expect(cancelButton()).toBeDisabled();
    expect(closeButton()).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(inviteDialog()).toBeVisible();
  },
  '#dialog.failed': async (snapshot) => {
    before = snapshot;
    // Still open with what was typed, the refusal under the field (and as a toast).
    expect(inviteDialog()).toBeVisible();
    expect(emailField()).toHaveValue(INVITED_EMAIL);
    expect(emailField()).toHaveAttribute('aria-invalid', 'true');
    expect(emailField()).toHaveAccessibleDescription(INVALID);
    expect(screen.getAllByText(INVALID).length).toBeGreaterThanOrEqual(2);
    expect(createButton()).toBeEnabled();
    expect(closeButton()).toBeEnabled();
  },
} satisfies StateChecks<Snapshot>;

describe('invite user dialog model (user list, administrator)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      before = model.initial;
      await openUsers();
      await runPath(path, states, executors);
    });
  }
});

describe('invite user dialog model coverage', () => {
  it('walks every state and transition; no rule is checked before sending (R-INV-1), so the form is never invalid', () => {
    const report = coverageReport(inviteUserDialog, paths, { events, states, executors });
    expect(report).toEqual({
      undescribed: [],
      unvisited: ['node dialog.open.invalid'],
      untaken: [
        'transition dialog.open on dialog.submit #0',
        'transition dialog.open on dialog.submit #2',
        'transition dialog.failed on dialog.submit #0',
        'transition dialog.failed on dialog.submit #2',
      ],
      undeclared: [],
      deadEnds: [],
      unusedEvents: [],
      uncheckedStates: ['#dialog.open.invalid'],
      unknownChecks: [],
      undrivenEvents: [],
      unusedExecutors: [],
    });
  });
});

describe('invitation link dialog', () => {
  async function invite(delivery: 'sent' | 'failed' | 'not-configured') {
    await openUsers();
    fake.emailDelivery(delivery);
    await user.click(within(listDialog()).getByRole('button', { name: 'Nuevo usuario' }));
    await user.type(emailField(), INVITED_EMAIL);
    await user.click(createButton());
    await fake.answer('POST', 'ok');
    return copyTheLink();
  }

  it("says 'Enviada por correo electrónico' when the server e-mailed the invitation", async () => {
    const dialog = await invite('sent');
    expect(within(dialog).getByText(EMAILED)).toBeVisible();
  });

  it('says to copy the link when the e-mail could not be sent', async () => {
    const dialog = await invite('failed');
    expect(within(dialog).queryByText(EMAILED)).not.toBeInTheDocument();
    expect(within(dialog).getByText('No se ha podido enviar por correo electrónico: copie el enlace y envíelo usted.')).toBeVisible();
  });

  it('a server failure (not the address) says the invitation was not created', async () => {
    await openUsers();
    await user.click(within(listDialog()).getByRole('button', { name: 'Nuevo usuario' }));
    await user.type(emailField(), INVITED_EMAIL);
    await user.click(createButton());
    await fake.answer('POST', 'fail');
    expect(await within(inviteDialog()).findByText(FAILED)).toBeVisible();
    expect(queryLinkDialog()).not.toBeInTheDocument();
    expect(created()).toBe(false);
  });
});
