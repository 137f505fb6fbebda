/**
 * 'Nueva etiqueta' and 'Editar etiqueta' from 'Administrar etiquetas' on the library page of an
 * administrator, in the real app with only the network replaced (tags.test-support.ts): a
 * model-based walk of the dialog machine as the app runs it (its R-TAG-2 rules and the no-op rename
 * included) — every state, every transition, each rule's message, a taken name (409) and a failure.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { DialogEvent } from '../../../machines/dialog/dialog.types.ts';
import {
  coveringPaths,
  createMachineModel,
  itCoversTheMachine,
  runPath,
  type DoneEvent,
  type ErrorEvent,
  type Executors,
  type StateChecks,
} from '../../../tests/utils/machine-model.ts';
import { sessionToken } from '../../../tests/utils/msw.ts';
import { renderApp } from '../../../tests/utils/render-app.tsx';
import { tagFormDialog, tagFormGuards, type Etiqueta, type TagFormPayload, type TagFormSubject } from './tags.actors.ts';
import { MEETING, PRODUCT, serveTags, VENTAS, type FakeTags } from './tags.test-support.ts';

const machine = tagFormDialog.provide({ guards: tagFormGuards });
type Snapshot = SnapshotFrom<typeof machine>;
type ModelEvent = DialogEvent<TagFormSubject, TagFormPayload> | DoneEvent<'work', Etiqueta> | ErrorEvent<'work'>;

const REQUIRED = '* Este campo es obligatorio';
const TOO_SHORT = '* Este campo no puede contener menos de 3 carácteres';
const DUPLICATE = 'Ya existe una etiqueta con ese nombre';
const CREATED = 'La etiqueta se ha creado correctamente';
const MODIFIED = 'La etiqueta se ha modificado correctamente';
const SAVE_FAILED = 'No se ha podido guardar la etiqueta';

const events: ModelEvent[] = [
  { type: 'dialog.open', subject: { tag: null } },
  { type: 'dialog.open', subject: { tag: VENTAS } },
  // Blank (only spaces), too short, a new name with spaces around it, and Ventas's own name.
  { type: 'dialog.submit', payload: { nombre: '   ' } },
  { type: 'dialog.submit', payload: { nombre: 'ab' } },
  { type: 'dialog.submit', payload: { nombre: '  Marketing ' } },
  { type: 'dialog.submit', payload: { nombre: 'Ventas' } },
  { type: 'dialog.close' },
  // The answers come from the fake server: saved, a name another tag has (409), a failure (500).
  { type: 'xstate.done.actor.work', output: { id: 20, nombre: 'Marketing' } },
  { type: 'xstate.error.actor.work', error: { status: 409, type: 'conflict' } },
  { type: 'xstate.error.actor.work', error: { status: 500, type: 'internal-server-error' } },
];

const model = createMachineModel(machine, {
  events,
  // A new tag named Ventas is refused by the server (Ventas exists): it is never saved.
  filterEvents: (snapshot, event) =>
    !(event.type === 'xstate.done.actor.work' && snapshot.context.subject?.tag === null && snapshot.context.payload?.nombre.trim() === 'Ventas'),
});
const paths = coveringPaths(model);

let user: UserEvent;
let fake: FakeTags;
let toastsSeen: string[];
let freshToast: string | null;
/** The snapshot the last check saw: the state an event starts from. */
let before: Snapshot;
/** How many writes the server had received at the last check (a step that sends nothing adds none). */
let writesSeen: number;

beforeEach(() => {
  user = userEvent.setup();
});

const writes = () => fake.posts.length + fake.patches.length;
const listDialog = () => screen.getByRole('dialog', { name: 'Administrar etiquetas' });
const formName = (subject: TagFormSubject | null) => (subject?.tag ? 'Editar etiqueta' : 'Nueva etiqueta');
const formDialog = () => screen.getByRole('dialog', { name: formName(before.context.subject) });
const queryFormDialog = () => screen.queryByRole('dialog', { name: /^(Nueva|Editar) etiqueta$/ });
const field = () => within(formDialog()).getByRole('textbox', { name: 'Nombre' });
const saveButton = () => within(formDialog()).getByRole('button', { name: 'Guardar' });
const cancelButton = () => within(formDialog()).getByRole('button', { name: 'Cancelar' });
const closeButton = () => within(formDialog()).queryByRole('button', { name: 'Cerrar' });
const listedNames = () => within(listDialog()).getAllByRole('row').map((row) => within(row).getAllByRole('cell')[0]!.textContent);
/** The tags of the page's tag strip (the list's tag filter), by their labels. */
const stripNames = () =>
  within(screen.getByRole('group', { name: 'Etiquetas' }))
    .getAllByRole('checkbox')
    .map((box) => (box as HTMLInputElement).labels?.[0]?.textContent);
