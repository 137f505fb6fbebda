/**
 * Model-based test of the edit dialog's Subtítulos section (R-ADM-7…9) as an administrator sees it:
 * the real machine, its three requests doubled (the network boundary). Every state and transition is
 * walked; after each step the section is checked as a user sees and hears it.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { SubtitleTracksSection } from '../../src/features/videos/manage/subtitle-tracks-section.tsx';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import {
  createActorDoubles,
  itCoversTheMachine,
  runPath,
  type ActorDoubles,
  type Executors,
  type StateChecks,
} from '../../tests/utils/machine-model.ts';
import { subtitleTracksMachine } from './subtitle-tracks.machine.ts';
import {
  subtitleTracksModel,
  VIDEO_ID,
  type SubtitleTracksModelEvent,
  type SubtitleTracksSnapshot,
} from './subtitle-tracks.model.test-support.ts';
import type { DeleteTrackInput, PutTrackInput, Subtitulo } from './subtitle-tracks.types.ts';

type Snapshot = SubtitleTracksSnapshot;
const { events, paths } = subtitleTracksModel;

let user: UserEvent;
let doubles: ActorDoubles;

beforeEach(() => {
  user = userEvent.setup({ applyAccept: false });
  doubles = createActorDoubles();
  const logic = subtitleTracksMachine.provide({
    actors: {
      listTracks: doubles.promise<Subtitulo[], { videoId: number }>('listTracks'),
      putTrack: doubles.promise<Subtitulo, PutTrackInput>('putTrack'),
      deleteTrack: doubles.promise<void, DeleteTrackInput>('deleteTrack'),
    },
  });
  renderWithTheme(<SubtitleTracksSection logic={logic} videoId={VIDEO_ID} />);
});

const LANGUAGE = { en: 'Inglés', es: 'Español' } as const;
const section = () => within(screen.getByRole('group', { name: 'Subtítulos' }));
const button = (name: string) => section().getByRole('button', { name });
/** The file inputs of 'Sustituir' (one per track, in the list's order) and of 'Añadir subtítulos' (last). */
const fileInputs = () => [...document.querySelectorAll<HTMLInputElement>('input[type="file"][accept*=".vtt"]')];

function expectNothingRunning(except: string[] = []) {
  for (const name of ['listTracks', 'putTrack', 'deleteTrack']) if (!except.includes(name)) expect(doubles.pendingCount(name), name).toBe(0);
}

/** The tracks listed by their Spanish names, each with its buttons, and what the last change did. */
function expectTracks(snapshot: Snapshot, { enabled }: { enabled: boolean }) {
  const { tracks, notice } = snapshot.context;
  if (tracks.length === 0) expect(section().getByText('Este video no tiene subtítulos')).toBeVisible();
  else expect(section().getAllByRole('listitem').map((item) => within(item).getByText(/^(Inglés|Español)$/).textContent)).toEqual(tracks.map((track) => track.etiqueta));
  for (const track of tracks) {
    if (snapshot.matches('confirmingRemoval') && snapshot.context.pending?.idioma === track.idioma) continue;
    const replace = button(`Sustituir los subtítulos en ${track.etiqueta}`);
    if (enabled) expect(replace).toBeEnabled();
    else expect(replace).toBeDisabled();
  }
  const status = section().getByRole('status');
  if (notice?.kind === 'saved') expect(status).toHaveTextContent(`Subtítulos en ${LANGUAGE[notice.idioma as 'en' | 'es']} guardados`);
  else if (notice?.kind === 'removed') expect(status).toHaveTextContent('Subtítulos en Inglés quitados');
  else if (!snapshot.hasTag('busy')) expect(status).toBeEmptyDOMElement();
  const alert = section().queryByRole('alert');
  if (notice?.kind === 'putFailed') {
    // The refusal names the line, and nothing changed: the tracks are as before.
    expect(alert).toHaveTextContent(`${notice.fileName} (${LANGUAGE[notice.idioma as 'en' | 'es']}): El archivo de subtítulos no es válido: línea 2: tiempo mal escrito`);
  } else if (notice?.kind === 'removeFailed') {
    expect(alert).toHaveTextContent('No se han podido quitar los subtítulos (Inglés)');
  } else {
    expect(alert).not.toBeInTheDocument();
  }
}

