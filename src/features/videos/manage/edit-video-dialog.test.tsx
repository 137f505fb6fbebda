/**
 * The edit dialog from the library page (/videos) of an administrator, in the real app with only
 * the network replaced (manage.test-support.ts): a model-based walk of the dialog machine with the
 * app's rules (every state and transition: open, the R-ADM-2 messages, an edit that changes nothing,
 * saving the changed fields, a new thumbnail, failures, cancel), then a few cases told on their own.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { components } from '../../../../contract/openapi.gen.ts';
import type { DialogEvent } from '../../../../machines/dialog/dialog.types.ts';
import type { VideoFormValues } from '../../../../machines/video-form/video-form.rules.ts';
import { sessionToken } from '../../../../tests/utils/msw.ts';
import { renderApp } from '../../../../tests/utils/render-app.tsx';
import {
  coveringPaths,
  createMachineModel,
  itCoversTheMachine,
  runPath,
  type DoneEvent,
  type ErrorEvent,
  type Executors,
  type StateChecks,
} from '../../../../tests/utils/machine-model.ts';
import { videoKeys, type Video } from '../videos.queries.ts';
import { editVideoDialog, editVideoGuards, type EditVideoPayload } from './manage.actors.ts';
import {
  OTHER_VIDEO,
  serveLibrary,
  TAGS,
  THUMBNAIL_LOCATION,
  VIDEO,
  type FakeLibrary,
} from './manage.test-support.ts';

type PatchOperation = components['schemas']['VideoPatchOperation'];
type Snapshot = SnapshotFrom<typeof editVideoDialog>;
type ModelEvent = DialogEvent<Video, EditVideoPayload> | DoneEvent<'work', Video> | ErrorEvent<'work'>;

const MODIFIED = 'El video se ha modificado correctamente';
const SAVE_FAILED = 'No se ha podido guardar el video';
const REQUIRED = '* Este campo es obligatorio';
const OPTIONAL_TOO_SHORT = '* Si este campo es informado, no puede contener menos de 3 carácteres';

/** The form as the dialog opens on VIDEO (written out, not computed by the app's code). */
const AS_OPENED: VideoFormValues = {
  titulo: 'Reunión anual de equipos',
  descripcionCorta: 'Resumen de la reunión',
  descripcion: 'Acta completa de la reunión',
  tags: [3, 9],
  isVisible: true,
};
const PICTURE = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], 'portada.png', { type: 'image/png' });

/** What the user submits, and the PATCH body each must give (only the changed fields). */
const CHANGED: EditVideoPayload = {
  values: { ...AS_OPENED, titulo: '  Reunión anual renovada ', descripcion: '   ', tags: [3, 5], isVisible: false },
  thumbnail: null,
};
const INVALID: EditVideoPayload = { values: { ...AS_OPENED, titulo: '   ', descripcion: 'ab' }, thumbnail: null };
const UNCHANGED: EditVideoPayload = { values: AS_OPENED, thumbnail: null };
const NEW_THUMBNAIL: EditVideoPayload = { values: AS_OPENED, thumbnail: PICTURE };

const expectedPatch = new Map<EditVideoPayload, PatchOperation[]>([
  [
    CHANGED,
    [
      { op: 'replace', path: '/titulo', value: 'Reunión anual renovada' },
      { op: 'replace', path: '/descripcion', value: '' },
      { op: 'replace', path: '/etiquetas', value: [3, 5] },
      { op: 'replace', path: '/isVisible', value: false },
    ],
  ],
  [NEW_THUMBNAIL, [{ op: 'replace', path: '/thumbnail', value: true }]],
]);

const events: ModelEvent[] = [
  { type: 'dialog.open', subject: VIDEO },
  { type: 'dialog.submit', payload: CHANGED },
  { type: 'dialog.submit', payload: INVALID },
  { type: 'dialog.submit', payload: UNCHANGED },
  { type: 'dialog.submit', payload: NEW_THUMBNAIL },
  { type: 'dialog.close' },
  // The answers come from the fake server: the PATCH is answered with the saved video, or 500.
  { type: 'xstate.done.actor.work', output: VIDEO },
  { type: 'xstate.error.actor.work', error: { status: 500, type: 'internal-server-error' } },
];