const cardTags = (titulo: string) =>
  within(within(screen.getByRole('article', { name: titulo })).getByRole('list', { name: 'Etiquetas del video' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

async function openTagList() {
  fake = serveTags();
  toastsSeen = [];
  freshToast = null;
  await renderApp('/videos', { token: sessionToken({ role: 'admin' }) });
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

const heldWrite = () => (before.context.subject?.tag ? 'PATCH' : 'POST');

const executors = {
  'dialog.open': async ({ event }) => {
    const { tag } = event.subject;
    await user.click(within(listDialog()).getByRole('button', { name: tag ? `Editar ${tag.nombre}` : 'Nueva etiqueta' }));
  },
  'dialog.submit': async ({ event }) => {
    await user.clear(field());
    if (event.payload.nombre) await user.type(field(), event.payload.nombre);
    await user.click(saveButton());
  },
  // Cancelar from the form, the close button after a failure.
  'dialog.close': async () => {
    await user.click(before.matches('failed') ? closeButton()! : cancelButton());
  },
  'xstate.done.actor.work': async () => {
    const toast = before.context.subject?.tag ? MODIFIED : CREATED;
    toastsSeen.push(toast);
    freshToast = toast;
    await fake.answer(heldWrite(), 'ok');
    await screen.findByText(toast);
  },
  'xstate.error.actor.work': async ({ event }) => {
    const duplicate = (event.error as { status: number }).status === 409;
    if (!duplicate) {
      toastsSeen.push(SAVE_FAILED);
      freshToast = SAVE_FAILED;
    }
    await fake.answer(heldWrite(), duplicate ? 'duplicate' : 'fail');
    await waitFor(() => expect(saveButton()).not.toHaveAttribute('data-loading'));
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#dialog.closed': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(queryFormDialog()).not.toBeInTheDocument());
    expect(fake.held('POST') + fake.held('PATCH')).toBe(0);
    // Closing sends nothing (a rename to the same name neither).
    expect(writes()).toBe(writesSeen);
    // The list under it, the tag strip of the page and the cards show the server's tags at once.
    const names = fake.tags().map((tag) => tag.nombre);
    await waitFor(() => expect(listedNames()).toEqual(names));
    await waitFor(() => expect(stripNames()).toEqual(names));
    await waitFor(() => {
      expect(cardTags(MEETING.titulo)).toEqual(fake.tagsOf(MEETING.id));
      expect(cardTags(PRODUCT.titulo)).toEqual(fake.tagsOf(PRODUCT.id));
    });
    writesSeen = writes();
    expectToasts();
  },
  '#dialog.open.editing': async (snapshot) => {
    before = snapshot;
    expect(await screen.findByRole('dialog', { name: formName(snapshot.context.subject) })).toBeVisible();
    expect(field()).toHaveValue(snapshot.context.subject?.tag?.nombre ?? '');
    expect(field()).toBeEnabled();
    expect(field()).not.toHaveAttribute('aria-invalid', 'true');
    expect(saveButton()).toBeEnabled();
    expect(cancelButton()).toBeEnabled();
    expect(closeButton()).toBeEnabled();
    expect(writes()).toBe(writesSeen);
    expectToasts();
  },
  '#dialog.open.invalid': async (snapshot) => {
    before = snapshot;
    // The rule's message under Nombre; nothing was sent.
    const message = snapshot.context.payload?.nombre.trim() === '' ? REQUIRED : TOO_SHORT;
    await waitFor(() => expect(field()).toHaveAccessibleDescription(message));
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(saveButton()).toBeEnabled();
    expect(writes()).toBe(writesSeen);
    expectToasts();
  },
  '#dialog.working': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(fake.held(heldWrite())).toBe(1));
    expect(writes()).toBe(writesSeen + 1);
    writesSeen = writes();
    // The name goes without the spaces around it, to the right tag.
    const nombre = snapshot.context.payload!.nombre.trim();
    const tag = snapshot.context.subject!.tag;
    if (tag) expect(fake.patches.at(-1)).toEqual({ id: tag.id, nombre });
    else expect(fake.posts.at(-1)).toEqual({ nombre });
    // The loader on Guardar; nothing can be changed or pressed, and Escape does not close the dialog.
    expect(saveButton()).toHaveAttribute('data-loading', 'true');
    expect(saveButton()).toBeDisabled();
    expect(cancelButton()).toBeDisabled();
    expect(field()).toBeDisabled();
    expect(closeButton()).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(formDialog()).toBeVisible();
    expectToasts();
  },
  '#dialog.failed': async (snapshot) => {
    before = snapshot;
    // Still open with what was typed: change it and save again, or close.
    expect(formDialog()).toBeVisible();
    expect(field()).toHaveValue(snapshot.context.payload!.nombre);
    expect(field()).toBeEnabled();
    const duplicate = (snapshot.context.error as { status: number }).status === 409;
    if (duplicate) expect(field()).toHaveAccessibleDescription(DUPLICATE);
    else expect(field()).not.toHaveAttribute('aria-invalid', 'true');
    expect(saveButton()).toBeEnabled();
    expect(closeButton()).toBeEnabled();
    expect(listedNames()).toEqual(fake.tags().map((tag) => tag.nombre));
    expectToasts();
  },
} satisfies StateChecks<Snapshot>;

describe('tag form dialog model (library page, administrator)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      before = model.initial;
      await openTagList();
      writesSeen = 0;
      await runPath(path, states, executors);
    });
  }
});