const executors = {
  'xstate.done.actor.listTracks': async ({ event }) => doubles.resolve('listTracks', event.output),
  'xstate.error.actor.listTracks': async ({ event }) => doubles.reject('listTracks', event.error),
  'tracks.retry': async () => user.click(button('Reintentar')),
  'tracks.put': async ({ event }) => {
    const inputs = fileInputs();
    // 'Añadir subtítulos' is the last input; a track's 'Sustituir' is its row's.
    if (event.idioma === 'es') await user.upload(inputs.at(-1)!, event.file);
    else await user.upload(inputs[0]!, event.file);
  },
  'xstate.done.actor.putTrack': async ({ event }) => doubles.resolve('putTrack', event.output),
  'xstate.error.actor.putTrack': async ({ event }) => doubles.reject('putTrack', event.error),
  'tracks.remove': async () => user.click(button('Quitar los subtítulos en Inglés')),
  'tracks.confirmRemoval': async () =>
    user.click(within(section().getByRole('group', { name: '¿Quitar los subtítulos en Inglés?' })).getByRole('button', { name: 'Quitar' })),
  'tracks.cancelRemoval': async () => user.click(button('Cancelar')),
  'xstate.done.actor.deleteTrack': async () => doubles.resolve('deleteTrack'),
  'xstate.error.actor.deleteTrack': async ({ event }) => doubles.reject('deleteTrack', event.error),
} satisfies Executors<Snapshot, SubtitleTracksModelEvent>;

const states = {
  '#subtitleTracks.loading': () => {
    expect(section().getByText('Cargando los subtítulos…')).toBeVisible();
    expect(doubles.inputs('listTracks').at(-1)).toEqual({ videoId: VIDEO_ID });
    expectNothingRunning(['listTracks']);
  },
  '#subtitleTracks.loadFailed': () => {
    expect(section().getByText('No se han podido cargar los subtítulos')).toBeVisible();
    expect(button('Reintentar')).toBeEnabled();
    expectNothingRunning();
  },
  '#subtitleTracks.ready': (snapshot) => {
    expectTracks(snapshot, { enabled: true });
    expect(button('Añadir subtítulos')).toBeEnabled();
    expectNothingRunning();
  },
  '#subtitleTracks.confirmingRemoval': (snapshot) => {
    const question = section().getByRole('group', { name: '¿Quitar los subtítulos en Inglés?' });
    expect(within(question).getByRole('button', { name: 'Quitar' })).toBeEnabled();
    expect(within(question).getByRole('button', { name: 'Cancelar' })).toBeEnabled();
    expectTracks(snapshot, { enabled: true });
    expectNothingRunning();
  },
  '#subtitleTracks.saving': (snapshot) => {
    expect(section().getByRole('status')).toHaveTextContent('Guardando los subtítulos…');
    expectTracks(snapshot, { enabled: false });
    // The file goes at once to the video, in its language.
    const sent = doubles.calls<PutTrackInput>('putTrack').at(-1)!.input;
    expect({ videoId: sent.videoId, idioma: sent.idioma }).toEqual({ videoId: VIDEO_ID, idioma: snapshot.context.pending!.idioma });
    expect(sent.file.name).toBe(snapshot.context.pending!.fileName);
    expectNothingRunning(['putTrack']);
  },
  '#subtitleTracks.removing': (snapshot) => {
    expect(section().getByRole('status')).toHaveTextContent('Quitando los subtítulos…');
    expect(doubles.calls<DeleteTrackInput>('deleteTrack').at(-1)!.input).toEqual({ videoId: VIDEO_ID, idioma: 'en' });
    expectTracks(snapshot, { enabled: false });
    expectNothingRunning(['deleteTrack']);
  },
} satisfies StateChecks<Snapshot>;

describe('subtitle tracks model (Subtítulos in Editar video)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await act(async () => {});
      await runPath(path, states, executors);
    });
  }
});

describe('subtitle tracks model coverage', () => {
  itCoversTheMachine(subtitleTracksMachine, paths, { events, states, executors });
});