// The app's rules decide where a submit goes (they are part of the model).
const model = createMachineModel(editVideoDialog.provide({ guards: editVideoGuards }), {
  events,
  // Once a picture was chosen the user keeps it (removing it is not part of this walk).
  filterEvents: (snapshot, event) =>
    event.type !== 'dialog.submit' || !snapshot.context.payload?.thumbnail || event.payload.thumbnail !== null,
});
const paths = coveringPaths(model);

let user: UserEvent;
let library: FakeLibrary;
let toastsSeen: string[];
let freshToast: string | null;
/** The snapshot the last check saw: the state an event starts from. */
let before: Snapshot;
/** Where the server's log stood when the last Guardar was pressed. */
let logMark: number;

async function openLibrary() {
  library = serveLibrary();
  toastsSeen = [];
  freshToast = null;
  logMark = 0;
  const app = await renderApp('/videos', { token: sessionToken({ role: 'admin' }) });
  await screen.findByRole('heading', { level: 2, name: VIDEO.titulo });
  return app;
}

beforeEach(() => {
  user = userEvent.setup();
});

const dialog = () => screen.getByRole('dialog', { name: 'Editar video' });
const queryDialog = () => screen.queryByRole('dialog', { name: 'Editar video' });
const textbox = (name: string) => within(dialog()).getByRole('textbox', { name });
const titleInput = () => textbox('Título') as HTMLInputElement;
const shortInput = () => textbox('Descripción corta') as HTMLInputElement;
const longInput = () => textbox('Descripción') as HTMLTextAreaElement;
const tagsInput = () => within(dialog()).getByRole('combobox', { name: 'Etiquetas' });
const visibleSwitch = () => within(dialog()).getByRole<HTMLInputElement>('switch', { name: 'Visible para todos' });
const thumbnailButton = () => within(dialog()).getByRole('button', { name: 'Miniatura' });
const fileInput = () => dialog().querySelector<HTMLInputElement>('input[type="file"]')!;
const saveButton = () => within(dialog()).getByRole('button', { name: 'Guardar' });
const cancelButton = () => within(dialog()).getByRole('button', { name: 'Cancelar' });
const closeButton = () => within(dialog()).queryByRole('button', { name: 'Cerrar' });
/** The tags picked, by name, as the pills show them. */
const pickedTags = () => [...tagsInput().closest('[data-multiline]')!.querySelectorAll('[data-with-remove] > span')].map((pill) => pill.textContent);
const tagNames = (ids: readonly number[]) => ids.map((id) => TAGS.find((tag) => tag.id === id)!.nombre);
const storedVideo = () => library.videos().find((video) => video.id === VIDEO.id)!;

function expectToasts() {
  const shown = screen.queryAllByRole('alert').map((alert) => alert.textContent);
  for (const text of shown) expect(toastsSeen).toContain(text);
  if (freshToast) expect(shown).toContain(freshToast);
  freshToast = null;
}

/** The form shows `values` (and the picture, when one was chosen). */
function expectForm(values: VideoFormValues, thumbnail: File | null) {
  expect(titleInput()).toHaveValue(values.titulo);
  expect(shortInput()).toHaveValue(values.descripcionCorta);
  expect(longInput()).toHaveValue(values.descripcion);
  expect(pickedTags()).toEqual(tagNames(values.tags));
  expect(visibleSwitch()).toHaveProperty('checked', values.isVisible);
  expect(thumbnailButton()).toHaveTextContent(thumbnail ? thumbnail.name : 'Elegir una imagen');
}

async function retype(input: HTMLInputElement | HTMLTextAreaElement, text: string) {
  if (input.value === text) return;
  await user.clear(input);
  if (text) await user.type(input, text);
}

