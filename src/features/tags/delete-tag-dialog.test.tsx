/**
 * 'Eliminar etiqueta' from 'Administrar etiquetas' on the library page of an administrator, in the
 * real app with only the network replaced (tags.test-support.ts): a model-based walk of the dialog
 * machine as the app runs it (every state a confirmation reaches, every transition it can take).
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
import { deleteTagDialog, type Etiqueta } from './tags.actors.ts';
import { MEETING, PRODUCT, serveTags, VENTAS, type FakeTags } from './tags.test-support.ts';

type Snapshot = SnapshotFrom<typeof deleteTagDialog>;
type ModelEvent = DialogEvent<Etiqueta, undefined> | DoneEvent<'work', undefined> | ErrorEvent<'work'>;

const DELETED = 'La etiqueta se ha eliminado con éxito';
const DELETE_FAILED = 'Ha ocurrido un error tratando de eliminar la etiqueta';
const QUESTION = '¿Seguro que desea eliminar la etiqueta «Ventas»? Se quitará de todos sus videos.';

const events: ModelEvent[] = [
  { type: 'dialog.open', subject: VENTAS },
  { type: 'dialog.submit', payload: undefined },
  { type: 'dialog.close' },
  // The answers come from the fake server: the DELETE is answered 204 or 500.
  { type: 'xstate.done.actor.work', output: undefined },
  { type: 'xstate.error.actor.work', error: { status: 500, type: 'internal-server-error' } },
];

const model = createMachineModel(deleteTagDialog, { events });
const paths = coveringPaths(model);

let user: UserEvent;
let fake: FakeTags;
let toastsSeen: string[];
let freshToast: string | null;
/** The snapshot the last check saw: the state an event starts from. */
let before: Snapshot;

beforeEach(() => {
  user = userEvent.setup();
});

