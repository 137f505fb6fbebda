/**
 * Does dropping many files at once beat uploading them one after another (R-UPL-14)? Makes one
 * H.264/AAC MP4 of about `MB` megabytes with ffmpeg (640×360 at 25 fps, a high constant video
 * bitrate so the file is big while its processing stays light on 2 cores: an MP4 every browser plays
 * is kept as sent, R-UPL-4), copies it `FILES` times under distinct names, and then, each time on a
 * fresh built server (bench/built-server.ts) in Chromium:
 *  - at once: the `FILES` files dropped together on 'Subir video' (the queue transfers two at a
 *    time), timed from the drop until every row says 'Listo' (transferred and processed);
 *  - one after another, as the single-file wizard allowed: one file chosen, waited for until
 *    'Listo', its short description typed, 'Confirmar', the next; timed from the first choice until
 *    the last file is 'Listo' (the confirmations in between included; their share is printed apart).
 * It prints both times, their ratio (goal ≤ 0.7) and the server's memory growth during the batch
 * (goal < 200 MB): the resident set (VmRSS of /proc/<pid>/status) sampled every 50 ms, its peak
 * minus its value just before the drop. Local only: it stops by itself and removes its files.
 *
 *   npx tsx bench/bulk-upload.ts [files, default 10] [MB per file, default 100]
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { mediaTools } from '../server/media/ffmpeg.ts';
import { freePort, registerWithInvitation, startBuiltServer, type BuiltServer } from './built-server.ts';
import { formatRatio, markdownTable, reportSection } from './report.ts';

const run = promisify(execFile);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** tests/e2e/harness.ts launchBrowser's flags */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const HARD_LIMIT_MS = 40 * 60_000;
const VIDEO_MBIT = 20;
const MB = 1e6;

const files = Number(process.argv[2] ?? 10);
const megabytes = Number(process.argv[3] ?? 100);

/** One MP4 of about `megabytes` MB: testsrc2 at 640×360, H.264 at VIDEO_MBIT Mbit/s, AAC, moov first. */
async function makeSource(out: string): Promise<void> {
  const seconds = Math.max(2, Math.round((megabytes * MB * 8) / ((VIDEO_MBIT + 0.128) * 1e6)));
  await run(mediaTools().ffmpeg, [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    '-b:v', `${VIDEO_MBIT}M`, '-minrate', `${VIDEO_MBIT}M`, '-maxrate', `${VIDEO_MBIT}M`, '-bufsize', `${VIDEO_MBIT}M`, '-x264-params', 'nal-hrd=cbr',
    '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', out,
  ]);
}

function rss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Samples the server's resident memory every 50 ms until stopped; answers the peak. */
function sampleRss(pid: number): () => number {
  let peak = rss(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rss(pid));
    } catch {
      /* the process ended */
    }
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rss(pid));
  };
}

interface Session {
  server: BuiltServer;
  page: Page;
  dataDir: string;
}

async function open(browser: Browser): Promise<Session> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-bulk-data-'));
  const server = await startBuiltServer({ dataDir, port: await freePort() });
  const token = await registerWithInvitation(server.url, server.firstAdminToken()!, 'bench.admin', 'una contraseña larga de prueba 1');
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'es-ES' });
  await page.goto(`${server.url}/`);
  await page.evaluate((value) => window.localStorage.setItem('token', value), token);
  await page.goto(`${server.url}/videos`);
  return { server, page, dataDir };
}

async function close({ server, page, dataDir }: Session): Promise<void> {
  await page.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const wizard = (page: Page) => page.getByRole('dialog', { name: 'Subir video' });

async function openDialog(page: Page): Promise<void> {
  await page.getByRole('button', { name: /\(Menú de usuario\)/ }).click();
  await page.getByRole('menuitem', { name: 'Subir video' }).click();
  await wizard(page).waitFor();
}

/** Waits until `count` rows say 'Listo' (each row's state carries `data-status`). */
async function allReady(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelectorAll('[role="dialog"] [data-status="ready"]').length === n,
    count,
    { timeout: HARD_LIMIT_MS, polling: 100 },
  );
}

