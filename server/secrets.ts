import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';

export interface Secrets {
  /** signs session and pending tokens (HS256) */
  tokenKey: Uint8Array;
  /** signs media and upload locations, and derives the first-administrator invitation */
  urlKey: Buffer;
}

interface SecretsFile {
  tokenSecret: string;
  urlSigningSecret: string;
}

/**
 * The signing keys: from TOKEN_SECRET / URL_SIGNING_SECRET when given, else generated on first
 * start and kept in DATA_DIR/secrets.json (mode 0600), so tokens and links survive restarts.
 */
export function loadSecrets(config: Config): Secrets {
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: Partial<SecretsFile> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<SecretsFile>;
  const generated: SecretsFile = {
    tokenSecret: stored.tokenSecret ?? crypto.randomBytes(48).toString('base64url'),
    urlSigningSecret: stored.urlSigningSecret ?? crypto.randomBytes(48).toString('base64url'),
  };
  const needsFile = (!config.tokenSecret && !stored.tokenSecret) || (!config.urlSigningSecret && !stored.urlSigningSecret);
  if (needsFile) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(generated, null, 2), { mode: 0o600 });
  }
  const tokenSecret = config.tokenSecret ?? generated.tokenSecret;
  const urlSecret = config.urlSigningSecret ?? generated.urlSigningSecret;
  if (tokenSecret.length < 32 || urlSecret.length < 32) {
    throw new Error('TOKEN_SECRET and URL_SIGNING_SECRET must be at least 32 characters long');
  }
  return { tokenKey: new TextEncoder().encode(tokenSecret), urlKey: Buffer.from(urlSecret, 'utf8') };
}