/** What a user does to make the form hold `payload`. */
async function fillForm({ values, thumbnail }: EditVideoPayload) {
  await retype(titleInput(), values.titulo);
  await retype(shortInput(), values.descripcionCorta);
  await retype(longInput(), values.descripcion);
  if (pickedTags().join() !== tagNames(values.tags).join()) {
    // Backspace in the tag box takes the last tag off; then the wanted ones are picked from the list.
    tagsInput().focus();
    for (const _ of pickedTags()) await user.keyboard('{Backspace}');
    for (const name of tagNames(values.tags)) {
      await user.click(tagsInput());
      await user.click(await screen.findByRole('option', { name }));
    }
  }
  if (visibleSwitch().checked !== values.isVisible) await user.click(visibleSwitch());
  if (thumbnail && !thumbnailButton().textContent?.includes(thumbnail.name)) await user.upload(fileInput(), thumbnail);
}

const executors = {
  'dialog.open': async () => {
    await user.click(screen.getByRole('button', { name: `Editar ${storedVideo().titulo}` }));
  },
  'dialog.submit': async ({ event }) => {
    await fillForm(event.payload);
    logMark = library.log.length;
    await user.click(saveButton());
  },
  // Cancelar, or the close button once the form was rejected or failed.
  'dialog.close': async () => {
    await user.click(before.matches({ open: 'editing' }) ? cancelButton() : closeButton()!);
  },
  'xstate.done.actor.work': async () => {
    toastsSeen.push(MODIFIED);
    freshToast = MODIFIED;
    await library.answer('PATCH', 'ok');
    await screen.findByText(MODIFIED);
  },
  'xstate.error.actor.work': async () => {
    toastsSeen.push(SAVE_FAILED);
    freshToast = SAVE_FAILED;
    await library.answer('PATCH', 'fail');
    await screen.findByText(SAVE_FAILED);
  },
} satisfies Executors<Snapshot, ModelEvent>;

const states = {
  '#dialog.closed': async (snapshot) => {
    before = snapshot;
    await waitFor(() => expect(queryDialog()).not.toBeInTheDocument());
    const stored = storedVideo();
    // The card shows the video as saved (its title, its picture); the other card is untouched.
    const card = await screen.findByRole('article', { name: stored.titulo });
    const picture = within(card).getByRole('img', { name: `Miniatura de ${stored.titulo}` });
    expect(picture).toHaveAttribute('src', stored.urlThumbnail);
    expect(screen.getByRole('article', { name: OTHER_VIDEO.titulo })).toBeInTheDocument();
    expect(library.held('PATCH')).toBe(0);
    expectToasts();
  },
  '#dialog.open.editing': async (snapshot) => {
    before = snapshot;
    expect(await screen.findByRole('dialog', { name: 'Editar video' })).toBeVisible();
    // A copy of the video as the server has it.
    expectForm(AS_OPENED, null);
    expect(within(dialog()).queryByText(REQUIRED)).not.toBeInTheDocument();
    expect(saveButton()).toBeEnabled();
    expect(cancelButton()).toBeEnabled();
    expect(closeButton()).toBeEnabled();
    expect(library.patches).toHaveLength(0);
    expectToasts();
  },
  '#dialog.open.invalid': async (snapshot) => {
    before = snapshot;
    expect(dialog()).toBeVisible();
    expectForm(INVALID.values, null);
    // The R-ADM-2 message under each failing field; nothing was sent.
    expect(titleInput()).toHaveAccessibleDescription(REQUIRED);
    expect(longInput()).toHaveAccessibleDescription(OPTIONAL_TOO_SHORT);
    expect(shortInput()).not.toHaveAccessibleDescription();
    expect(library.log.slice(logMark)).toEqual([]);
    expect(saveButton()).toBeEnabled();
    expectToasts();
  },
  '#dialog.working': async (snapshot) => {
    before = snapshot;
    const payload = snapshot.context.payload!;
    await waitFor(() => expect(library.held('PATCH')).toBe(1));
    // Only the changed fields; a new picture first gets a location, is PUT there, then adopted.
    expect(library.patches.at(-1)).toEqual(expectedPatch.get(payload));
    if (payload.thumbnail) {
      expect(library.log.slice(logMark)).toEqual(['GET /api/uploads/asset-7', `PUT ${THUMBNAIL_LOCATION}`, 'PATCH 7']);
      expect(library.puts.at(-1)?.contentType).toBe('image/png');
      expect(library.puts.at(-1)?.bytes).toEqual(new Uint8Array(await PICTURE.arrayBuffer()));
    } else {
      expect(library.log.slice(logMark)).toEqual(['PATCH 7']);
    }
    // A loader on Guardar, everything disabled, the dialog cannot be closed.
    expect(saveButton()).toHaveAttribute('data-loading', 'true');
    expect(saveButton()).toBeDisabled();
    expect(cancelButton()).toBeDisabled();
    expect(titleInput()).toBeDisabled();
    expect(visibleSwitch()).toBeDisabled();
    expect(closeButton()).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(dialog()).toBeVisible();
    expectToasts();
  },
  '#dialog.failed': async (snapshot) => {
    before = snapshot;
    const payload = snapshot.context.payload!;
    // Still open with what the user typed; the video is unchanged.
    expect(dialog()).toBeVisible();
    expectForm(payload.values, payload.thumbnail);
    expect(saveButton()).toBeEnabled();
    expect(saveButton()).not.toHaveAttribute('data-loading');
    expect(storedVideo()).toEqual(VIDEO);
    expect(screen.getByRole('article', { name: VIDEO.titulo })).toBeInTheDocument();
    expectToasts();
  },
} satisfies StateChecks<Snapshot>;

