/**
 * Types of one file's upload (a child of the upload queue, or alone when a video's file is replaced):
 * the upload protocol of docs/decisions/0036-resumable-uploads-with-content-range.md.
 */
import type { AnyActorRef } from 'xstate';
import type { components, operations } from '../../contract/openapi.gen.ts';
import type { VideoFormErrors, VideoFormValues } from '../video-form/video-form.rules.ts';

export type Video = components['schemas']['Video'];
/** POST /api/uploads's answer: the asset id and the signed PUT locations of its video and thumbnail. */
export type UploadSession = components['schemas']['UploadSession'];
/** POST /api/uploads's body: what is about to be sent. */
export type UploadSessionRequest = components['schemas']['UploadSessionRequest'];
/** GET /api/uploads/{id}'s answer: where the upload stands (`estado`), fresh locations. */
export type UploadStatus = operations['getUpload']['responses'][200]['content']['application/json'];

/** sendFile's input: the video to PUT to its signed location. */
export interface SendFileInput {
  assetId: string;
  uploadUrl: string;
  file: File;
  /**
   * A retry after an interruption: the server is asked how much it holds (`Content-Range: bytes
   * * /total`) and only the rest is sent; otherwise the whole file is sent.
   */
  resume: boolean;
}

/** What the sendFile callback actor reports. */
export type SendFileEvent =
  /** `loaded` bytes of the file are on the server or on their way (from the resumed offset on), `rate` in bytes per second. */
  | { type: 'upload.progress'; loaded: number; total: number; rate: number }
  /** The whole file is stored (204). */
  | { type: 'upload.sent' }
  /** The transfer broke off (network, time-out, a server error): what arrived is kept, Reintentar resumes. */
  | { type: 'upload.failed' }
  /** The server refuses the file itself: not a video (415) or too big (413). Another file must be chosen. */
  | { type: 'upload.refused'; reason: RefusalReason };

/** Why a file cannot become a video: refused by the upload (not a video, too big) or by its processing. */
export type RefusalReason = 'not-a-video' | 'too-large' | 'invalid-media';

/** uploadThumbnail's input: the picture to PUT to the session's thumbnail location. */
export interface UploadThumbnailInput {
  assetId: string;
  uploadUrl: string;
  file: File;
}

/**
 * saveVideo's input: the uploaded asset and the form's values. The queue's app saves with
 * POST /api/videos; a replacement with PUT /api/videos/{id}/archivo (`values` null: the video keeps its fields).
 */
export interface SaveVideoInput {
  assetId: string;
  values: VideoFormValues | null;
}

/** A subtitle file chosen for one language (R-UPL-9): sent once the video exists. */
export interface SubtitleFile {
  /** BCP 47 tag (`es`, `en`, …). */
  idioma: string;
  file: File;
}

/** A subtitle file the server refused (or that could not be sent): its problem, for the Spanish message. */
export interface SubtitleFailure {
  idioma: string;
  fileName: string;
  /** The problem's status and type (`invalid-subtitles`, `payload-too-large`, …; 0 / `network-error` without an answer). */
  status: number;
  type: string;
  /** The problem's detail (for `invalid-subtitles`, the line at fault). */
  detail: string | null;
}

/** sendSubtitles's input: PUT /api/videos/{id}/subtitulos/{idioma} of each file, one after another. */
export interface SendSubtitlesInput {
  videoId: number;
  subtitles: SubtitleFile[];
}

/** What sendSubtitles answers: the languages stored and the files refused (it never rejects). */
export interface SendSubtitlesOutput {
  saved: string[];
  failures: SubtitleFailure[];
}

/** What a file's machine is started with. */
export interface UploadFileInput {
  /** Names the file in its queue (unique there): its actor id and the form's key. */
  key: string;
  file: File;
  /**
   * The queue that grants transfer slots: the file waits in `queued` for 'file.start' and tells the
   * queue (`upload.slotChanged`) whenever it starts or stops needing one. Null: it starts at once.
   */
  queue: AnyActorRef | null;
}

/** The events of one file: the person's, its queue's, and the transfer's reports. */
export type UploadFileEvent =
  /** The queue grants a transfer slot. */
  | { type: 'file.start' }
  /** 'Reintentar': the session request again, or the interrupted transfer resumed (after waiting for a slot). */
  | { type: 'file.retry' }
  /**
   * 'Confirmar' (or 'Confirmar todos'): the file's form values (null when the file has no form, a
   * replacement), the chosen thumbnail and subtitle files.
   */
  | { type: 'file.confirm'; values: VideoFormValues | null; thumbnail: File | null; subtitles: SubtitleFile[] }
  /** 'Reintentar' after some subtitle files were refused: the corrected files of the languages not yet stored. */
  | { type: 'file.retrySubtitles'; subtitles: SubtitleFile[] }
  /** 'Quitar' / 'Cancelar': stops whatever runs and discards the server's copy (not while saving). */
  | { type: 'file.cancel' }
  | SendFileEvent;

/** How a file's machine ended: its video once saved, null when it was cancelled. */
export interface UploadFileOutput {
  key: string;
  video: Video | null;
}

/** What a file tells its queue: it started or stopped needing a transfer slot, or it ended. */
export interface SlotChangedEvent {
  type: 'upload.slotChanged';
  key: string;
}

export interface UploadFileContext {
  key: string;
  file: File;
  queue: AnyActorRef | null;
  session: UploadSession | null;
  /** The next transfer resumes from what the server holds (after an interruption). */
  resume: boolean;
  /** Bytes of the file the server holds or is receiving, of `total`; the transfer rate in bytes per second. */
  loaded: number;
  total: number;
  rate: number;
  /** While the server rewrites the stored file into one every browser plays: the percent done (else null). */
  processed: number | null;
  /** Why the file was refused (by the upload or by its processing). */
  refusal: RefusalReason | null;
  /** The failing rules of the last confirmation, null until one fails (the fields then show their R-ADM-2 messages). */
  errors: VideoFormErrors | null;
  /** The last saving failed (the server refused it or did not answer): 'No se ha podido guardar el video'. */
  saveFailed: boolean;
  /** The values, thumbnail and subtitle files of the last valid confirmation. */
  values: VideoFormValues | null;
  thumbnail: File | null;
  subtitles: SubtitleFile[];
  /** The video once saved (its subtitle files are sent to it). */
  video: Video | null;
  savedSubtitles: string[];
  subtitleFailures: SubtitleFailure[];
}

/** 'transferring': holds one of the queue's transfer slots; 'busy': being saved (its form and buttons disabled). */
export type UploadFileTag = 'transferring' | 'busy';
