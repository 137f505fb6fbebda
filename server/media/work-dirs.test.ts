import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeAbandonedWorkDirs } from './work-dirs.ts';

const parents: string[] = [];
afterEach(() => {
  for (const dir of parents.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function parentWith(names: Array<{ name: string; ageHours: number; file?: boolean }>): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-work-dirs-test-'));
  parents.push(parent);
  for (const { name, ageHours, file } of names) {
    const target = path.join(parent, name);
    if (file) fs.writeFileSync(target, 'x');
    else {
      fs.mkdirSync(target);
      fs.writeFileSync(path.join(target, 'video.mp4'), Buffer.alloc(1024));
    }
    const when = new Date(Date.now() - ageHours * 3600_000);
    fs.utimesSync(target, when, when);
  }
  return parent;
}

describe('working directories left by a killed media job', () => {
  it('are removed once older than the limit; young ones (a job running now) and other files stay', async () => {
    const parent = parentWith([
      { name: 'tao-processing-old', ageHours: 30 },
      { name: 'tao-thumbnail-old', ageHours: 30 },
      { name: 'tao-media-old', ageHours: 25 },
      { name: 'tao-processing-running', ageHours: 1 },
      { name: 'someone-elses-dir', ageHours: 48 },
      { name: 'tao-processing-a-file', ageHours: 48, file: true },
    ]);
    const removed = await removeAbandonedWorkDirs(new Date(Date.now() - 24 * 3600_000), parent);
    expect(removed).toBe(3);
    expect(fs.readdirSync(parent).sort()).toEqual(['someone-elses-dir', 'tao-processing-a-file', 'tao-processing-running']);
  });

  it('a missing parent directory removes nothing', async () => {
    expect(await removeAbandonedWorkDirs(new Date(), path.join(os.tmpdir(), 'tao-no-such-parent-dir'))).toBe(0);
  });
});
