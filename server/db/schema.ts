import type { ColumnType, Generated } from 'kysely';

/**
 * Table types of the database (not API types: those are generated from openapi.yaml).
 * Both dialects store booleans as 0/1 integers and instants as ISO-8601 UTC text,
 * so one set of queries serves SQLite and PostgreSQL alike.
 */
export type Flag = 0 | 1;
/** ISO-8601 UTC instant, e.g. 2026-11-21T10:00:00.000Z. */
export type Instant = string;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** lower-cased username: unique, used for look-ups. */
  username_key: string;
  nombre: string;
  email: string | null;
  rol: 'admin' | 'user';
  organizacion: string | null;
  bloqueado: ColumnType<Flag, Flag | undefined, Flag>;
  /** null for accounts provisioned by single sign-on (they never sign in with a password). */
  password_hash: string | null;
  otp_state: 'OTP_DISABLED' | 'OTP_REQUIRED' | 'OTP_ACTIVED';
  otp_secret: string | null;
  /** last accepted TOTP time step: a code is accepted once. */
  otp_last_step: number | null;
  /** bumped when the user is blocked or their role changes: older session tokens stop working. */
  token_version: ColumnType<number, number | undefined, number>;
  created_at: Instant;
  updated_at: Instant;
  /** the last sign-in that opened a session (second factor or single sign-on); null: never */
  last_login_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  /** the user's openings of videos (view_events), kept in the transaction that records or forgets one */
  view_count: ColumnType<number, number | undefined, number>;
}

export interface InvitationsTable {
  id: Generated<number>;
  token_hash: string;
  email: string | null;
  rol: 'admin' | 'user';
  organizacion: string | null;
  created_by: number | null;
  created_at: Instant;
  /** null: never expires (the first-administrator invitation). */
  expires_at: Instant | null;
  used_at: Instant | null;
  used_by: number | null;
  bootstrap: ColumnType<Flag, Flag | undefined, Flag>;
  /** set when the address was invited again: no longer listed, its link has expired */
  replaced_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
}

export interface LoginFailuresTable {
  /** any name tried, known or not (so a lock reveals nothing) */
  username_key: string;
  /** consecutive sign-in attempts without a right password (counted before the check) */
  failures: number;
  locked_until: Instant | null;
  updated_at: Instant;
}

/** Sessions ended before their token expired (POST /api/logout): their tokens are refused. */
export interface EndedSessionsTable {
  /** the session token's `jti` */
  session_id: string;
  /** when the token expires anyway: the row is not needed after */
  expires_at: Instant;
}

export interface PendingLoginsTable {
  id: string;
  user_id: number;
  /** the secret being enrolled (OTP_DISABLED / OTP_REQUIRED); null when the user's own secret applies. */
  otp_secret: string | null;
  /** codes tried on this sign-in (counted before the check; the fifth refused one ends it) */
  failures: number;
  expires_at: Instant;
  created_at: Instant;
}

export type VideoStatus = 'ready' | 'processing' | 'failed';

export interface VideosTable {
  id: Generated<number>;
  /** the asset id (media files live under it) */
  id_externo: string;
  titulo: string;
  descripcion: string | null;
  descripcion_corta: string;
  /** seconds */
  duracion: ColumnType<number, number | undefined, number>;
  /** the organisation the video belongs to (users of it see it even when not visible to all) */
  organizacion: string | null;
  nombre_usuario_alta: string;
  created_by: number | null;
  is_visible: ColumnType<Flag, Flag | undefined, Flag>;
  /** only `ready` videos are listed and shown; the upload work moves them through `processing` */
  status: ColumnType<VideoStatus, VideoStatus | undefined, VideoStatus>;
  has_thumbnail: ColumnType<Flag, Flag | undefined, Flag>;
  has_preview: ColumnType<Flag, Flag | undefined, Flag>;
  /** the HLS renditions the master lists, comma-separated ascending ("240,360,720"); null: none yet */
  hls_heights: ColumnType<string | null, string | null | undefined, string | null>;
  has_storyboard: ColumnType<Flag, Flag | undefined, Flag>;
  /** the languages of its subtitles, comma-separated and sorted ("en,es"); null: none */
  subtitle_languages: ColumnType<string | null, string | null | undefined, string | null>;
  /** sum and number of the users' ratings, kept in the transaction that changes a rating */
  rating_sum: ColumnType<number, number | undefined, number>;
  rating_count: ColumnType<number, number | undefined, number>;
  /** bumped when the thumbnail is replaced: its signed location changes, so caches fetch the new one */
  thumbnail_version: ColumnType<number, number | undefined, number>;
  /** openings of the video (view_events), kept in the transaction that records one */
  view_count: ColumnType<number, number | undefined, number>;
  fecha_alta: Instant;
  updated_at: Instant;
}

export interface TagsTable {
  id: Generated<number>;
  nombre: string;
  /** folded nombre (trimmed, lower case, no diacritics): unique, tags never differ only in case or accents */
  nombre_key: string;
  created_at: Instant;
}

export interface VideoTagsTable {
  video_id: number;
  tag_id: number;
}

/** A user's own state of a video: rating, favourite, seen, playback position. */
export interface VideoUserStatesTable {
  user_id: number;
  video_id: number;
  /** 1–5, null: not rated */
  puntuacion: number | null;
  favorito: ColumnType<Flag, Flag | undefined, Flag>;
  visto: ColumnType<Flag, Flag | undefined, Flag>;
  visto_at: Instant | null;
  /** playback position in seconds; null: none saved */
  posicion: number | null;
  updated_at: Instant;
}

