import { useCallback, useState } from 'react';
import { act, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { TagFilterPopover } from '../../src/features/videos/tag-filter-popover.tsx';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import { itCoversTheMachine, runPath, type Executors, type StateChecks } from '../../tests/utils/machine-model.ts';
import { tagFilterMachine, tagsStartingWith } from './tag-filter.machine.ts';
import { LISTED, NAME, TAGS, tagFilterModel, type TagFilterSnapshot } from './tag-filter.model.test-support.ts';
import type { TagFilterEvent } from './tag-filter.types.ts';

/** The chip for each filter the model can reach, written out (R-LIB-7: up to 3 names, then 'y N más'). */
function expectedChip(applied: number[]): string {
  if (applied.length === 0) return 'Etiqueta';
  const names = applied.map((id) => NAME.get(id)!);
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} y ${names.length - 3} más` : names.join(', ');
}

type Snapshot = TagFilterSnapshot;
// The model is shared with `npm run qa`: tag-filter.model.test-support.ts.
const { events, paths } = tagFilterModel;

let user: UserEvent;
/**
 * The snapshot the UI was last checked in: the state an event starts from. (An executor is handed
 * the snapshot its event leads to; the state checks run before each next event.)
 */
let before: Snapshot;
let address: number[];
let setAddress: (ids: number[]) => void;

/** The host as the list will be: the filter lives in the address, the popover writes it there. */
function Host() {
  const [ids, setIds] = useState<number[]>([]);
  address = ids;
  setAddress = setIds;
  const onApply = useCallback((applied: number[]) => setIds(applied), []);
  const onClear = useCallback(() => setIds([]), []);
  return (
    <div>
      <p>Lista de videos</p>
      <TagFilterPopover tags={TAGS} appliedIds={ids} onApply={onApply} onClear={onClear} />
    </div>
  );
}

beforeEach(() => {
  user = userEvent.setup({ delay: null });
  renderWithTheme(<Host />);
});

const dialog = () => screen.getByRole('dialog', { name: 'Filtrar por etiquetas' });
const chip = (snapshot: Snapshot) => screen.getByRole('button', { name: expectedChip(snapshot.context.applied) });
const applyButton = () => within(dialog()).getByRole('button', { name: 'Aplicar' });

const executors = {
  'tagFilter.open': async () => user.click(chip(before)),
  'tagFilter.type': async ({ event }) => {
    const input = within(dialog()).getByPlaceholderText('Introduzca un tag');
    await user.clear(input);
    if (event.text) await user.type(input, event.text);
  },
  'tagFilter.select': async ({ event }) => user.click(within(dialog()).getByRole('checkbox', { name: NAME.get(event.id)! })),
  'tagFilter.unselect': async ({ event }) => user.click(within(dialog()).getByRole('button', { name: `Quitar ${NAME.get(event.id)!}` })),
  'tagFilter.apply': async () => user.click(applyButton()),
  'tagFilter.cancel': async () => user.click(within(dialog()).getByRole('button', { name: 'Cancelar' })),
  'tagFilter.dismiss': async () => user.click(screen.getByText('Lista de videos')),
  'tagFilter.clear': async () => user.click(screen.getByRole('button', { name: 'Quitar filtro de etiquetas' })),
  // The address changed elsewhere (a tag link on a card, 'Todos', restored filters).
  'tagFilter.sync': async ({ event }) => {
    act(() => setAddress(event.applied));
  },
} satisfies Executors<Snapshot, TagFilterEvent>;

function expectFilterInEffect(snapshot: Snapshot) {
  expect(address).toEqual(snapshot.context.applied);
  expect(chip(snapshot)).toBeInTheDocument();
  const clear = screen.queryByRole('button', { name: 'Quitar filtro de etiquetas' });
  if (snapshot.context.applied.length > 0) expect(clear).toBeInTheDocument();
  else expect(clear).not.toBeInTheDocument();
}

/** The popover is open: what every open state shows. */
function expectOpen(snapshot: Snapshot) {
  before = snapshot;
  expectFilterInEffect(snapshot);
  expect(chip(snapshot)).toHaveAttribute('aria-expanded', 'true');
  const { text, selected } = snapshot.context;
  const popover = within(dialog());
  expect(popover.getByPlaceholderText('Introduzca un tag')).toHaveValue(text);
  const listed = LISTED[text]!;
  const boxes = popover.queryAllByRole('checkbox');
  expect(boxes.map((box) => box.closest('.mantine-Checkbox-root')?.textContent)).toEqual(listed);
  for (const box of boxes) {
    const id = TAGS.find((tag) => tag.nombre === box.closest('.mantine-Checkbox-root')?.textContent)!.id;
    if (selected.includes(id)) expect(box).toBeChecked();
    else expect(box).not.toBeChecked();
  }
  if (listed.length === 0) expect(popover.getByText('Ninguna etiqueta empieza por ese texto')).toBeVisible();
  expect(popover.getByRole('button', { name: 'Cancelar' })).toBeEnabled();
}

const states = {
  '#tagFilter.closed': (snapshot) => {
    before = snapshot;
    expectFilterInEffect(snapshot);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(chip(snapshot)).toHaveAttribute('aria-expanded', 'false');
  },
  '#tagFilter.open.noneSelected': (snapshot) => {
    expectOpen(snapshot);
    const popover = within(dialog());
    expect(popover.getByText('No hay etiquetas seleccionadas')).toBeVisible();
    expect(popover.queryByText('Etiquetas seleccionadas')).not.toBeInTheDocument();
    expect(popover.queryAllByRole('button', { name: /^Quitar / })).toEqual([]);
    expect(applyButton()).toBeDisabled();
  },
  '#tagFilter.open.someSelected': (snapshot) => {
    expectOpen(snapshot);
    const popover = within(dialog());
    expect(popover.getByText('Etiquetas seleccionadas')).toBeVisible();
    expect(popover.queryByText('No hay etiquetas seleccionadas')).not.toBeInTheDocument();
    const removers = popover.getAllByRole('button', { name: /^Quitar / });
    expect(removers.map((button) => button.getAttribute('aria-label'))).toEqual(
      snapshot.context.selected.map((id) => `Quitar ${NAME.get(id)!}`),
    );
    expect(applyButton()).toBeEnabled();
  },
} satisfies StateChecks<Snapshot>;

describe('tag filter model', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await runPath(path, states, executors);
    }, 120_000);
  }
});

describe('tag filter model coverage', () => {
  itCoversTheMachine(tagFilterMachine, paths, { events, states, executors });

  it('shows the chip with more than 3 tags, a text with no match and a selection of several tags', () => {
    const features = new Set(paths.flatMap((path) => path.features));
    for (const feature of ["chip with 'y N más'", "list for 'xyz'", "list for 'AR'", 'several selected']) {
      expect(features).toContain(feature);
    }
  });

  it('stays a handful of UI walks', () => {
    expect(paths.length).toBeLessThanOrEqual(12);
  });
});

describe('tagsStartingWith (R-LIB-6: names starting with the text, ignoring case; accents too)', () => {
  it('ignores case and accents on both sides, and spaces around the text', () => {
    expect(tagsStartingWith(TAGS, 'ar').map((tag) => tag.nombre)).toEqual(['Árboles', 'Arte']);
    expect(tagsStartingWith(TAGS, 'ÁR').map((tag) => tag.nombre)).toEqual(['Árboles', 'Arte']);
    expect(tagsStartingWith(TAGS, ' musi ').map((tag) => tag.nombre)).toEqual(['Música']);
    expect(tagsStartingWith(TAGS, 'música').map((tag) => tag.nombre)).toEqual(['Música']);
  });

  it('matches the start of the name only', () => {
    expect(tagsStartingWith(TAGS, 'sica')).toEqual([]);
    expect(tagsStartingWith(TAGS, 'tes')).toEqual([]);
  });

  it('lists every tag for an empty text', () => {
    expect(tagsStartingWith(TAGS, '')).toEqual(TAGS);
  });
});

describe('tag filter popover, beyond the model', () => {
  it('Escape closes without applying, and the next opening starts from the filter in effect', async () => {
    act(() => setAddress([3]));
    await user.click(screen.getByRole('button', { name: 'Arte' }));
    await user.click(within(dialog()).getByRole('checkbox', { name: 'Música' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(address).toEqual([3]);
    await user.click(screen.getByRole('button', { name: 'Arte' }));
    expect(within(dialog()).getByRole('checkbox', { name: 'Arte' })).toBeChecked();
    expect(within(dialog()).getByRole('checkbox', { name: 'Música' })).not.toBeChecked();
  });

  it('applies the tags in the order they were ticked', async () => {
    await user.click(screen.getByRole('button', { name: 'Etiqueta' }));
    for (const name of ['Música', 'Animales', 'Ciencia', 'Arte']) {
      await user.click(within(dialog()).getByRole('checkbox', { name }));
    }
    await user.click(applyButton());
    expect(address).toEqual([4, 1, 6, 3]);
    expect(screen.getByRole('button', { name: 'Música, Animales, Ciencia y 1 más' })).toBeInTheDocument();
  });

  it('emits the applied ids and the clearing for any host that listens', () => {
    const actor = createActor(tagFilterMachine, { input: { applied: [5] } }).start();
    const heard: unknown[] = [];
    actor.on('*', (event) => heard.push(event));
    actor.send({ type: 'tagFilter.open' });
    actor.send({ type: 'tagFilter.select', id: 2 });
    actor.send({ type: 'tagFilter.apply' });
    actor.send({ type: 'tagFilter.clear' });
    expect(heard).toEqual([{ type: 'tagFilter.applied', ids: [5, 2] }, { type: 'tagFilter.cleared' }]);
    actor.stop();
  });
});