describe('tag form dialog model coverage', () => {
  itCoversTheMachine(machine, paths, { events, states, executors });
});

describe('tag form dialog', () => {
  it('drops the taken-name message once the name is changed, and saves the new one', async () => {
    await openTagList();
    await user.click(within(listDialog()).getByRole('button', { name: 'Nueva etiqueta' }));
    before = { context: { subject: { tag: null } } } as Snapshot;
    await user.type(field(), 'ventas');
    await user.click(saveButton());
    await fake.answer('POST', 'duplicate');
    await waitFor(() => expect(field()).toHaveAccessibleDescription(DUPLICATE));
    // No toast for it: the message is where the name is.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.type(field(), ' 2026');
    expect(field()).not.toHaveAccessibleDescription(DUPLICATE);
    await user.click(saveButton());
    await fake.answer('POST', 'ok');
    expect(await screen.findByText(CREATED)).toBeVisible();
    await waitFor(() => expect(listedNames()).toEqual(['Equipos', 'Formación', 'Ventas', 'ventas 2026']));
  });

  it("a name over openapi.yaml's 50 characters gets the limit message and is not sent", async () => {
    await openTagList();
    await user.click(within(listDialog()).getByRole('button', { name: 'Nueva etiqueta' }));
    before = { context: { subject: { tag: null } } } as Snapshot;
    await user.type(field(), 'x'.repeat(51));
    await user.click(saveButton());
    await waitFor(() => expect(field()).toHaveAccessibleDescription('* Este campo no puede contener más de 50 carácteres'));
    expect(fake.posts).toEqual([]);
    await user.type(field(), '{Backspace}');
    expect(field()).not.toHaveAccessibleDescription('* Este campo no puede contener más de 50 carácteres');
  });

  it('a new tag is offered at once by the filter popover', async () => {
    await openTagList();
    await user.click(within(listDialog()).getByRole('button', { name: 'Nueva etiqueta' }));
    before = { context: { subject: { tag: null } } } as Snapshot;
    await user.type(field(), 'Marketing');
    await user.click(saveButton());
    await fake.answer('POST', 'ok');
    expect(await screen.findByText(CREATED)).toBeVisible();
    await user.click(within(listDialog()).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Administrar etiquetas' })).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Etiqueta' }));
    const popover = within(await screen.findByRole('dialog', { name: 'Filtrar por etiquetas' }));
    expect(popover.getByRole('checkbox', { name: 'Marketing' })).toBeInTheDocument();
  });

  it('renaming a tag shows the new name on the cards that have it', async () => {
    await openTagList();
    await user.click(within(listDialog()).getByRole('button', { name: 'Editar Ventas' }));
    before = { context: { subject: { tag: VENTAS } } } as Snapshot;
    expect(field()).toHaveValue('Ventas');
    await user.clear(field());
    await user.type(field(), 'Comercial');
    await user.click(saveButton());
    await fake.answer('PATCH', 'ok');
    expect(await screen.findByText(MODIFIED)).toBeVisible();
    await waitFor(() => {
      expect(cardTags(MEETING.titulo)).toEqual(['Formación', 'Comercial']);
      expect(cardTags(PRODUCT.titulo)).toEqual(['Comercial', 'Equipos']);
    });
    expect(listedNames()).toEqual(['Comercial', 'Equipos', 'Formación']);
  });
});