/** Where an upload's video file is: announced, arriving, being processed, usable, or refused. */
export type UploadVideoState = 'pending' | 'receiving' | 'processing' | 'ready' | 'failed';

/** One upload session (POST /api/uploads), by asset id: its video from the signed location through processing. */
export type StreamState = 'pending' | 'done' | 'failed';

export interface UploadsTable {
  asset_id: string;
  created_by: number | null;
  created_at: Instant;
  /** its signed locations stop working then; unfinished uploads are removed after it */
  expires_at: Instant;
  video_state: ColumnType<UploadVideoState, UploadVideoState | undefined, UploadVideoState>;
  video_content_type: string | null;
  /** bytes: announced, from Content-Range, or of the complete file (bigint: read as string on PostgreSQL) */
  video_size: ColumnType<number | string | null, number | null | undefined, number | null>;
  /** seconds, once probed */
  duracion: number | null;
  has_thumbnail: ColumnType<Flag, Flag | undefined, Flag>;
  has_preview: ColumnType<Flag, Flag | undefined, Flag>;
  /** the leased HLS stage: 'pending' once ready, then 'done' or 'failed'; null: from before the lease */
  stream_state: ColumnType<StreamState | null, StreamState | null | undefined, StreamState | null>;
  /** as videos.hls_heights / has_storyboard, for renditions finished before a video is made of the upload */
  hls_heights: ColumnType<string | null, string | null | undefined, string | null>;
  has_storyboard: ColumnType<Flag, Flag | undefined, Flag>;
  /** why processing failed (shown to the administrator) */
  error: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  processing_started_at: Instant | null;
  /** the instance processing the video (its lease), null when none */
  claimed_by: string | null;
  /** the lease ends then unless renewed; an expired lease may be claimed by another instance */
  claimed_until: Instant | null;
  /** percent of the rewrite into a file every browser plays done, while one runs; else null */
  processing_progress: ColumnType<number | null, number | null | undefined, number | null>;
  /** an uploaded thumbnail waits to be adopted (POST /api/videos, PATCH /thumbnail) */
  thumbnail_pending: ColumnType<Flag, Flag | undefined, Flag>;
  updated_at: Instant;
}

/** One opening of a video by a user (read by the statistics). */
export interface ViewEventsTable {
  id: Generated<number>;
  video_id: number;
  user_id: number;
  /** the user's organisation at the time */
  organizacion: string | null;
  viewed_at: Instant;
}

/** Openings of videos by users of each organisation (their organisation at the time); only organisations with views. */
export interface OrganizationViewsTable {
  organizacion: string;
  view_count: number;
}

/** Openings of videos per UTC hour. */
export interface ViewCountsHourlyTable {
  /** the first 13 characters of the ISO instant: '2026-11-22T08' */
  hour: string;
  view_count: number;
}

/** One administrative change: who, when, what, on which subject, before/after (JSON text). */
export interface AuditLogTable {
  id: Generated<number>;
  at: Instant;
  /** null: the operator's command line (or a user since deleted) */
  actor_id: number | null;
  /** the actor's name at the time of the change */
  actor_nombre: string | null;
  /** e.g. 'tag.created', 'user.role-changed', 'video.deleted' */
  action: string;
  /** e.g. 'tag', 'user', 'invitation', 'video' */
  subject_type: string;
  subject_id: string | null;
  before: string | null;
  after: string | null;
  detail: string | null;
}

/** SQLite only: the FTS5 index of the videos (rowid = videos.id). */
export interface VideosFtsTable {
  rowid: number;
  titulo: string;
  descripcion_corta: string;
  etiquetas: string;
  descripcion: string;
}

/** PostgreSQL only: the tsvector of each video (normalised text, weighted). */
export interface VideoSearchTable {
  video_id: number;
  document: unknown;
}

/** One subtitle track: a video's normalised WebVTT in one language (the file is in storage). */
export interface VideoSubtitlesTable {
  video_id: number;
  /** BCP 47 tag, canonical case ("es", "en", "pt-BR") */
  idioma: string;
  cue_count: number;
  updated_at: Instant;
}

/** One cue of a track, as text without markup: the transcript and the search in what is said. */
export interface VideoCuesTable {
  id: Generated<number>;
  video_id: number;
  idioma: string;
  /** seconds */
  inicio: number;
  fin: number;
  texto: string;
  /** PostgreSQL only: tsvector('simple') of the folded text */
  document?: unknown;
}

/** SQLite only: the FTS5 index of video_cues.texto (rowid = video_cues.id). */
export interface CuesFtsTable {
  rowid: number;
  texto: string;
}

export interface Database {
  users: UsersTable;
  invitations: InvitationsTable;
  login_failures: LoginFailuresTable;
  pending_logins: PendingLoginsTable;
  ended_sessions: EndedSessionsTable;
  videos: VideosTable;
  tags: TagsTable;
  video_tags: VideoTagsTable;
  video_user_states: VideoUserStatesTable;
  view_events: ViewEventsTable;
  organization_views: OrganizationViewsTable;
  view_counts_hourly: ViewCountsHourlyTable;
  uploads: UploadsTable;
  videos_fts: VideosFtsTable;
  video_search: VideoSearchTable;
  audit_log: AuditLogTable;
  video_subtitles: VideoSubtitlesTable;
  video_cues: VideoCuesTable;
  cues_fts: CuesFtsTable;
}
