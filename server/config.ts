import path from 'node:path';

/**
 * Server configuration, read once from environment variables with safe defaults.
 * Every variable is documented in the README's configuration table.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** where media files live: MEDIA_DIR/<assetId>/<file> (default DATA_DIR/media) */
  mediaDir: string;
  /** media in an S3 bucket instead of MEDIA_DIR, when S3_BUCKET is set */
  s3: S3Config | undefined;
  databaseUrl: string | undefined;
  publicUrl: string;
  logLevel: string;
  tokenSecret: string | undefined;
  urlSigningSecret: string | undefined;
  sessionTtlSeconds: number;
  invitationTtlDays: number;
  bodyLimitBytes: number;
  /** the largest video a signed upload location takes (bytes) */
  maxUploadBytes: number;
  /** how long signed upload locations work (seconds) */
  uploadUrlTtlSeconds: number;
  /**
   * videos processed at once (ffprobe, a rewrite for every browser, thumbnail, preview); rewrites go one
   * at a time (ffmpeg.ts MediaJobs.rewrites), so a short upload is not held behind a long rewrite
   */
  processingConcurrency: number;
  /**
   * how long an instance's claim on a video's processing lasts unless renewed (seconds; renewed every
   * third of it): how soon another instance takes over the video of an instance that died
   */
  processingLeaseSeconds: number;
  /**
   * PROCESSING=off: this instance processes no video (no ffmpeg, no polling for work); uploads still
   * complete and wait in `processing` for a worker (`npm run worker`) on the same database and storage
   */
  processing: boolean;
  trustProxy: boolean;
  sso: {
    hs256Secret: string | undefined;
    publicKeyPem: string | undefined;
    issuer: string | undefined;
    audience: string | undefined;
  };
  clientDir: string;
  /** invitations are e-mailed when SMTP_URL is set (smtp:// or smtps://, user and password in it); from SMTP_FROM */
  smtp: { url: string; from: string } | undefined;
}

/** S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE, S3_PREFIX */
export interface S3Config {
  /** the service's URL (MinIO, Ceph RGW, R2); AWS S3 when absent */
  endpoint: string | undefined;
  bucket: string;
  /** default us-east-1; `auto` for Cloudflare R2 */
  region: string;
  /** both or neither: without them, the SDK's usual credential chain (environment, shared files, instance role) */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /** keys start with it; empty, or ending in `/` */
  prefix: string;
}

function int(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
  }
  return n;
}

