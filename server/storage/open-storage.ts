import type { Config } from '../config.ts';
import { LocalStorage } from './local-storage.ts';
import type { Storage } from './storage.ts';

/** The configured media storage: today the local directory MEDIA_DIR (default DATA_DIR/media). */
export function openStorage(config: Pick<Config, 'mediaDir'>): Storage {
  return new LocalStorage(config.mediaDir);
}
