import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSubtitleFile } from '../../server/modules/subtitulos/subtitle-files.ts';
import { launchBrowser } from './harness.ts';
import { PAYLOADS } from './xss-corpus.ts';

/**
 * The normalised WebVTT the server stores (R-MED-13), as Chromium's own parser reads it in a <track>:
 * the same cues at the same times, the settings kept, WebVTT's markup becoming only its spans, and the
 * XSS corpus in cue text running nothing when the cues are made into DOM and put in the page.
 */

interface ReadCue {
  start: number;
  end: number;
  align: string;
  html: string;
}

/** Loads the file in a <track> of a <video> and answers its cues, each turned into DOM (getCueAsHTML) and shown in the page. */
async function cuesInChromium(page: Page, vtt: string): Promise<ReadCue[]> {
  return page.evaluate(async (text) => {
    const video = document.createElement('video');
    const track = document.createElement('track');
    track.src = URL.createObjectURL(new Blob([text], { type: 'text/vtt' }));
    video.append(track);
    document.body.append(video);
    track.track.mode = 'hidden';
    await new Promise((resolve, reject) => {
      track.onload = resolve;
      track.onerror = () => reject(new Error('Chromium refused the track'));
    });
    return [...(track.track.cues ?? [])].map((cue) => {
      const vttCue = cue as VTTCue;
      const shown = document.createElement('div');
      shown.append(vttCue.getCueAsHTML());
      document.body.append(shown);
      return { start: vttCue.startTime, end: vttCue.endTime, align: vttCue.align, html: shown.innerHTML };
    });
  }, vtt);
}

describe('normalised subtitle files in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let executed: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
    executed = [];
    page.on('dialog', (dialog) => {
      executed.push(`dialog ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.exposeFunction('__xss', (n: unknown) => executed.push(`__xss(${String(n)})`));
    page.on('request', (request) => {
      if (!request.url().startsWith('blob:') && !request.url().startsWith('data:')) executed.push(`request ${request.url()}`);
    });
    await page.setContent('<!doctype html><html lang="es"><body></body></html>');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('reads the same cues, settings and WebVTT markup the server wrote from an SRT full of other markup', async () => {
    const srt = [
      '1',
      '00:00:01,000 --> 00:00:02,500 X1:40 align:start',
      '<font color="red">Hola</font> <b onclick="x()">mundo</b> {\\an8}',
      '',
      '2',
      '00:00:03,000 --> 00:00:04,000',
      '<v.alto Roger &amp; Ana>¡Vamos!</v> <c.a.b>c</c> <lang en-GB>colour</lang> <ruby>漢<rt>kan</rt></ruby> a&nbsp;b',
      '',
    ].join('\r\n');
    const { vtt, cues } = parseSubtitleFile(Buffer.from(srt));
    const read = await cuesInChromium(page, vtt);
    expect(read.map((c) => [c.start, c.end])).toEqual(cues.map((c) => [c.startMs / 1000, c.endMs / 1000]));
    expect(read[0]).toMatchObject({ align: 'start', html: 'Hola <b>mundo</b>' });
    expect(read[1]!.html).toBe('<span title="Roger &amp; Ana" class="alto">¡Vamos!</span> <span class="a b">c</span> <span lang="en-GB">colour</span> <ruby>漢<rt>kan</rt></ruby> a&nbsp;b');
  });

  it('the XSS corpus as cue text: every cue read, only WebVTT\'s elements and attributes, nothing runs', async () => {
    // a cue's text cannot hold "-->" (it would start a cue); a WebVTT author writes "--&gt;"
    const srt = PAYLOADS.map((p, i) => `${i + 1}\n${stamp(i)} --> ${stamp(i, 900)}\n${p.text.replace(/-->/g, '--&gt;').replace(/\n\s*\n/g, '\n')}\n`).join('\n');
    const { vtt, cues } = parseSubtitleFile(Buffer.from(srt));
    const read = await cuesInChromium(page, vtt);
    expect(read).toHaveLength(cues.length);
    const elements = await page.evaluate(() => [...document.querySelectorAll('body div *')].map((e) => [e.localName, ...[...e.attributes].map((a) => a.name)].join(' ')));
    for (const element of elements) expect(element).toMatch(/^(span( class| title| lang)*|b|i|u|ruby|rt)$/);
    await page.waitForTimeout(500); // an image's onerror, a meta refresh: given time to fire
    expect(executed).toEqual([]);
  });
});

/** `00:mm:ss,fff` of the n-th cue, a second apart. */
function stamp(n: number, ms = 0): string {
  const total = n * 1000 + ms;
  const pad = (v: number, w = 2) => String(v).padStart(w, '0');
  return `00:${pad(Math.floor(total / 60_000))}:${pad(Math.floor(total / 1000) % 60)},${pad(total % 1000, 3)}`;
}
