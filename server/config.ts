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
  /** videos processed at once (ffprobe, thumbnail, preview) */
  processingConcurrency: number;
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
    processingConcurrency: int('PROCESSING_CONCURRENCY', env.PROCESSING_CONCURRENCY, 1, 1, 4),
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
