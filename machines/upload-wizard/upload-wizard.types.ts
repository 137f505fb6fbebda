/** Types of the upload wizard (R-UPL-1; the upload protocol of docs/decisions/0036-resumable-uploads-with-content-range.md). */
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

/** createVideo's input: POST /api/videos of the uploaded asset with the form's values. */
export interface CreateVideoInput {
  assetId: string;
  values: VideoFormValues;
}

/** A subtitle file chosen in the wizard for one language (R-UPL-9): sent once the video exists. */
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

/** The user's events. */
export type UploadWizardUserEvent =
  /** A file was dropped or picked (the machine refuses anything but a video). */
  | { type: 'upload.choose'; file: File }
  /** 'Reintentar': the session request again, or the interrupted transfer resumed. */
  | { type: 'upload.retry' }
  /** 'Elegir otro archivo': back to step 0 after the file was refused. */
  | { type: 'upload.restart' }
  /** 'Confirmar' with the form's values, the chosen thumbnail (or null) and the subtitle files (R-UPL-9). */
  | { type: 'upload.confirm'; values: VideoFormValues; thumbnail: File | null; subtitles: SubtitleFile[] }
  /** 'Reintentar' after some subtitle files were refused: the files (corrected) of the languages not yet stored. */
  | { type: 'upload.retrySubtitles'; subtitles: SubtitleFile[] }
  /** 'Cancelar' (or closing the dialog): stops whatever runs and closes. */
  | { type: 'upload.cancel' };

export type UploadWizardEvent = UploadWizardUserEvent | SendFileEvent;

export interface UploadWizardContext {
  /** The video file chosen (null at step 0). */
  file: File | null;
  /** The name of a file refused at step 0 for not being a video (the message shows it). */
  refusedFile: string | null;
  session: UploadSession | null;
  /** Bytes of the file the server holds or is receiving, of `total`; the transfer rate in bytes per second. */
  loaded: number;
  total: number;
  rate: number;
  /** While the server rewrites the stored file into one every browser plays: the percent done (else null). */
  processed: number | null;
  /** Why the file was refused after it was chosen (by the upload or by the processing). */
  refusal: RefusalReason | null;
  /** The failing rules of the last Confirmar, null until one fails (the fields then show their R-ADM-2 messages). */
  errors: VideoFormErrors | null;
  /** The values and thumbnail of the last valid Confirmar (being saved, or kept after a failure). */
  values: VideoFormValues | null;
  thumbnail: File | null;
  /** The subtitle files of the last valid Confirmar (or retry). */
  subtitles: SubtitleFile[];
  /** The video once created (its subtitle files are sent to it). */
  video: Video | null;
  /** The languages whose files the server stored. */
  savedSubtitles: string[];
  /** The files of the last sending that the server refused. */
  subtitleFailures: SubtitleFailure[];
}

/** 'busy': the video is being saved (fields, Confirmar and Cancelar disabled). */
export type UploadWizardTag = 'busy';
