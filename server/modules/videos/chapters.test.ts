import { describe, expect, it } from 'vitest';
import { chaptersOf } from './chapters.ts';

describe('chapters from the long description (R-VID-19)', () => {
  it('reads m:ss and h:mm:ss lines with their titles, in order', () => {
    const text = 'Charla anual.\n0:00 Presentación\n2:05 - El presupuesto\n1:02:03 Turno de preguntas\nGracias.';
    expect(chaptersOf(text, 4000)).toEqual([
      { inicio: 0, titulo: 'Presentación' },
      { inicio: 125, titulo: 'El presupuesto' },
      { inicio: 3723, titulo: 'Turno de preguntas' },
    ]);
  });

  it('has none with fewer than three, without 0:00 first, out of order, or past the end', () => {
    expect(chaptersOf('0:00 Uno\n1:00 Dos', 600)).toEqual([]);
    expect(chaptersOf('0:10 Uno\n1:00 Dos\n2:00 Tres', 600)).toEqual([]);
    expect(chaptersOf('0:00 Uno\n2:00 Dos\n1:00 Tres', 600)).toEqual([]);
    expect(chaptersOf('0:00 Uno\n1:00 Dos\n1:00 Tres', 600)).toEqual([]);
    expect(chaptersOf('0:00 Uno\n1:00 Dos\n12:00 Tres', 600)).toEqual([]);
    expect(chaptersOf(null, 600)).toEqual([]);
  });

  it('ignores times inside a line, and refuses a stamp whose minutes pass 59 under an hour', () => {
    expect(chaptersOf('Vea el minuto 0:00 Uno\n1:00 Dos\n2:00 Tres', 600)).toEqual([]);
    expect(chaptersOf('0:00 Uno\n1:00 Dos\n1:75:00 Tres', 99999)).toEqual([]);
  });

  it('takes CRLF line ends', () => {
    expect(chaptersOf('0:00 Uno\r\n1:00 Dos\r\n2:00 Tres', 0).map((c) => c.titulo)).toEqual(['Uno', 'Dos', 'Tres']);
  });
});
