/**
 * The selection mode walked on the real app's library page (/videos) of an administrator, with only
 * the network replaced (selection.test-support.ts): every state and transition of the selection
 * machine as the bar, the cards' checkboxes, the dialogs and the toasts show it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeVideo, serveSelectionLibrary, type FakeBatchServer } from '../../src/features/videos/selection/selection.test-support.ts';
import { sessionToken } from '../../tests/utils/msw.ts';
import { renderApp } from '../../tests/utils/render-app.tsx';
import { itCoversTheMachine, runPath, type Executors, type StateChecks } from '../../tests/utils/machine-model.ts';
import { videoSelectionMachine } from './video-selection.machine.ts';
import {
  INVALID,
  TAG,
  TITLES,
  videoSelectionModel,
  type VideoSelectionModelEvent,
  type VideoSelectionSnapshot,
} from './video-selection.model.test-support.ts';

type Snapshot = VideoSelectionSnapshot;
// The model is shared with `npm run qa`: video-selection.model.test-support.ts.
const { events, paths } = videoSelectionModel;

let user: UserEvent;
let library: FakeBatchServer;
let before: Snapshot;
let toastsSeen: string[];
let freshToast: string | null;

async function openLibrary() {
  library = serveSelectionLibrary([1, 2, 3].map((id) => fakeVideo(id, TITLES[id]!)));
  toastsSeen = [];
  freshToast = null;
  await renderApp('/videos', { token: sessionToken({ role: 'admin' }) });
  await screen.findByRole('heading', { level: 2, name: TITLES[1] });
}

beforeEach(() => {
  user = userEvent.setup();
});

const bar = () => screen.getByRole('region', { name: 'Videos seleccionados' });
const queryBar = () => screen.queryByRole('region', { name: 'Videos seleccionados' });
const inBar = (name: string) => within(bar()).getByRole('button', { name });
const toggleButton = () => screen.getByRole('button', { name: 'Seleccionar' });
const checkbox = (id: number) => screen.getByRole('checkbox', { name: `Seleccionar «${TITLES[id]!}»` });
const tagDialog = () => screen.queryByRole('dialog', { name: /^(Añadir etiquetas a|Quitar etiquetas de) / });
const deleteDialog = () => screen.queryByRole('dialog', { name: 'Eliminar videos' });
const count = (n: number) => `${n} ${n === 1 ? 'video seleccionado' : 'videos seleccionados'}`;
const videosWord = (n: number) => `${n} ${n === 1 ? 'video' : 'videos'}`;
const ACTIONS = ['Añadir etiquetas', 'Quitar etiquetas', 'Visibilidad', 'Eliminar'];

function expectToasts() {
  const shown = screen.queryAllByRole('alert').map((alert) => alert.textContent);
  for (const text of shown) expect(toastsSeen).toContain(text);
  if (freshToast) expect(shown).toContain(freshToast);
  freshToast = null;
}

async function expectToast(text: string) {
  toastsSeen.push(text);
  freshToast = text;
  await screen.findByText(text);
}

/** Every card still on the server shows its checkbox, ticked exactly for the selected ones. */
async function expectCheckboxes(snapshot: Snapshot) {
  await waitFor(() => expect(screen.queryAllByRole('heading', { level: 2 })).toHaveLength(library.videos().length));
  for (const video of library.videos()) {
    const box = checkbox(video.id);
    if (snapshot.context.selected.includes(video.id)) expect(box).toBeChecked();
    else expect(box).not.toBeChecked();
  }
}

const executors = {
  'selection.start': async () => {
    await user.click(toggleButton());
  },
  // Escape from a selection of nothing, Cancelar otherwise: both leave the mode.
  'selection.cancel': async () => {
    if (before.matches({ on: 'none' })) await user.keyboard('{Escape}');
    else await user.click(inBar('Cancelar'));
  },
  'selection.toggle': async ({ event }) => {
    await user.click(checkbox(event.id));
  },
  'selection.selectAll': async () => {
    await user.click(inBar('Seleccionar todos'));
  },
  'selection.clear': async () => {
    await user.click(inBar('Quitar selección'));
  },
  'selection.tags': async ({ event }) => {
    await user.click(inBar(event.mode === 'add' ? 'Añadir etiquetas' : 'Quitar etiquetas'));
  },
  'selection.tags.submit': async () => {
    const dialog = tagDialog()!;
    await user.click(within(dialog).getByRole('combobox', { name: 'Etiquetas' }));
    await user.click(await screen.findByRole('option', { name: TAG.nombre }));
    await user.click(within(dialog).getByRole('button', { name: before.context.tagMode === 'add' ? 'Añadir' : 'Quitar' }));
  },
  'selection.visibility': async ({ event }) => {
    await user.click(inBar('Visibilidad'));
    await user.click(await screen.findByRole('menuitem', { name: event.visible ? 'Visible' : 'Oculto' }));
  },
  'selection.delete': async () => {
    await user.click(inBar('Eliminar'));
  },
  'selection.confirm': async () => {
    await user.click(within(deleteDialog()!).getByRole('button', { name: 'Eliminar' }));
  },
  'selection.dismiss': async () => {
    const dialog = (tagDialog() ?? deleteDialog())!;
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  },
  'xstate.done.actor.apply': async ({ event }) => {
    for (const outcome of event.output) if (outcome.status === 404) library.remove(outcome.id);
    await library.answer({ ok: true });
    const missing = event.output.filter((outcome) => outcome.status === 404).length;
    const done = event.output.length - missing;
    const deleting = event.output.some((outcome) => outcome.status === 204);
    const parts = [
      ...(done ? [`${videosWord(done)} ${deleting ? (done === 1 ? 'eliminado' : 'eliminados') : done === 1 ? 'modificado' : 'modificados'}`] : []),
      ...(missing ? [`${videosWord(missing)} ya no ${missing === 1 ? 'existía' : 'existían'}`] : []),
    ];
    await expectToast(parts.join('; '));
  },
  'xstate.error.actor.apply': async ({ event }) => {
    const error = event.error as { status: number; type: string; detail?: string };
    await library.answer(error.status === 0 ? { network: true } : { problem: error });
    const what = before.context.action?.kind === 'delete' ? 'No se han podido eliminar los videos' : 'No se han podido modificar los videos';
    await expectToast(`${what}: ${error === INVALID ? 'algún video tendría más de 50 etiquetas' : 'no hay conexión con el servidor'}`);
  },
} satisfies Executors<Snapshot, VideoSelectionModelEvent>;

