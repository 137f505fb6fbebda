/**
 * The delete confirmation from the library page (/videos) of an administrator, in the real app with
 * only the network replaced (manage.test-support.ts): a model-based walk of the dialog machine as the
 * app runs it (every state a confirmation reaches, every transition it can take), and the
 * non-administrator's page.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { sessionToken } from '../../../../tests/utils/msw.ts';
import { renderApp } from '../../../../tests/utils/render-app.tsx';
import {
  coveringPaths,
  createMachineModel,
  type DoneEvent,
  type ErrorEvent,
  type Executors,
  type StateChecks,
} from '../../../../tests/utils/machine-model.ts';
import { describeConfirmationModel } from '../../../../tests/utils/model/confirmation-dialog.ts';
import type { DialogEvent } from '../../../../machines/dialog/dialog.types.ts';
import type { Video } from '../videos.queries.ts';
import { deleteVideoDialog } from './manage.actors.ts';
import { OTHER_VIDEO, serveLibrary, VIDEO, type FakeLibrary } from './manage.test-support.ts';

type Snapshot = SnapshotFrom<typeof deleteVideoDialog>;
type ModelEvent = DialogEvent<Video, undefined> | DoneEvent<'work', undefined> | ErrorEvent<'work'>;

const DELETED = 'El video se ha eliminado con éxito';
const DELETE_FAILED = 'Ha ocurrido un error tratando de eliminar el video';
const QUESTION = `¿Seguro que desea eliminar el video «${VIDEO.titulo}»?`;

const events: ModelEvent[] = [
  { type: 'dialog.open', subject: VIDEO },
  { type: 'dialog.submit', payload: undefined },
  { type: 'dialog.close' },
  // The answers come from the fake server: the DELETE is answered 204 or 500.
  { type: 'xstate.done.actor.work', output: undefined },
  { type: 'xstate.error.actor.work', error: { status: 500, type: 'internal-server-error' } },
];

const model = createMachineModel(deleteVideoDialog, { events });
const paths = coveringPaths(model);

let user: UserEvent;
let library: FakeLibrary;
/** The toasts the user must have seen, oldest first; the newest must be on screen after its step. */
let toastsSeen: string[];
let freshToast: string | null;
/** The snapshot the last check saw: the state an event starts from. */
let before: Snapshot;

async function openLibrary(role: 'admin' | 'user' = 'admin') {
  library = serveLibrary();
  toastsSeen = [];
  freshToast = null;
  await renderApp('/videos', { token: sessionToken({ role }) });
  await screen.findByRole('heading', { level: 2, name: VIDEO.titulo });
}

beforeEach(() => {
  user = userEvent.setup();
});

const dialog = () => screen.getByRole('dialog', { name: 'Eliminar video' });
const queryDialog = () => screen.queryByRole('dialog', { name: 'Eliminar video' });
const card = (video: Video) => screen.queryByRole('article', { name: video.titulo });
const confirmButton = () => within(dialog()).getByRole('button', { name: 'Eliminar' });
const cancelButton = () => within(dialog()).getByRole('button', { name: 'Cancelar' });
const closeButton = () => within(dialog()).queryByRole('button', { name: 'Cerrar' });

function expectToasts() {
  const shown = screen.queryAllByRole('alert').map((alert) => alert.textContent);
  for (const text of shown) expect(toastsSeen).toContain(text);
  if (freshToast) expect(shown).toContain(freshToast);
  freshToast = null;
}

