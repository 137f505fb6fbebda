import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_TEXTS, textUnit } from '../../../tests/utils/openapi-arbitraries.ts';
import { PAYLOADS } from '../../../tests/e2e/xss-corpus.ts';
import { cleanCueText, decodeSubtitleBytes, formatStamp, parseSubtitleFile, SubtitleFileError } from './subtitle-files.ts';

/**
 * The subtitle file reader on its own (R-MED-13): what it writes is a WebVTT file it reads back to the
 * same cues, whatever cue text it was given; the server tests (subtitulos.test.ts) check each shape
 * through the API.
 */

const TAG = /<[^>]*>/g;
const WEBVTT_TAG = /^<(\/(b|i|u|c|v|lang|ruby|rt)|(b|i|u|c|ruby|rt)(\.[A-Za-z0-9_-]+)*|v(\.[A-Za-z0-9_-]+)* [^<>"'=]+|lang(\.[A-Za-z0-9_-]+)* [A-Za-z0-9-]+)>$/;

const cueText = fc.array(
  fc.oneof(
    fc.string({ unit: textUnit, maxLength: 40 }),
    fc.constantFrom(...HOSTILE_TEXTS),
    fc.constantFrom(...PAYLOADS.map((p) => p.text)),
    fc.constantFrom('<b>', '</b>', '<i>', '</i>', '<c.x.y>', '</c>', '<v Ana>', '</v>', '<lang en>', '<ruby>', '<rt>', '</rt>', '</ruby>', '&amp;', '&lt;', '&#233;', '&nbsp;', '&bogus;', '<00:00:01.000>'),
  ),
  { minLength: 1, maxLength: 8 },
);

const file = fc.array(fc.tuple(fc.nat(50_000), fc.integer({ min: 1, max: 5000 }), cueText), { minLength: 1, maxLength: 6 }).map((cues) =>
  ['WEBVTT', '', ...cues.flatMap(([start, length, parts]) => [`${formatStamp(start)} --> ${formatStamp(start + length)}`, parts.join('').replace(/-->/g, '→').split(/\r\n|\r|\n/).filter((l) => l.trim() !== '').join('\n') || 'x', ''])].join('\n'),
);

describe('subtitle files: reading and normalising', () => {
  it('writes only WebVTT tags and escapes, no javascript:, and reads its own output back to the same cues', () => {
    fc.assert(
      fc.property(file, (text) => {
        let parsed;
        try {
          parsed = parseSubtitleFile(Buffer.from(text));
        } catch (error) {
          // the only refusals these may get: control characters (binary data), every cue empty once cleaned
          expect(error).toBeInstanceOf(SubtitleFileError);
          const binary = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
          expect((error as SubtitleFileError).reason).toBe(binary ? 'not a subtitle file (WebVTT or SRT): it holds binary data' : 'the file has no cues');
          return;
        }
        for (const tag of parsed.vtt.match(TAG) ?? []) expect(tag).toMatch(WEBVTT_TAG);
        expect(parsed.vtt).not.toMatch(/javascript\s*:/i);
        expect(parsed.vtt.replace(TAG, '')).not.toMatch(/&(?!(amp|lt|gt|lrm|rlm|nbsp);)/);
        for (const cue of parsed.cues) expect(cue.text).not.toMatch(/<[/!?A-Za-z][^<>]*>|javascript\s*:/i);
        const again = parseSubtitleFile(Buffer.from(parsed.vtt));
        expect(again.vtt).toBe(parsed.vtt);
        expect(again.cues.map((c) => [c.startMs, c.endMs, c.text])).toEqual(parsed.cues.map((c) => [c.startMs, c.endMs, c.text]));
      }),
      { numRuns: 300 },
    );
  });

  it('closes what it opens and drops end tags of nothing open', () => {
    expect(cleanCueText(['<b>uno <i>dos</b> tres</i> </u>cuatro'])).toEqual({ lines: ['<b>uno <i>dos</i></b> tres cuatro'], text: 'uno dos tres cuatro' });
    expect(cleanCueText(['<rt>fuera</rt> <ruby>漢<rt>kan<rt>ji</ruby>'])).toEqual({ lines: ['fuera <ruby>漢<rt>kan</rt><rt>ji</rt></ruby>'], text: 'fuera 漢' });
  });

  it('removes javascript: however it is spelt, and what reads as a tag once decoded', () => {
    expect(cleanCueText(['JaVaScRiPt:alert(1) jav\tascript:x &#106;avascript:y javajavascript:script:z']).text).toBe('alert(1) x y z');
    expect(cleanCueText(['a &lt;img src=x onerror=alert(1)&gt; b, 1 &lt; 2 &gt; 0']).lines).toEqual(['a  b, 1 &lt; 2 &gt; 0']);
  });

  it('decodes UTF-8 (with or without BOM), UTF-16 by its BOM, else Windows-1252 with its 0x80–0x9F', () => {
    expect(decodeSubtitleBytes(Buffer.from('\ufeffañ', 'utf8'))).toBe('añ');
    expect(decodeSubtitleBytes(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from([0, 0x61, 0, 0xf1])]))).toBe('añ');
    expect(decodeSubtitleBytes(Buffer.from([0x61, 0xf1, 0x80, 0x93, 0x94, 0x85, 0x96]))).toBe('añ€“”…–');
  });
});