const listDialog = () => screen.getByRole('dialog', { name: 'Administrar etiquetas' });
const dialog = () => screen.getByRole('dialog', { name: 'Eliminar etiqueta' });
const queryDialog = () => screen.queryByRole('dialog', { name: 'Eliminar etiqueta' });
const confirmButton = () => within(dialog()).getByRole('button', { name: 'Eliminar' });
const cancelButton = () => within(dialog()).getByRole('button', { name: 'Cancelar' });
const closeButton = () => within(dialog()).queryByRole('button', { name: 'Cerrar' });
const listedNames = () => within(listDialog()).getAllByRole('row').map((row) => within(row).getAllByRole('cell')[0]!.textContent);
const cardTags = (titulo: string) =>
  within(within(screen.getByRole('article', { name: titulo })).getByRole('list', { name: 'Etiquetas del video' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

async function openTagList(role: 'admin' | 'user' = 'admin') {
  fake = serveTags();
  toastsSeen = [];
  freshToast = null;
  await renderApp('/videos', { token: sessionToken({ role }) });
  await screen.findByRole('heading', { level: 2, name: MEETING.titulo });
  await user.click(screen.getByRole('button', { name: /Menú de usuario/ }));
  await user.click(screen.getByRole('menuitem', { name: 'Administrar etiquetas' }));
  await waitFor(() => expect(listedNames()).toEqual(['Equipos', 'Formación', 'Ventas']));
}

function expectToasts() {
  const shown = screen.queryAllByRole('alert').map((alert) => alert.textContent);
  for (const text of shown) expect(toastsSeen).toContain(text);
  if (freshToast) expect(shown).toContain(freshToast);
  freshToast = null;
}

const executors = {
  'dialog.open': async () => {
    await user.click(within(listDialog()).getByRole('button', { name: 'Eliminar Ventas' }));
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
    await fake.answer('DELETE', 'ok');
    await screen.findByText(DELETED);
  },
  'xstate.error.actor.work': async () => {
    toastsSeen.push(DELETE_FAILED);
    freshToast = DELETE_FAILED;
    await fake.answer('DELETE', 'fail');
    await screen.findByText(DELETE_FAILED);
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#dialog.closed': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(queryDialog()).not.toBeInTheDocument());
    expect(fake.held('DELETE')).toBe(0);
    const deleted = fake.deletes.length > 0 && !fake.tags().some((tag) => tag.id === VENTAS.id);
    // Deleted: gone from the list at once, and from the cards that had it; else all as it was.
    await waitFor(() => expect(listedNames()).toEqual(deleted ? ['Equipos', 'Formación'] : ['Equipos', 'Formación', 'Ventas']));
    await waitFor(() => {
      expect(cardTags(MEETING.titulo)).toEqual(deleted ? ['Formación'] : ['Formación', 'Ventas']);
      expect(cardTags(PRODUCT.titulo)).toEqual(deleted ? ['Equipos'] : ['Ventas', 'Equipos']);
    });
    expectToasts();
  },
  '#dialog.open.editing': async (snapshot) => {
    before = snapshot;
    expect(await screen.findByRole('dialog', { name: 'Eliminar etiqueta' })).toBeVisible();
    expect(within(dialog()).getByText(QUESTION)).toBeVisible();
    expect(confirmButton()).toBeEnabled();
    expect(confirmButton()).not.toHaveAttribute('data-loading');
    expect(cancelButton()).toBeEnabled();
    expect(closeButton()).toBeEnabled();
    expect(fake.held('DELETE')).toBe(0);
    expectToasts();
  },
  '#dialog.working': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(fake.held('DELETE')).toBe(1));
    expect(fake.deletes.at(-1)).toBe(VENTAS.id);
    // The loader on Eliminar; nothing can be pressed, and Escape does not close the dialog.
    expect(confirmButton()).toHaveAttribute('data-loading', 'true');
    expect(confirmButton()).toBeDisabled();
    expect(cancelButton()).toBeDisabled();
    expect(closeButton()).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(dialog()).toBeVisible();
    expectToasts();
  },
  '#dialog.failed': async (snapshot) => {
    before = snapshot;
    // Still open: try again or close; the tag is still there.
    expect(dialog()).toBeVisible();
    expect(within(dialog()).getByText(QUESTION)).toBeVisible();
    expect(confirmButton()).toBeEnabled();
    expect(confirmButton()).not.toHaveAttribute('data-loading');
    expect(closeButton()).toBeEnabled();
    expect(fake.tags().some((tag) => tag.id === VENTAS.id)).toBe(true);
    expectToasts();
  },
} satisfies StateChecks<Snapshot>;

describeConfirmationModel('delete tag dialog', 'library page, administrator', {
  machine: deleteTagDialog,
  paths,
  events,
  states,
  executors,
  start: async () => {
    before = model.initial;
    await openTagList();
  },
});

describe('delete tag dialog', () => {
  it('deletes the chosen tag only, after it was cancelled once; the filter popover no longer offers it', async () => {
    await openTagList();
    await user.click(within(listDialog()).getByRole('button', { name: 'Eliminar Equipos' }));
    expect(within(dialog()).getByText('¿Seguro que desea eliminar la etiqueta «Equipos»? Se quitará de todos sus videos.')).toBeVisible();
    await user.click(cancelButton());
    await waitFor(() => expect(queryDialog()).not.toBeInTheDocument());
    expect(fake.deletes).toEqual([]);

    await user.click(within(listDialog()).getByRole('button', { name: 'Eliminar Ventas' }));
    expect(within(dialog()).getByText(QUESTION)).toBeVisible();
    await user.click(confirmButton());
    await fake.answer('DELETE', 'ok');
    expect(await screen.findByText(DELETED)).toBeVisible();
    expect(fake.deletes).toEqual([VENTAS.id]);
    await waitFor(() => expect(listedNames()).toEqual(['Equipos', 'Formación']));

    await user.click(within(listDialog()).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Administrar etiquetas' })).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Etiqueta' }));
    const popover = within(await screen.findByRole('dialog', { name: 'Filtrar por etiquetas' }));
    expect(popover.queryByRole('checkbox', { name: 'Ventas' })).not.toBeInTheDocument();
    expect(popover.getByRole('checkbox', { name: 'Equipos' })).toBeInTheDocument();
    expect(popover.getByRole('checkbox', { name: 'Formación' })).toBeInTheDocument();
  });
});
