/** Types of the upload queue ('Subir video' with several files, R-UPL-12…19). */
import type { ActorRefFrom, DoneActorEvent, SnapshotFrom } from 'xstate';
import type { VideoFormValues } from '../video-form/video-form.rules.ts';
import type { uploadFileMachine } from './upload-file.machine.ts';
import type { SubtitleFile, UploadFileOutput, Video } from './upload-file.types.ts';

export type UploadFileRef = ActorRefFrom<typeof uploadFileMachine>;
export type UploadFileSnapshot = SnapshotFrom<typeof uploadFileMachine>;

/**
 * Where a file stands, as far as the queue must know (docs/decisions/0129-upload-queue-mirrors-its-files.md):
 * waiting for a slot, holding one, being processed by the server, ready to confirm, being saved,
 * or stopped (interrupted, refused, a failed session request: it waits for the person).
 */
export type QueueFileStatus = 'queued' | 'transferring' | 'processing' | 'ready' | 'saving' | 'stopped';

export interface QueueFile {
  /** The child's actor id ('file-1', 'file-2', … in the order the files were added). */
  key: string;
  name: string;
  ref: UploadFileRef;
  status: QueueFileStatus;
}

/** One file's form as 'Confirmar todos' sends it: the batch's tags and visibility already applied. */
export interface QueueFileForm {
  key: string;
  values: VideoFormValues;
  thumbnail: File | null;
  subtitles: SubtitleFile[];
}

export type UploadQueueEvent =
  /** Files dropped or chosen (any kind: the queue refuses what is not a video, and what exceeds the batch). */
  | { type: 'queue.add'; files: File[] }
  /** 'Quitar' on a file's row: its upload stops and the server's copy is discarded. */
  | { type: 'queue.remove'; key: string }
  /** 'Confirmar todos' ('Confirmar' with one file): every ready file with its form. */
  | { type: 'queue.confirmAll'; forms: QueueFileForm[] }
  /** 'Cancelar' or the dialog's close button. */
  | { type: 'queue.close' }
  /** The question '¿Cancelar las subidas en curso?': 'Cancelar las subidas', or 'Seguir subiendo'. */
  | { type: 'queue.discard' }
  | { type: 'queue.keep' };

/** What a file's machine reports (spawned with `syncSnapshot`): each snapshot, and its end. */
export type FileSnapshotEvent = { type: `xstate.snapshot.${string}`; snapshot: UploadFileSnapshot };
/** A file's machine ended: saved (its video) or cancelled (null). */
export type FileDoneEvent = DoneActorEvent<UploadFileOutput, string>;

export interface UploadQueueContext {
  files: QueueFile[];
  /** The number of the next file's key. */
  nextKey: number;
  /** The files of the last drop that are not videos (each one's message, R-UPL-2). */
  refused: string[];
  /** How many files of the last drop went beyond the batch's limit and were left out. */
  overflow: number;
  /** The videos saved so far (they leave the list). */
  saved: Video[];
}

/** 'busy': some file is being saved (closing the dialog waits). */
export type UploadQueueTag = 'busy';