function bool(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

/** `on` or `off` (any case), the fallback when unset. */
function onOff(name: string, value: string | undefined, fallback: boolean): boolean {
  const v = optional(value)?.trim().toLowerCase();
  if (v === undefined) return fallback;
  if (v !== 'on' && v !== 'off') throw new Error(`${name} must be on or off (got "${value}")`);
  return v === 'on';
}

function optional(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** The repository root: where package.json, openapi.yaml and dist/ live. */
export const rootDir = path.resolve(import.meta.dirname, import.meta.dirname.includes(`${path.sep}dist${path.sep}`) ? '../../..' : '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 8080, 0, 65535);
  const host = optional(env.HOST) ?? '0.0.0.0';
  const publicUrl = (optional(env.PUBLIC_URL) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const dataDir = path.resolve(optional(env.DATA_DIR) ?? path.join(rootDir, 'data'));
  return {
    port,
    host,
    dataDir,
    mediaDir: path.resolve(optional(env.MEDIA_DIR) ?? path.join(dataDir, 'media')),
    s3: s3Config(env),
    databaseUrl: optional(env.DATABASE_URL),
    publicUrl,
    logLevel: optional(env.LOG_LEVEL) ?? 'info',
    tokenSecret: optional(env.TOKEN_SECRET),
    urlSigningSecret: optional(env.URL_SIGNING_SECRET),
    sessionTtlSeconds: int('SESSION_TTL_SECONDS', env.SESSION_TTL_SECONDS, 12 * 3600, 60, 7 * 24 * 3600),
    invitationTtlDays: int('INVITATION_TTL_DAYS', env.INVITATION_TTL_DAYS, 7, 1, 365),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', env.BODY_LIMIT_BYTES, 1024 * 1024, 1024, 64 * 1024 * 1024),
    maxUploadBytes: int('MAX_UPLOAD_BYTES', env.MAX_UPLOAD_BYTES, 10 * 1024 ** 3, 1024, 1024 ** 4),
    uploadUrlTtlSeconds: int('UPLOAD_URL_TTL_SECONDS', env.UPLOAD_URL_TTL_SECONDS, 3600, 60, 24 * 3600),
    processingConcurrency: int('PROCESSING_CONCURRENCY', env.PROCESSING_CONCURRENCY, 3, 1, 4),
    processingLeaseSeconds: int('PROCESSING_LEASE_SECONDS', env.PROCESSING_LEASE_SECONDS, 60, 10, 3600),
    processing: onOff('PROCESSING', env.PROCESSING, true),
    trustProxy: bool(env.TRUST_PROXY),
    sso: {
      hs256Secret: optional(env.SSO_HS256_SECRET),
      publicKeyPem: optional(env.SSO_PUBLIC_KEY)?.replace(/\\n/g, '\n'),
      issuer: optional(env.SSO_ISSUER),
      audience: optional(env.SSO_AUDIENCE),
    },
    clientDir: path.resolve(optional(env.CLIENT_DIR) ?? path.join(rootDir, 'dist', 'client')),
    smtp: smtpConfig(env),
  };
}

/** SMTP_URL and SMTP_FROM together, or neither: without them invitations are not e-mailed. */
function smtpConfig(env: NodeJS.ProcessEnv): Config['smtp'] {
  const url = optional(env.SMTP_URL)?.trim();
  const from = optional(env.SMTP_FROM)?.trim();
  if (url === undefined) {
    if (from !== undefined) throw new Error('SMTP_FROM is set but SMTP_URL is not: set both to e-mail invitations, or neither');
    return undefined;
  }
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error('SMTP_URL must be a URL like smtp://user:password@mail.example.org:587 or smtps://…:465');
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new Error(`SMTP_URL must start with smtp:// or smtps:// (got ${protocol}//)`);
  if (from === undefined) throw new Error('SMTP_URL is set: SMTP_FROM (the sender, e.g. "TAO <videos@example.org>") must be set too');
  return { url, from };
}

/** S3 when S3_BUCKET is set; the other S3_* variables without it are a mistake worth stopping for. */
function s3Config(env: NodeJS.ProcessEnv): Config['s3'] {
  const bucket = optional(env.S3_BUCKET)?.trim();
  const names = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX'] as const;
  if (bucket === undefined) {
    const set = names.filter((name) => optional(env[name]) !== undefined);
    if (set.length > 0) throw new Error(`${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set but S3_BUCKET is not: set S3_BUCKET to keep media in S3, or unset them`);
    return undefined;
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`S3_BUCKET must be a bucket name (3 to 63 of a-z, 0-9, '.', '-'; got "${bucket}")`);
  const endpoint = optional(env.S3_ENDPOINT)?.trim().replace(/\/+$/, '');
  if (endpoint !== undefined) {
    let protocol: string;
    try {
      protocol = new URL(endpoint).protocol;
    } catch {
      throw new Error(`S3_ENDPOINT must be a URL like https://s3.example.org or http://127.0.0.1:9000 (got "${endpoint}")`);
    }
    if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`S3_ENDPOINT must start with http:// or https:// (got ${protocol}//)`);
  }
  const accessKeyId = optional(env.S3_ACCESS_KEY_ID)?.trim();
  const secretAccessKey = optional(env.S3_SECRET_ACCESS_KEY)?.trim();
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK\'s credential chain (AWS_* variables, shared files, instance role)');
  }
  const pathStyle = optional(env.S3_FORCE_PATH_STYLE)?.trim().toLowerCase();
  if (pathStyle !== undefined && pathStyle !== 'true' && pathStyle !== 'false') throw new Error(`S3_FORCE_PATH_STYLE must be true or false (got "${env.S3_FORCE_PATH_STYLE}")`);
  const prefix = (optional(env.S3_PREFIX)?.trim() ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && !/^[A-Za-z0-9!_.*'()/-]+$/.test(prefix)) throw new Error(`S3_PREFIX may hold letters, digits and !_.*'()/- only (got "${env.S3_PREFIX}")`);
  return {
    endpoint,
    bucket,
    region: optional(env.S3_REGION)?.trim() ?? 'us-east-1',
    credentials: accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: pathStyle === 'true',
    prefix: prefix === '' ? '' : `${prefix}/`,
  };
}