describe('edit video dialog model (library page, administrator)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      before = model.initial;
      await openLibrary();
      await runPath(path, states, executors);
      // A path types a few fields letter by letter: on a loaded machine that takes longer than the default.
    }, 90_000);
  }
});

describe('edit video dialog model coverage', () => {
  itCoversTheMachine(editVideoDialog, paths, { events, states, executors });
});

describe('edit video dialog', () => {
  it('opens on a copy: what was typed and cancelled is gone when it opens again', async () => {
    await openLibrary();
    await user.click(screen.getByRole('button', { name: `Editar ${VIDEO.titulo}` }));
    await retype(titleInput(), 'Otro título');
    await user.click(cancelButton());
    await waitFor(() => expect(queryDialog()).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: VIDEO.titulo })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: `Editar ${VIDEO.titulo}` }));
    expectForm(AS_OPENED, null);
    expect(library.log).toEqual([]);
  });

  it('saves the changed fields: the toast, and the card shows the saved title and tags', async () => {
    await openLibrary();
    await user.click(screen.getByRole('button', { name: `Editar ${VIDEO.titulo}` }));
    await fillForm(CHANGED);
    await user.click(saveButton());
    await library.answer('PATCH', 'ok');
    expect(await screen.findByText(MODIFIED)).toBeVisible();
    expect(library.patches).toEqual([expectedPatch.get(CHANGED)]);
    await waitFor(() => expect(queryDialog()).not.toBeInTheDocument());
    const card = screen.getByRole('article', { name: 'Reunión anual renovada' });
    expect(within(within(card).getByRole('list', { name: 'Etiquetas del video' })).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Formación',
      'Ventas',
    ]);
    expect(screen.queryByRole('article', { name: VIDEO.titulo })).not.toBeInTheDocument();
  });

  it('replaces the cached detail with the saved video', async () => {
    const app = await openLibrary();
    app.queryClient.setQueryData(videoKeys.detail(VIDEO.id), VIDEO);
    await user.click(screen.getByRole('button', { name: `Editar ${VIDEO.titulo}` }));
    await retype(shortInput(), 'Resumen nuevo');
    await user.click(saveButton());
    await library.answer('PATCH', 'ok');
    expect(await screen.findByText(MODIFIED)).toBeVisible();
    expect(library.patches).toEqual([[{ op: 'replace', path: '/shortDescription', value: 'Resumen nuevo' }]]);
    expect(app.queryClient.getQueryData(videoKeys.detail(VIDEO.id))).toEqual({ ...VIDEO, descripcionCorta: 'Resumen nuevo' });
  });

  it('a picture the server refuses: the save fails, nothing is patched, the dialog keeps the values', async () => {
    await openLibrary();
    library.refuseNextPut(415);
    await user.click(screen.getByRole('button', { name: `Editar ${VIDEO.titulo}` }));
    await retype(titleInput(), 'Título con portada');
    await user.upload(fileInput(), PICTURE);
    await user.click(saveButton());
    expect(await screen.findByText(SAVE_FAILED)).toBeVisible();
    expect(library.log).toEqual(['GET /api/uploads/asset-7', `PUT ${THUMBNAIL_LOCATION}`]);
    expect(library.patches).toEqual([]);
    expectForm({ ...AS_OPENED, titulo: 'Título con portada' }, PICTURE);
    expect(saveButton()).toBeEnabled();
  });

  it('Escape closes it when nothing is being saved', async () => {
    await openLibrary();
    await user.click(screen.getByRole('button', { name: `Editar ${VIDEO.titulo}` }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(queryDialog()).not.toBeInTheDocument());
    expect(library.log).toEqual([]);
  });
});

