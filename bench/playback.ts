/**
 * Playback on throttled links: the built server with one 60 s 1080p video made by the product's own
 * processing (upload session, PUT, POST /api/videos; the server's processing makes the progressive MP4
 * and the HLS ladder), then Chromium signed in, one fresh browser context per run, with DevTools
 * network emulation (Network.emulateNetworkConditions: latency is the round trip, throughput bytes/s):
 *   (a) slow 4G: 1.6 Mbit/s down, 750 kbit/s up, 150 ms; 30 s of playback;
 *   (b) 10 Mbit/s, 40 ms, dropping to 1 Mbit/s, 150 ms at 20 s of playback; 40 s of playback.
 * Each for HLS (the video's page as shipped: hls.js behind our controls, started with «Reproducir»)
 * and for the progressive MP4 of the same video (`urlVideo` in a plain <video preload="metadata">
 * page on the same origin: the product has no switch to force its player to the MP4).
 * Time to first frame: the play request on a loaded page to the first frame shown
 * (requestVideoFrameCallback). Stalls: `waiting` after the first frame; stall seconds until `playing`.
 *
 *   npm run build && npx tsx bench/playback.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { generateTestVideo, mediaTools, mediaToolsVersion } from '../server/media/ffmpeg.ts';
import { api, apiOk, freePort, registerWithInvitation, startBuiltServer, type BuiltServer } from './built-server.ts';
import { markdownTable, reportSection } from './report.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** tests/e2e/harness.ts launchBrowser's flags */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const SECONDS = 60;
const NOISE = 12;
const VIEWPORT = { width: 1280, height: 800 };

interface Conditions {
  downMbit: number;
  upMbit: number;
  latencyMs: number;
}

interface Link {
  id: 'a' | 'b';
  name: string;
  start: Conditions;
  /** conditions from this second of playback on */
  change?: { at: number; to: Conditions };
  playSeconds: number;
}

const LINKS: Link[] = [
  { id: 'a', name: '(a) slow 4G: 1.6 Mbit/s, 150 ms', start: { downMbit: 1.6, upMbit: 0.75, latencyMs: 150 }, playSeconds: 30 },
  {
    id: 'b',
    name: '(b) 10 Mbit/s, then 1 Mbit/s from 20 s',
    start: { downMbit: 10, upMbit: 5, latencyMs: 40 },
    change: { at: 20, to: { downMbit: 1, upMbit: 0.75, latencyMs: 150 } },
    playSeconds: 40,
  },
];

type Mode = 'HLS' | 'MP4';

interface Run {
  link: Link;
  mode: Mode;
  ttffSeconds: number | null;
  stalls: number;
  stallSeconds: number;
  stallsAfterChange: number;
  /** [currentTime, videoHeight] samples */
  heights: Array<[number, number]>;
  played: number;
  wallSeconds: number;
}

const bytesPerSecond = (mbit: number) => (mbit * 1e6) / 8;

async function emulate(cdp: import('playwright-core').CDPSession, c: Conditions): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: c.latencyMs,
    downloadThroughput: bytesPerSecond(c.downMbit),
    uploadThroughput: bytesPerSecond(c.upMbit),
  });
}

/** Listens on the page's <video>: first frame, waiting / playing, heights; `__bench.t0` is the play request. */
function instrument(): void {
  const video = document.querySelector('video')!;
  const state = {
    t0: 0,
    first: 0,
    stalls: [] as Array<{ at: number; start: number; end: number }>,
    heights: [] as Array<[number, number]>,
  };
  (window as unknown as { __bench: typeof state }).__bench = state;
  // A frame presented before the play request (the first picture, preloaded) does not count: wait for the next.
  const frame = () => {
    if (state.t0 && !state.first) state.first = performance.now();
    else if (!state.first && typeof video.requestVideoFrameCallback === 'function') video.requestVideoFrameCallback(frame);
  };
  // requestVideoFrameCallback where the browser has it (Chromium does), else `playing`
  if (typeof video.requestVideoFrameCallback === 'function') video.requestVideoFrameCallback(frame);
  else (video as HTMLVideoElement).addEventListener('playing', frame, { once: true });
  video.addEventListener('waiting', () => {
    if (state.first) state.stalls.push({ at: video.currentTime, start: performance.now(), end: 0 });
  });
  video.addEventListener('playing', () => {
    const open = state.stalls.at(-1);
    if (open && !open.end) open.end = performance.now();
  });
  setInterval(() => {
    if (state.first) state.heights.push([video.currentTime, video.videoHeight]);
  }, 500);
  // the click on «Reproducir» (HLS page) or video.play() (MP4 page) sets t0 first
  document.addEventListener('click', () => (state.t0 ||= performance.now()), { capture: true });
}

