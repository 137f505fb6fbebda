import { describe, expect, it } from 'vitest';
import { titleFromFileName } from './upload-queue.rules.ts';

describe("a file's default title", () => {
  it('drops the extension, turns separators into single spaces and upper-cases the first letter (R-UPL-15)', () => {
    expect(titleFromFileName('reunion_anual-2024.mp4')).toBe('Reunion anual 2024');
    expect(titleFromFileName('  charla__de---equipo.v2.mkv')).toBe('Charla de equipo v2');
    expect(titleFromFileName('ñandú.webm')).toBe('Ñandú');
    expect(titleFromFileName('sin-extension')).toBe('Sin extension');
  });

  it('is cut to the title’s maximum of 100 characters (R-UPL-15)', () => {
    const title = titleFromFileName(`${'a'.repeat(150)}.mp4`);
    expect(title).toHaveLength(100);
    expect(title.startsWith('Aaa')).toBe(true);
  });
});
