import fs from 'node:fs';
import type { StoredFileInfo, Storage, WriteOptions } from './storage.ts';

/**
 * Stores the local file at `localPath` as the asset's `file`. The file is opened before the write
 * starts, so a file that is missing or unreadable rejects this promise. `fs.createReadStream(path)`
 * opens it later: its error is emitted before the write has piped the stream, when nobody listens,
 * and takes the process down (a work directory removed under a job being stopped did).
 */
export async function writeLocalFile(storage: Storage, assetId: string, file: string, localPath: string, options?: WriteOptions): Promise<StoredFileInfo> {
  const handle = await fs.promises.open(localPath, 'r');
  // The stream reads the descriptor opened above and closes it when it ends or is destroyed.
  const source = handle.createReadStream({ autoClose: true });
  try {
    return await storage.write(assetId, file, source, options);
  } finally {
    if (!source.destroyed) source.destroy();
  }
}
