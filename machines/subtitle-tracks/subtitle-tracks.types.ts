/** Types of the edit dialog's Subtítulos section (R-ADM-7…9). */
import type { components } from '../../contract/openapi.gen.ts';

/** A stored track: its language, its Spanish name and its signed file. */
export type Subtitulo = components['schemas']['Subtitulo'];

export interface SubtitleTracksInput {
  videoId: number;
}

/** putTrack's input: PUT /api/videos/{id}/subtitulos/{idioma} of a file. */
export interface PutTrackInput {
  videoId: number;
  idioma: string;
  file: File;
}

/** deleteTrack's input: DELETE /api/videos/{id}/subtitulos/{idioma}. */
export interface DeleteTrackInput {
  videoId: number;
  idioma: string;
}

/** What the section last did, said under it. */
export type TracksNotice =
  | { kind: 'saved'; idioma: string }
  | { kind: 'removed'; idioma: string }
  /** The server refused (or could not be reached for) a file or a removal: its problem, for the Spanish message. */
  | { kind: 'putFailed'; idioma: string; fileName: string; status: number; type: string; detail: string | null }
  | { kind: 'removeFailed'; idioma: string; status: number; type: string };

export interface SubtitleTracksContext {
  videoId: number;
  /** The video's tracks, sorted by language (empty until loaded). */
  tracks: Subtitulo[];
  /** The file being sent, or the language being removed (or asked about). */
  pending: { idioma: string; fileName: string | null } | null;
  notice: TracksNotice | null;
}

export type SubtitleTracksEvent =
  /** A file chosen for a language: 'Añadir subtítulos', or a track's 'Sustituir'. */
  | { type: 'tracks.put'; idioma: string; file: File }
  /** A track's 'Quitar': asks first. */
  | { type: 'tracks.remove'; idioma: string }
  /** The question's 'Quitar'. */
  | { type: 'tracks.confirmRemoval' }
  /** The question's 'Cancelar'. */
  | { type: 'tracks.cancelRemoval' }
  /** 'Reintentar' after the tracks could not be read. */
  | { type: 'tracks.retry' };

/** 'busy': a file is being sent or a track removed (the section's controls wait). */
export type SubtitleTracksTag = 'busy';
