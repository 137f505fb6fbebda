import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where processing makes its working directories (a rewrite of the whole video, or a copy of it from
 * S3): beside the media (MEDIA_DIR/.work), on the volume sized for videos, or with S3 storage in
 * DATA_DIR/work, rather than the system's temporary directory, which may be small or held in memory
 * (tmpfs) while a video may be 10 GiB.
 */
export function workParentOf(config: { mediaDir: string; dataDir: string; s3?: unknown }): string {
  return config.s3 ? path.join(config.dataDir, 'work') : path.join(config.mediaDir, '.work');
}

/** A new working directory `<prefix>…` under `parent`, made first if it is not there yet. */
export async function makeWorkDir(parent: string, prefix: (typeof WORK_DIR_PREFIXES)[number]): Promise<string> {
  await fs.promises.mkdir(parent, { recursive: true });
  return fs.promises.mkdtemp(path.join(parent, prefix));
}

/** The prefixes of the working directories media jobs make (under the system's temporary directory, or workParentOf). */
export const WORK_DIR_PREFIXES = ['tao-processing-', 'tao-playable-', 'tao-thumbnail-', 'tao-media-', 'tao-label-', 'tao-webp-', 'tao-hls-'] as const;

/**
 * Removes the media jobs' working directories last changed before `olderThan`: a job removes its own
 * when it ends, so an old one was left by a process that was killed (kill -9, a power cut) in the
 * middle of a job, possibly with a whole copy of a video in it. Answers how many were removed.
 */
export async function removeAbandonedWorkDirs(olderThan: Date, parent: string = os.tmpdir()): Promise<number> {
  let removed = 0;
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(parent, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || !WORK_DIR_PREFIXES.some((prefix) => entry.name.startsWith(prefix))) continue;
    const dir = path.join(parent, entry.name);
    try {
      const stats = await fs.promises.stat(dir);
      if (stats.mtime >= olderThan) continue;
      await fs.promises.rm(dir, { recursive: true, force: true });
      removed += 1;
    } catch {
      // gone meanwhile, or not ours to remove: nothing to do
    }
  }
  return removed;
}