const states = {
  '#videoSelection.off': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(queryBar()).not.toBeInTheDocument());
    expect(toggleButton()).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryAllByRole('checkbox', { name: /^Seleccionar «/ })).toEqual([]);
    expect(library.held()).toBe(0);
    expectToasts();
  },
  '#videoSelection.on.none': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(tagDialog() ?? deleteDialog()).toBeNull());
    expect(within(bar()).getByRole('status')).toHaveTextContent(count(0));
    expect(toggleButton()).toHaveAttribute('aria-pressed', 'true');
    for (const name of [...ACTIONS, 'Quitar selección']) expect(inBar(name)).toBeDisabled();
    expect(inBar('Seleccionar todos')).toHaveProperty('disabled', library.videos().length === 0);
    await expectCheckboxes(snapshot);
    expect(library.held()).toBe(0);
    expectToasts();
  },
  '#videoSelection.on.some': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(tagDialog() ?? deleteDialog()).toBeNull());
    expect(within(bar()).getByRole('status')).toHaveTextContent(count(snapshot.context.selected.length));
    for (const name of [...ACTIONS, 'Quitar selección', 'Cancelar']) expect(inBar(name)).toBeEnabled();
    await expectCheckboxes(snapshot);
    expect(library.held()).toBe(0);
    expectToasts();
  },
  '#videoSelection.on.tags': async (snapshot) => {
    before = snapshot;
    const n = snapshot.context.selected.length;
    const title = snapshot.context.tagMode === 'add' ? `Añadir etiquetas a ${videosWord(n)}` : `Quitar etiquetas de ${videosWord(n)}`;
    expect(await screen.findByRole('dialog', { name: title })).toBeVisible();
    // Nothing chosen yet: the button waits for a tag.
    expect(within(tagDialog()!).getByRole('button', { name: snapshot.context.tagMode === 'add' ? 'Añadir' : 'Quitar' })).toBeDisabled();
    expectToasts();
  },
  '#videoSelection.on.confirmDelete': async (snapshot) => {
    before = snapshot;
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar videos' });
    expect(within(dialog).getByText(`¿Eliminar ${videosWord(snapshot.context.selected.length)}?`)).toBeVisible();
    expect(library.held()).toBe(0);
    expectToasts();
  },
  '#videoSelection.on.working': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(library.held()).toBe(1));
    const { selected, action } = snapshot.context;
    const request = library.requests.at(-1)!;
    if (action?.kind === 'delete') expect(request).toEqual({ method: 'DELETE', ids: selected });
    else if (action?.kind === 'visibility') {
      expect(request).toEqual({ method: 'PATCH', body: { ids: selected, operaciones: [{ op: 'replace', path: '/isVisible', value: action.visible }] } });
    } else {
      const operation = action?.mode === 'add' ? { op: 'add', path: '/etiquetas/-', value: TAG.id } : { op: 'remove', path: `/etiquetas/${TAG.id}` };
      expect(request).toEqual({ method: 'PATCH', body: { ids: selected, operaciones: [operation] } });
    }
    // Busy: nothing in the bar or on the cards can be pressed, and Escape does not leave the mode.
    for (const name of [...ACTIONS, 'Quitar selección', 'Seleccionar todos', 'Cancelar']) expect(inBar(name)).toBeDisabled();
    for (const id of selected) expect(checkbox(id)).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(bar()).toBeInTheDocument();
    expectToasts();
  },
} satisfies StateChecks<Snapshot>;

describe('video selection model', () => {
  for (const { name, path } of paths) {
    it(`${name} (R-ADM-15, R-ADM-16, R-ADM-17, R-ADM-18, R-ADM-19)`, async () => {
      before = videoSelectionModel.models[0]!.model.machine.resolveState({ value: 'off', context: { selected: [], tagMode: null, action: null } });
      await openLibrary();
      await runPath(path, states, executors);
    }, 120_000);
  }
});

describe('video selection model coverage', () => {
  itCoversTheMachine(videoSelectionMachine, paths, { events, states, executors });
});