const executors = {
  'dialog.open': async () => {
    await user.click(screen.getByRole('button', { name: `Eliminar ${VIDEO.titulo}` }));
  },
  'dialog.submit': async () => {
    await user.click(confirmButton());
  },
  // Cancelar from the question, the close button after a failure.
  'dialog.close': async () => {
    await user.click(before.matches('failed') ? closeButton()! : cancelButton());
  },
  'xstate.done.actor.work': async () => {
    toastsSeen.push(DELETED);
    freshToast = DELETED;
    await library.answer('DELETE', 'ok');
    await screen.findByText(DELETED);
  },
  'xstate.error.actor.work': async () => {
    toastsSeen.push(DELETE_FAILED);
    freshToast = DELETE_FAILED;
    await library.answer('DELETE', 'fail');
    await screen.findByText(DELETE_FAILED);
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#dialog.closed': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(queryDialog()).not.toBeInTheDocument());
    const deleted = library.deletes.length > 0 && !library.videos().some((video) => video.id === VIDEO.id);
    // Deleted: its card is gone from the list at once (the cached list), the other one stays.
    expect(card(VIDEO) === null).toBe(deleted);
    expect(card(OTHER_VIDEO)).toBeInTheDocument();
    expect(library.held('DELETE')).toBe(0);
    expectToasts();
  },
  '#dialog.open.editing': async (snapshot) => {
    before = snapshot;
    expect(await screen.findByRole('dialog', { name: 'Eliminar video' })).toBeVisible();
    expect(within(dialog()).getByText(QUESTION)).toBeVisible();
    expect(confirmButton()).toBeEnabled();
    expect(confirmButton()).not.toHaveAttribute('data-loading');
    expect(cancelButton()).toBeEnabled();
    expect(closeButton()).toBeEnabled();
    expect(library.held('DELETE')).toBe(0);
    expectToasts();
  },
  '#dialog.working': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(library.held('DELETE')).toBe(1));
    expect(library.deletes.at(-1)).toBe(VIDEO.id);
    // The loader on Eliminar; nothing can be pressed, and Escape does not close the dialog.
    expect(confirmButton()).toHaveAttribute('data-loading', 'true');
    expect(confirmButton()).toBeDisabled();
    expect(cancelButton()).toBeDisabled();
    expect(closeButton()).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(dialog()).toBeVisible();
    expect(card(VIDEO)).toBeInTheDocument();
    expectToasts();
  },
  '#dialog.failed': async (snapshot) => {
    before = snapshot;
    // Still open: try again or cancel; the video is still in the list.
    expect(dialog()).toBeVisible();
    expect(within(dialog()).getByText(QUESTION)).toBeVisible();
    expect(confirmButton()).toBeEnabled();
    expect(confirmButton()).not.toHaveAttribute('data-loading');
    expect(closeButton()).toBeEnabled();
    expect(card(VIDEO)).toBeInTheDocument();
    expectToasts();
  },
} satisfies StateChecks<Snapshot>;

describeConfirmationModel('delete video dialog', 'library page, administrator', {
  machine: deleteVideoDialog,
  paths,
  events,
  states,
  executors,
  start: async () => {
    before = model.initial;
    await openLibrary();
  },
});

describe('delete video dialog', () => {
  it('deletes the chosen video only, after it was cancelled once', async () => {
    await openLibrary();
    await user.click(screen.getByRole('button', { name: `Eliminar ${OTHER_VIDEO.titulo}` }));
    expect(within(dialog()).getByText(`¿Seguro que desea eliminar el video «${OTHER_VIDEO.titulo}»?`)).toBeVisible();
    await user.click(cancelButton());
    await waitFor(() => expect(queryDialog()).not.toBeInTheDocument());
    expect(library.deletes).toEqual([]);

    await user.click(screen.getByRole('button', { name: `Eliminar ${VIDEO.titulo}` }));
    expect(within(dialog()).getByText(QUESTION)).toBeVisible();
    await user.click(confirmButton());
    await library.answer('DELETE', 'ok');
    expect(await screen.findByText(DELETED)).toBeVisible();
    expect(library.deletes).toEqual([VIDEO.id]);
    expect(card(VIDEO)).not.toBeInTheDocument();
    expect(card(OTHER_VIDEO)).toBeInTheDocument();
  });

  it('offers a user who is not an administrator neither edit nor delete', async () => {
    await openLibrary('user');
    expect(screen.queryByRole('button', { name: `Eliminar ${VIDEO.titulo}` })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `Editar ${VIDEO.titulo}` })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
