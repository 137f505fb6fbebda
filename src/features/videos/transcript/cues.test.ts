import { describe, expect, it } from 'vitest';
import { activeCueIndex, cuesOfTrack, foldForSearch, matchingCues, plainCueText, transcriptText, type Cue } from './cues.ts';

const CUES: Cue[] = [
  { start: 1, end: 4, text: 'Hola a todos' },
  { start: 3.5, end: 6, text: 'Solapada' },
  { start: 8, end: 9, text: 'La canción del equipo' },
];

describe('a cue as the transcript shows it (R-VID-22)', () => {
  it('drops WebVTT tags and timestamps, decodes its entities and joins its lines', () => {
    expect(plainCueText('<v Ana>Hola <b>a</b> <c.rojo>todos</c></v>')).toBe('Hola a todos');
    expect(plainCueText('uno <00:00:01.500>dos\ntres')).toBe('uno dos tres');
    expect(plainCueText('&lt;script&gt;alert(1)&lt;/script&gt; &amp; más&nbsp;')).toBe('<script>alert(1)</script> & más');
  });

  it("reads a TextTrack's cues in time order, and none before it has loaded", () => {
    const cues = [
      { startTime: 5, endTime: 6, text: 'dos' },
      { startTime: 1, endTime: 2, text: '<i>uno</i>' },
    ] as unknown as TextTrackCueList;
    expect(cuesOfTrack({ cues })).toEqual([
      { start: 1, end: 2, text: 'uno' },
      { start: 5, end: 6, text: 'dos' },
    ]);
    expect(cuesOfTrack({ cues: null })).toEqual([]);
  });
});

describe('the cue playing (R-VID-23)', () => {
  it('is the last started and not ended; none between cues', () => {
    expect(activeCueIndex(CUES, 0)).toBe(-1);
    expect(activeCueIndex(CUES, 1)).toBe(0);
    expect(activeCueIndex(CUES, 3.9)).toBe(1);
    expect(activeCueIndex(CUES, 4)).toBe(1);
    expect(activeCueIndex(CUES, 7)).toBe(-1);
    expect(activeCueIndex(CUES, 8.5)).toBe(2);
    expect(activeCueIndex(CUES, 9)).toBe(-1);
  });
});

describe('the search inside the transcript (R-VID-24)', () => {
  it('ignores accents and case (NFD), and needs every word', () => {
    expect(foldForSearch('CANCIÓN Ñandú')).toBe('cancion nandu');
    expect(matchingCues(CUES, 'cancion')).toEqual([2]);
    expect(matchingCues(CUES, 'EQUIPO la')).toEqual([2]);
    expect(matchingCues(CUES, 'hola equipo')).toEqual([]);
  });
});

describe('the .txt download (R-VID-25)', () => {
  it('has one cue per line with its times', () => {
    expect(transcriptText(CUES)).toBe('[0:01 - 0:04] Hola a todos\n[0:03 - 0:06] Solapada\n[0:08 - 0:09] La canción del equipo\n');
    expect(transcriptText([])).toBe('');
  });
});