async function atOnce(browser: Browser, paths: string[]): Promise<{ ms: number; growth: number }> {
  const session = await open(browser);
  try {
    await openDialog(session.page);
    const before = rss(session.server.pid);
    const peak = sampleRss(session.server.pid);
    const started = performance.now();
    await wizard(session.page).locator('input[type="file"]').first().setInputFiles(paths);
    await allReady(session.page, paths.length);
    const ms = performance.now() - started;
    return { ms, growth: peak() - before };
  } finally {
    await close(session);
  }
}

async function oneAfterAnother(browser: Browser, paths: string[]): Promise<{ ms: number; confirmMs: number }> {
  const session = await open(browser);
  const { page } = session;
  try {
    let confirmMs = 0;
    const started = performance.now();
    for (const [index, file] of paths.entries()) {
      await openDialog(page);
      await wizard(page).locator('input[type="file"]').first().setInputFiles(file);
      await allReady(page, 1);
      if (index === paths.length - 1) break;
      const confirming = performance.now();
      await wizard(page).getByRole('textbox', { name: 'Descripción corta' }).fill('Una grabación de prueba');
      await wizard(page).getByRole('button', { name: 'Confirmar' }).click();
      await wizard(page).waitFor({ state: 'hidden' });
      confirmMs += performance.now() - confirming;
    }
    return { ms: performance.now() - started, confirmMs };
  } finally {
    await close(session);
  }
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tao-bench-bulk-'));
  const limit = setTimeout(() => {
    console.error(`bench/bulk-upload.ts: over ${HARD_LIMIT_MS / 60_000} min, stopping`);
    fs.rmSync(work, { recursive: true, force: true });
    process.exit(1);
  }, HARD_LIMIT_MS);
  let browser: Browser | undefined;
  try {
    const source = path.join(work, 'source.mp4');
    const madeAt = performance.now();
    await makeSource(source);
    const size = fs.statSync(source).size;
    console.log(`source: ${(size / MB).toFixed(1)} MB in ${((performance.now() - madeAt) / 1000).toFixed(0)} s`);
    const paths = Array.from({ length: files }, (_, index) => path.join(work, `grabacion-${String(index + 1).padStart(2, '0')}.mp4`));
    for (const file of paths) fs.copyFileSync(source, file);

    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const load = os.loadavg().map((value) => value.toFixed(2)).join(', ');
    const batch = await atOnce(browser, paths);
    console.log(`at once: ${(batch.ms / 1000).toFixed(1)} s, memory growth ${(batch.growth / MB).toFixed(0)} MB`);
    const serial = await oneAfterAnother(browser, paths);
    console.log(`one after another: ${(serial.ms / 1000).toFixed(1)} s (confirmations ${(serial.confirmMs / 1000).toFixed(1)} s)`);
    const ratio = batch.ms / serial.ms;
    reportSection(
      'bulk-upload',
      "Many files at once in 'Subir video' (bench/bulk-upload.ts)",
      `${files} files of ${(size / MB).toFixed(1)} MB (one ffmpeg MP4: testsrc2 640×360 at 25 fps, H.264 at ${VIDEO_MBIT} Mbit/s CBR ` +
        `ultrafast, AAC 128 kbit/s, moov first; kept as sent by the processing), uploaded from Chromium to a fresh built server on ` +
        `127.0.0.1, ${os.cpus().length} cores, load ${load} at the start (${new Date().toISOString().slice(0, 10)}).\n\n` +
        markdownTable(
          ['measure', 'result'],
          [
            ['at once (dropped together, two transferring at a time), until every row is Listo', `${(batch.ms / 1000).toFixed(1)} s`],
            ['one after another (choose, Listo, Confirmar, next), until the last is Listo', `${(serial.ms / 1000).toFixed(1)} s (of which confirming ${(serial.confirmMs / 1000).toFixed(1)} s)`],
            ['ratio at once / one after another (goal ≤ 0.7)', formatRatio(ratio, { atMost: 0.7, percent: false })],
            ['server memory growth during the batch (peak VmRSS − before; goal < 200 MB)', `${(batch.growth / MB).toFixed(0)} MB ${batch.growth < 200 * MB ? '(pass)' : '(FAIL)'}`],
          ],
        ),
    );
  } finally {
    clearTimeout(limit);
    await browser?.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) await main();