async function playOnce(browser: Browser, base: string, token: string, videoId: number, urlVideo: string, link: Link, mode: Mode): Promise<Run> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'es-ES' });
  // tsx's esbuild wraps named functions in __name(), which the page does not have.
  await context.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const started = Date.now();
  try {
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (mode === 'HLS') {
      await page.goto(`${base}/`);
      await page.evaluate((t) => window.localStorage.setItem('token', t), token);
      await emulate(cdp, link.start);
      await page.goto(`${base}/videos/${videoId}`);
    } else {
      // A plain page of the same origin (answered by the browser here, not the server) holding the MP4.
      const plain = `${base}/bench-progressive-mp4`;
      await page.route(plain, (route) =>
        route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>MP4</title><video preload="metadata" playsinline style="width:100%" src="${urlVideo}"></video>` }),
      );
      await emulate(cdp, link.start);
      await page.goto(plain);
    }
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, { timeout: 120_000 });
    await page.evaluate(instrument);
    if (mode === 'HLS') await page.getByRole('button', { name: 'Reproducir', exact: true }).click();
    else
      await page.evaluate(() => {
        (window as unknown as { __bench: { t0: number } }).__bench.t0 = performance.now();
        void document.querySelector('video')!.play();
      });
    let changedAt: number | null = null;
    const deadline = Date.now() + (link.playSeconds + 90) * 1000;
    let played = 0;
    while (Date.now() < deadline) {
      played = await page.evaluate(() => document.querySelector('video')!.currentTime);
      if (link.change && changedAt === null && played >= link.change.at) {
        await emulate(cdp, link.change.to);
        changedAt = played;
      }
      if (played >= link.playSeconds) break;
      await page.waitForTimeout(100);
    }
    const state = await page.evaluate(() => {
      const s = (window as unknown as { __bench: { t0: number; first: number; stalls: Array<{ at: number; start: number; end: number }>; heights: Array<[number, number]> } }).__bench;
      return { ...s, now: performance.now() };
    });
    const stallSeconds = state.stalls.reduce((sum, s) => sum + ((s.end || state.now) - s.start) / 1000, 0);
    return {
      link,
      mode,
      ttffSeconds: state.first ? (state.first - state.t0) / 1000 : null,
      stalls: state.stalls.length,
      stallSeconds,
      stallsAfterChange: changedAt === null ? 0 : state.stalls.filter((s) => s.at >= changedAt - 0.5).length,
      heights: state.heights,
      played,
      wallSeconds: (Date.now() - started) / 1000,
    };
  } finally {
    await context.close();
  }
}

/** "720 → 360 (from 24 s)": the heights in the order they were shown, with when each began. */
function heightsText(samples: Array<[number, number]>): string {
  const parts: string[] = [];
  let last = -1;
  for (const [time, height] of samples) {
    if (height === last || height === 0) continue;
    parts.push(parts.length === 0 ? `${height}p` : `${height}p from ${time.toFixed(0)} s`);
    last = height;
  }
  return parts.join(' → ') || '—';
}

async function waitForProcessing(server: BuiltServer, token: string, assetId: string): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const upload = await apiOk<{ estado: string; error: unknown }>(server.url, 'GET', `/api/uploads/${assetId}`, 200, { token });
    if (upload.estado === 'ready') return;
    if (upload.estado === 'failed') throw new Error(`processing failed: ${JSON.stringify(upload.error)}`);
    if (Date.now() > deadline) throw new Error(`still ${upload.estado} after 10 minutes`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

interface VideoAnswer {
  id: number;
  urlVideo: string;
  urlHls: string | null;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-playback-'));
  let server: BuiltServer | undefined;
  let browser: Browser | undefined;
  try {
    const version = await mediaToolsVersion(mediaTools());
    const source = path.join(dir, 'source.mp4');
    await generateTestVideo(source, { seconds: SECONDS, pattern: 'testsrc2', toneHz: 440, width: 1920, height: 1080, noise: NOISE, label: 'TAO playback' });
    const sourceBytes = fs.statSync(source).size;
    const sourceRate = (sourceBytes * 8) / SECONDS / 1e6;
    console.log(`source: ${SECONDS} s 1920×1080, ${(sourceBytes / 1e6).toFixed(1)} MB, ${sourceRate.toFixed(2)} Mbit/s; ${version}`);

    server = await startBuiltServer({ dataDir: path.join(dir, 'data'), port: await freePort() });
    const invitation = server.firstAdminToken();
    if (!invitation) throw new Error(`the server printed no first-administrator invitation:\n${server.output()}`);
    const token = await registerWithInvitation(server.url, invitation, 'playback', 'correct horse battery staple');

    const processingStarted = Date.now();
    const session = await apiOk<{ assetId: string; video: { uploadUrl: string } }>(server.url, 'POST', '/api/uploads', 201, {
      token,
      body: { video: { contentType: 'video/mp4', size: sourceBytes } },
    });
    const put = await fetch(new URL(session.video.uploadUrl, server.url), {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4' },
      body: fs.readFileSync(source),
    });
    if (put.status !== 204) throw new Error(`the upload answered ${put.status}: ${await put.text()}`);
    await waitForProcessing(server, token, session.assetId);
    const created = await api<VideoAnswer>(server.url, 'POST', '/api/videos', {
      token,
      body: { isVisible: true, titulo: 'Reproducción en redes lentas', descripcionCorta: 'Banco de pruebas', tags: [], idExterno: session.assetId },
    });
    if (created.status !== 201 && created.status !== 200) throw new Error(`POST /api/videos answered ${created.status}: ${JSON.stringify(created.body)}`);
    const videoId = created.body.id;
    // The renditions follow the MP4 in the background: wait for the whole ladder (1080p in the master playlist).
    let video: VideoAnswer;
    const ladderDeadline = Date.now() + 10 * 60_000;
    for (;;) {
      video = await apiOk<VideoAnswer>(server.url, 'GET', `/api/videos/${videoId}`, 200, { token });
      if (video.urlHls) {
        const master = await (await fetch(new URL(video.urlHls, server.url))).text();
        if (/RESOLUTION=\d+x1080/.test(master)) break;
      }
      if (Date.now() > ladderDeadline) throw new Error('the HLS ladder was not ready after 10 minutes');
      await new Promise((r) => setTimeout(r, 2000));
    }
    const processingSeconds = (Date.now() - processingStarted) / 1000;
    const master = await (await fetch(new URL(video.urlHls!, server.url))).text();
    const ladder = [...master.matchAll(/BANDWIDTH=(\d+),AVERAGE-BANDWIDTH=(\d+),RESOLUTION=\d+x(\d+)/g)].map(
      (m) => `${m[3]}p ${(Number(m[2]) / 1e6).toFixed(2)} (peak ${(Number(m[1]) / 1e6).toFixed(2)})`,
    );
    const mp4 = await fetch(new URL(video.urlVideo, server.url), { method: 'HEAD' });
    const mp4Rate = (Number(mp4.headers.get('content-length')) * 8) / SECONDS / 1e6;
    console.log(`processed in ${processingSeconds.toFixed(0)} s; ladder (Mbit/s): ${ladder.join(', ')}; progressive MP4 ${mp4Rate.toFixed(2)} Mbit/s`);

    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const load = os.loadavg().map((l) => l.toFixed(2)).join(', ');
    const runs: Run[] = [];
    for (const link of LINKS) {
      for (const mode of ['HLS', 'MP4'] as const) {
        // Each run is a first viewing: the position the previous run saved would make the page resume there.
        await apiOk(server.url, 'PATCH', `/api/videos/${videoId}`, 200, {
          token,
          body: [{ op: 'replace', path: '/posicion', value: 0 }],
          headers: { 'Content-Type': 'application/json-patch+json' },
        });
        const run = await playOnce(browser, server.url, token, videoId, video.urlVideo, link, mode);
        runs.push(run);
        console.log(
          `${link.name} ${mode}: first frame ${run.ttffSeconds?.toFixed(2) ?? 'never'} s, ${run.stalls} stall(s) ${run.stallSeconds.toFixed(1)} s` +
            `${link.change ? ` (${run.stallsAfterChange} after the drop)` : ''}, played ${run.played.toFixed(1)} s in ${run.wallSeconds.toFixed(0)} s` +
            `${mode === 'HLS' ? `; heights ${heightsText(run.heights)}` : ''}`,
        );
      }
    }

    const find = (id: Link['id'], mode: Mode) => runs.find((r) => r.link.id === id && r.mode === mode)!;
    const ttff = (r: Run) => (r.ttffSeconds === null ? 'never' : `${r.ttffSeconds.toFixed(2)} s`);
    const rows = LINKS.map((link) => {
      const hls = find(link.id, 'HLS');
      const mp4Run = find(link.id, 'MP4');
      const stalls = (r: Run) => `${r.stalls}${link.change ? ` (${r.stallsAfterChange} after the drop)` : ''}`;
      return [
        `${link.name}; ${link.playSeconds} s played`,
        ttff(hls),
        ttff(mp4Run),
        stalls(hls),
        stalls(mp4Run),
        `${hls.stallSeconds.toFixed(1)} s`,
        `${mp4Run.stallSeconds.toFixed(1)} s`,
        heightsText(hls.heights),
      ];
    });
    const a = { hls: find('a', 'HLS'), mp4: find('a', 'MP4') };
    const b = find('b', 'HLS');
    const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
    const aTtff = a.hls.ttffSeconds ?? Infinity;
    const ratio = a.mp4.ttffSeconds ? aTtff / a.mp4.ttffSeconds : Infinity;
    const goals = [
      ['HLS time to first frame on slow 4G', `${ttff(a.hls)} (goal ≤ 1.5 s: ${met(aTtff <= 1.5)})`],
      ['HLS ÷ MP4 time to first frame on slow 4G', `${ratio.toFixed(2)}× (goal ≤ 0.5×: ${met(ratio <= 0.5)})`],
      ['HLS stalls after the drop to 1 Mbit/s', `${b.stallsAfterChange}, ${b.stallSeconds.toFixed(1)} s stalled in all (goal 0: ${met(b.stallsAfterChange === 0 && b.ttffSeconds !== null)})`],
    ];
    for (const [figure, result] of goals) console.log(`${figure}: ${result}`);

    reportSection(
      'playback',
      'Playback on throttled links',
      `One ${SECONDS} s 1920×1080 video at ${os.availableParallelism()} cores, load average ${load} when the browser runs started, ` +
        `${new Date().toISOString().slice(0, 10)}, ${version}. The source: generateTestVideo (testsrc2 with a label and clock, ` +
        `temporal noise of strength ${NOISE}, ${15} fps, x264 ultrafast CRF 30), ${(sourceBytes / 1e6).toFixed(1)} MB = ${sourceRate.toFixed(2)} Mbit/s; ` +
        `uploaded and processed by the built server itself (${processingSeconds.toFixed(0)} s to the whole ladder). ` +
        `Ladder, average (peak) Mbit/s: ${ladder.join(', ')}; progressive MP4 ${mp4Rate.toFixed(2)} Mbit/s. ` +
        `Chromium ${browser.version()} headless, viewport ${VIEWPORT.width}×${VIEWPORT.height}, a fresh context per run, cache off, ` +
        `DevTools network emulation (latency = round trip); link (b) has 40 ms before the drop and 150 ms after it. ` +
        `HLS: the video's page as shipped (hls.js), started with «Reproducir»; MP4: \`urlVideo\` in a plain ` +
        `<video preload="metadata"> page of the same origin (the product has no switch forcing its player to the MP4). ` +
        `Time to first frame: the play request on a loaded page (metadata known) to the first frame shown (requestVideoFrameCallback); ` +
        `stalls: \`waiting\` after the first frame, stall seconds until \`playing\`. One run of each.\n\n` +
        markdownTable(['link', 'first frame HLS', 'first frame MP4', 'stalls HLS', 'stalls MP4', 'stalled HLS', 'stalled MP4', 'HLS heights shown'], rows) +
        '\n\n' +
        markdownTable(['goal', 'result'], goals),
    );
  } finally {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
