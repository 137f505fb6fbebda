/**
 * The QA model of the edit dialog's Subtítulos section (R-ADM-7…9): the tracks read, a file added
 * for a new language and one replacing a track, a track removed after its question, and every
 * answer of the three requests; each outcome must be said. Shared by subtitle-tracks.test.tsx and
 * `npm run qa` (tests/qa).
 */
import type { SnapshotFrom } from 'xstate';
import { defineQaModel, failureSentence, type DoneEvent, type ErrorEvent, type EventDescriptions } from '../../tests/utils/machine-model.ts';
import { subtitleTracksMachine } from './subtitle-tracks.machine.ts';
import type { Subtitulo, SubtitleTracksEvent } from './subtitle-tracks.types.ts';

/** A File whose JSON (the model's key of events) is its name and size. */
function namedFile(name: string, text: string): File {
  const file = new File([text], name, { type: '' });
  return Object.assign(file, { toJSON: () => ({ name, size: file.size }) });
}

export const VIDEO_ID = 41;
export const EN: Subtitulo = { idioma: 'en', etiqueta: 'Inglés', url: '/api/media/asset-41/subtitulos-en.vtt?expires=1&signature=e' };
export const ES: Subtitulo = { idioma: 'es', etiqueta: 'Español', url: '/api/media/asset-41/subtitulos-es.vtt?expires=1&signature=s' };
/** A Spanish file (its name says no language: the select's first free one, Español). */
export const SPANISH_FILE = namedFile('charla.srt', '1\n00:00:01,000 --> 00:00:02,000\nHola\n');
/** A new English file for the English track's 'Sustituir'. */
export const ENGLISH_FILE = namedFile('charla-v2.en.vtt', 'WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n');
export const INVALID = { status: 400, type: 'invalid-subtitles', detail: 'line 2: malformed timing «00:01:xx,000 --> 00:01:02,000» (expected such as «00:00:01,000 --> 00:00:04,000»)' };
const SERVER_ERROR = { status: 503, type: 'service-unavailable' };

export type SubtitleTracksSnapshot = SnapshotFrom<typeof subtitleTracksMachine>;
export type SubtitleTracksModelEvent =
  | SubtitleTracksEvent
  | DoneEvent<'listTracks', Subtitulo[]>
  | ErrorEvent<'listTracks'>
  | DoneEvent<'putTrack', Subtitulo>
  | ErrorEvent<'putTrack'>
  | DoneEvent<'deleteTrack', undefined>
  | ErrorEvent<'deleteTrack'>;

const events: SubtitleTracksModelEvent[] = [
  { type: 'xstate.done.actor.listTracks', output: [EN] },
  { type: 'xstate.error.actor.listTracks', error: SERVER_ERROR },
  { type: 'tracks.retry' },
  { type: 'tracks.put', idioma: 'es', file: SPANISH_FILE },
  { type: 'tracks.put', idioma: 'en', file: ENGLISH_FILE },
  { type: 'xstate.done.actor.putTrack', output: ES },
  { type: 'xstate.done.actor.putTrack', output: EN },
  { type: 'xstate.error.actor.putTrack', error: INVALID },
  { type: 'tracks.remove', idioma: 'en' },
  { type: 'tracks.confirmRemoval' },
  { type: 'tracks.cancelRemoval' },
  { type: 'xstate.done.actor.deleteTrack', output: undefined },
  { type: 'xstate.error.actor.deleteTrack', error: SERVER_ERROR },
];

const has = (snapshot: SubtitleTracksSnapshot, idioma: string) => snapshot.context.tracks.some((track) => track.idioma === idioma);

export const subtitleTracksModel = defineQaModel({
  name: 'subtitle-tracks',
  title: "Los subtítulos de un video en 'Editar video'",
  machine: subtitleTracksMachine,
  events,
  input: { videoId: VIDEO_ID },
  stateKey: ({ value, context }) => ({ value, tracks: context.tracks.map((track) => track.idioma), notice: context.notice?.kind ?? null }),
  filterEvents: (snapshot, event) => {
    switch (event.type) {
      // 'Añadir subtítulos' for a language without a track; 'Sustituir' and 'Quitar' on a track there is.
      case 'tracks.put':
        return event.idioma === 'es' ? !has(snapshot, 'es') : has(snapshot, 'en');
      case 'tracks.remove':
        return has(snapshot, event.idioma);
      case 'xstate.done.actor.putTrack':
        return snapshot.context.pending?.idioma === event.output.idioma;
      default:
        return true;
    }
  },
  eventDescriptions: {
    'xstate.done.actor.listTracks': 'el servidor responde con los subtítulos del video (Inglés)',
    'xstate.error.actor.listTracks': ({ error }) => `al leer los subtítulos, ${failureSentence(error)}`,
    'tracks.retry': "el usuario pulsa 'Reintentar'",
    'tracks.put': ({ idioma, file }) =>
      idioma === 'es'
        ? `el usuario pulsa 'Añadir subtítulos' y elige '${file.name}' (Español)`
        : `el usuario pulsa 'Sustituir' en Inglés y elige '${file.name}'`,
    'xstate.done.actor.putTrack': ({ output }) => `el servidor guarda los subtítulos en ${output.etiqueta}`,
    'xstate.error.actor.putTrack': 'el servidor rechaza el archivo: no es válido (400 invalid-subtitles, la línea 2)',
    'tracks.remove': "el usuario pulsa 'Quitar' en Inglés",
    'tracks.confirmRemoval': "el usuario confirma con 'Quitar'",
    'tracks.cancelRemoval': "el usuario pulsa 'Cancelar'",
    'xstate.done.actor.deleteTrack': 'el servidor quita los subtítulos',
    'xstate.error.actor.deleteTrack': ({ error }) => `al quitar los subtítulos, ${failureSentence(error)}`,
  } satisfies EventDescriptions<SubtitleTracksModelEvent>,
});