describe("Subtítulos in 'Editar video' (R-ADM-7…9), through the API", () => {
  const subtitles = () => within(within(dialog()).getByRole('group', { name: 'Subtítulos' }));

  it('lists the tracks by name; a file is saved at once, a refusal names the line, and a removal is asked first', async () => {
    await openLibrary();
    library.tracks.set(VIDEO.id, [{ idioma: 'en', etiqueta: 'Inglés', url: '/api/media/asset-7/subtitulos-en.vtt?expires=1&signature=s' }]);
    await user.click(screen.getByRole('button', { name: `Editar ${VIDEO.titulo}` }));
    expect(await subtitles().findByText('Inglés')).toBeVisible();

    // A Spanish file (the select's first free language): PUT at once, as an SRT, and said.
    const inputs = () => [...dialog().querySelectorAll<HTMLInputElement>('input[type="file"][accept*=".vtt"]')];
    await user.upload(inputs().at(-1)!, new File(['1\n00:00:01,000 --> 00:00:02,000\nHola\n'], 'acta.srt'));
    expect(await subtitles().findByText('Subtítulos en Español guardados')).toBeVisible();
    expect(library.subtitlePuts).toEqual([{ id: VIDEO.id, idioma: 'es', contentType: 'application/x-subrip', text: '1\n00:00:01,000 --> 00:00:02,000\nHola\n' }]);
    expect(subtitles().getAllByRole('listitem').map((item) => item.textContent?.split('Sustituir')[0])).toEqual(['Inglés', 'Español']);

    // A refused replacement: the message names the line; the track stays.
    library.refuseNextSubtitles('line 2: malformed timing «00:01:xx,000 --> 00:01:02,000» (expected such as «00:00:01,000 --> 00:00:04,000»)');
    await user.upload(inputs()[0]!, new File(['WEBVTT\n\nmal\n'], 'charla.en.vtt'));
    expect(await subtitles().findByRole('alert')).toHaveTextContent('charla.en.vtt (Inglés): El archivo de subtítulos no es válido: línea 2: tiempo mal escrito');
    expect(subtitles().getByText('Inglés')).toBeVisible();

    // Quitar asks; Cancelar keeps it; Quitar removes it.
    await user.click(subtitles().getByRole('button', { name: 'Quitar los subtítulos en Inglés' }));
    await user.click(within(subtitles().getByRole('group', { name: '¿Quitar los subtítulos en Inglés?' })).getByRole('button', { name: 'Cancelar' }));
    expect(library.log.filter((line) => line.startsWith('DELETE subtitulos'))).toEqual([]);
    await user.click(subtitles().getByRole('button', { name: 'Quitar los subtítulos en Inglés' }));
    await user.click(within(subtitles().getByRole('group', { name: '¿Quitar los subtítulos en Inglés?' })).getByRole('button', { name: 'Quitar' }));
    expect(await subtitles().findByText('Subtítulos en Inglés quitados')).toBeVisible();
    expect(library.log.filter((line) => line.startsWith('DELETE subtitulos'))).toEqual([`DELETE subtitulos ${VIDEO.id} en`]);
    expect(subtitles().getAllByRole('listitem').map((item) => item.textContent?.split('Sustituir')[0])).toEqual(['Español']);
    // Nothing of the video itself was written.
    expect(library.patches).toEqual([]);
  }, 90_000);
});
