/**
 * 'Administrar etiquetas' from the header's menu of an administrator, in the real app with only the
 * network replaced (tags.test-support.ts): the list dialog's own model walk (opened, closed), its
 * read at each opening and its failure, and the non-administrator's menu.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { DialogEvent } from '../../../machines/dialog/dialog.types.ts';
import { coverageReport, coveringPaths, createMachineModel, runPath, type Executors, type StateChecks } from '../../../tests/utils/machine-model.ts';
import { sessionToken } from '../../../tests/utils/msw.ts';
import { renderApp } from '../../../tests/utils/render-app.tsx';
import { tagListDialog } from './tags.actors.ts';
import { MEETING, serveTags, type FakeTags } from './tags.test-support.ts';

type Snapshot = SnapshotFrom<typeof tagListDialog>;
// The list has no confirm button: nothing submits it.
type ModelEvent = Exclude<DialogEvent<'tags', undefined>, { type: 'dialog.submit' }>;

const LOAD_FAILED = 'Error al recuperar la lista de etiquetas';

const events: ModelEvent[] = [{ type: 'dialog.open', subject: 'tags' }, { type: 'dialog.close' }];
const model = createMachineModel(tagListDialog, { events, filterEvents: (_, event) => (event as { type: string }).type !== 'dialog.submit' });
const paths = coveringPaths(model);

let user: UserEvent;
let fake: FakeTags;

beforeEach(() => {
  user = userEvent.setup();
});

async function openLibrary(role: 'admin' | 'user' = 'admin') {
  fake = serveTags();
  await renderApp('/videos', { token: sessionToken({ role }) });
  await screen.findByRole('heading', { level: 2, name: MEETING.titulo });
}

async function openMenu() {
  await user.click(screen.getByRole('button', { name: /Menú de usuario/ }));
}

const listDialog = () => screen.getByRole('dialog', { name: 'Administrar etiquetas' });
const queryListDialog = () => screen.queryByRole('dialog', { name: 'Administrar etiquetas' });
/** The names the list shows, in order. */
const listedNames = () => within(listDialog()).getAllByRole('row').map((row) => within(row).getAllByRole('cell')[0]!.textContent);

const executors = {
  'dialog.open': async () => {
    await openMenu();
    await user.click(screen.getByRole('menuitem', { name: 'Administrar etiquetas' }));
  },
  'dialog.close': async () => {
    await user.click(within(listDialog()).getByRole('button', { name: 'Cerrar' }));
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#dialog.closed': async () => {
    await waitFor(() => expect(queryListDialog()).not.toBeInTheDocument());
  },
  '#dialog.open.editing': async () => {
    expect(await screen.findByRole('dialog', { name: 'Administrar etiquetas' })).toBeVisible();
    // Every tag, by name, each with its Editar and Eliminar; and Nueva etiqueta.
    await waitFor(() => expect(listedNames()).toEqual(['Equipos', 'Formación', 'Ventas']));
    for (const nombre of ['Equipos', 'Formación', 'Ventas']) {
      expect(within(listDialog()).getByRole('button', { name: `Editar ${nombre}` })).toBeEnabled();
      expect(within(listDialog()).getByRole('button', { name: `Eliminar ${nombre}` })).toBeEnabled();
    }
    expect(within(listDialog()).getByRole('button', { name: 'Nueva etiqueta' })).toBeEnabled();
  },
} satisfies StateChecks<Snapshot>;

describe('tag list dialog model (library page, administrator)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await openLibrary();
      await runPath(path, states, executors);
    });
  }
});

describe('tag list dialog model coverage', () => {
  it('walks opening and closing; the list has no confirm button, so no work runs', () => {
    const report = coverageReport(tagListDialog, paths, { events, states, executors });
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

describe('tag list dialog', () => {
  it('a read that fails once is retried, and the list shows', async () => {
    await openLibrary();
    fake.failNextLists(1);
    await executors['dialog.open']();
    await waitFor(() => expect(listedNames()).toEqual(['Equipos', 'Formación', 'Ventas']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('reads the tags again at each opening', async () => {
    await openLibrary();
    const before = fake.lists();
    await executors['dialog.open']();
    await waitFor(() => expect(listedNames()).toEqual(['Equipos', 'Formación', 'Ventas']));
    expect(fake.lists()).toBe(before + 1);
    await executors['dialog.close']();
    await waitFor(() => expect(queryListDialog()).not.toBeInTheDocument());
    await executors['dialog.open']();
    await waitFor(() => expect(fake.lists()).toBe(before + 2));
  });

  it("shows 'Error al recuperar la lista de etiquetas' when the list cannot be read after its retries, and Reintentar reads it", async () => {
    await openLibrary();
    const before = fake.lists();
    // The read and its 3 retries (R-SES-4) fail.
    fake.failNextLists(4);
    await executors['dialog.open']();
    expect(await screen.findByRole('alert')).toHaveTextContent(LOAD_FAILED);
    expect(fake.lists()).toBe(before + 4);
    // The dialog says it too, offers no tag to act on, and the page's 'Error obteniendo datos' stays away.
    expect(within(listDialog()).getByText(LOAD_FAILED)).toBeVisible();
    expect(within(listDialog()).queryByRole('row')).not.toBeInTheDocument();
    expect(within(listDialog()).getByRole('button', { name: 'Nueva etiqueta' })).toBeDisabled();
    expect(screen.queryByRole('dialog', { name: 'Error obteniendo datos' })).not.toBeInTheDocument();
    await user.click(within(listDialog()).getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(listedNames()).toEqual(['Equipos', 'Formación', 'Ventas']));
    expect(within(listDialog()).queryByText(LOAD_FAILED)).not.toBeInTheDocument();
  });

  it('is not in the menu of a user who is not an administrator', async () => {
    await openLibrary('user');
    await openMenu();
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Cerrar sesión']);
    expect(screen.queryByRole('menuitem', { name: 'Administrar etiquetas' })).not.toBeInTheDocument();
  });
});
