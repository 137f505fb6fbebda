/**
 * The upload wizard's real actors: the video's PUT (XMLHttpRequest, here a fake one behind a location
 * that keeps what arrives as the protocol says), the thumbnail's PUT and POST /api/videos's body.
 */
import { describe, expect, it, vi } from 'vitest';
import type { SendFileEvent, SendFileInput } from '../../../../machines/upload-queue/upload-file.types.ts';
import { http, problem, server } from '../../../../tests/utils/msw.ts';
import { createFakeUploadTarget, type FakeUploadTarget } from './fake-upload-target.test-support.ts';
import { uploadContentType } from '../../../../machines/upload-queue/upload-file.machine.ts';
import { transferFile, uploadThumbnailFile, videoCreateBody } from './upload.actors.ts';

const SIZE = 1000;
const ASSET = 'asset-upload-0001';
const LOCATION = `/api/uploads/${ASSET}/video?expires=1&signature=a`;
const FRESH_LOCATION = `/api/uploads/${ASSET}/video?expires=2&signature=b`;
const file = (type = 'video/mp4', size = SIZE) => new File([new Uint8Array(size)], 'clip.mp4', { type });
const input = (resume: boolean, video = file()): SendFileInput => ({ assetId: ASSET, uploadUrl: LOCATION, file: video, resume });

/** Starts a transfer against the fake location; collects what it reports. */
function start(
  target: FakeUploadTarget,
  options: { resume?: boolean; video?: File; now?: () => number; fresh?: string | null; retryDelays?: number[] } = {},
) {
  const reported: SendFileEvent[] = [];
  const controller = new AbortController();
  const freshVideoLocation = vi.fn(async () => options.fresh ?? null);
  const done = transferFile(input(options.resume ?? false, options.video), (event) => reported.push(event), controller.signal, {
    createRequest: () => new target.XMLHttpRequest(),
    now: options.now ?? (() => 0),
    freshVideoLocation,
    resumeRetryDelaysMs: options.retryDelays ?? [],
  });
  const waitForTransfer = () => vi.waitFor(() => expect(target.inFlight).toBe(true));
  const progress = () => reported.filter((event) => event.type === 'upload.progress').map((event) => event.loaded);
  return { reported, controller, done, waitForTransfer, progress, freshVideoLocation };
}

const absolute = (location: string) => new URL(location, window.location.origin).href;

describe('sendFile: the video to its signed location', () => {
  it('sends the whole file without Content-Range, reports progress, and ends with upload.sent on 204', async () => {
    const target = createFakeUploadTarget();
    const transfer = start(target);
    await transfer.waitForTransfer();
    expect(target.puts).toEqual([
      { url: absolute(LOCATION), headers: { 'content-type': 'video/mp4' }, bodySize: SIZE, aborted: false },
    ]);
    target.progress(420);
    target.complete();
    await transfer.done;
    expect(transfer.progress()).toEqual([0, 420, SIZE]);
    expect(transfer.reported.at(-1)).toEqual({ type: 'upload.sent' });
    expect(target.stored).toBe(SIZE);
  });

  it('after a cut, a resumed transfer asks the stored offset and sends only the rest; progress goes on from there', async () => {
    const target = createFakeUploadTarget();
    const first = start(target);
    await first.waitForTransfer();
    target.progress(300);
    target.cut(400);
    await first.done;
    expect(first.reported.at(-1)).toEqual({ type: 'upload.failed' });

    const resumed = start(target, { resume: true });
    await resumed.waitForTransfer();
    expect(target.puts.slice(1).map(({ headers, bodySize }) => ({ range: headers['content-range'], bodySize }))).toEqual([
      { range: `bytes */${SIZE}`, bodySize: null },
      { range: `bytes 400-${SIZE - 1}/${SIZE}`, bodySize: SIZE - 400 },
    ]);
    target.progress(100);
    target.complete();
    await resumed.done;
    // Never back to 0: from the stored 400 bytes on.
    expect(resumed.progress()).toEqual([400, 500, SIZE]);
    expect(resumed.reported.at(-1)).toEqual({ type: 'upload.sent' });
    expect(target.stored).toBe(SIZE);
  });

  it('a resumed transfer rides out a short outage: it asks again after each wait, then sends the rest', async () => {
    const target = createFakeUploadTarget();
    const first = start(target);
    await first.waitForTransfer();
    target.cut(600);
    await first.done;
    target.breakNext(2);
    const resumed = start(target, { resume: true, retryDelays: [5, 5, 5] });
    await resumed.waitForTransfer();
    expect(target.puts.slice(1).map((put) => put.headers['content-range'])).toEqual([
      `bytes */${SIZE}`,
      `bytes */${SIZE}`,
      `bytes */${SIZE}`,
      `bytes 600-${SIZE - 1}/${SIZE}`,
    ]);
    expect(resumed.reported).toEqual([{ type: 'upload.progress', loaded: 600, total: SIZE, rate: 0 }]);
    target.complete();
    await resumed.done;
    expect(resumed.reported.at(-1)).toEqual({ type: 'upload.sent' });
  });

  it('a resumed transfer gives up after its retries and shows the interruption again; a first one at once', async () => {
    const target = createFakeUploadTarget();
    target.breakNext(1);
    const first = start(target, { retryDelays: [5, 5, 5] });
    await first.done;
    expect(first.reported).toEqual([{ type: 'upload.progress', loaded: 0, total: SIZE, rate: 0 }, { type: 'upload.failed' }]);
    expect(target.puts).toHaveLength(1);

    target.breakNext(4);
    const resumed = start(target, { resume: true, retryDelays: [5, 5, 5] });
    await resumed.done;
    expect(resumed.reported).toEqual([{ type: 'upload.failed' }]);
    expect(target.puts).toHaveLength(5);
  });

  it('cancelling while a resumed transfer waits to try again stops it', async () => {
    const target = createFakeUploadTarget();
    target.breakNext(1);
    const resumed = start(target, { resume: true, retryDelays: [60_000] });
    await vi.waitFor(() => expect(target.puts).toHaveLength(1));
    resumed.controller.abort();
    await resumed.done;
    expect(resumed.reported).toEqual([]);
    expect(target.puts).toHaveLength(1);
  });

  it('a resumed transfer of a file the server already holds whole sends nothing more', async () => {
    const target = createFakeUploadTarget();
    const first = start(target);
    await first.waitForTransfer();
    target.complete();
    await first.done;
    const resumed = start(target, { resume: true });
    await resumed.done;
    expect(resumed.reported).toEqual([{ type: 'upload.sent' }]);
    expect(target.puts).toHaveLength(2);
  });

  it('continues from the Upload-Offset of a 409 upload-offset-mismatch', async () => {
    const target = createFakeUploadTarget();
    const transfer = start(target);
    await transfer.waitForTransfer();
    target.answer(409, { headers: { 'Upload-Offset': '250' }, type: 'upload-offset-mismatch' });
    // The fake location holds 0 bytes, so the range from 250 is refused in turn, then sent from 0.
    await transfer.waitForTransfer();
    expect(target.puts.map((put) => put.headers['content-range'])).toEqual([undefined, `bytes 250-${SIZE - 1}/${SIZE}`, `bytes 0-${SIZE - 1}/${SIZE}`]);
    target.complete();
    await transfer.done;
    expect(transfer.reported.at(-1)).toEqual({ type: 'upload.sent' });
  });

  it('a 409 conflict (the video is already whole) is a finished upload', async () => {
    const target = createFakeUploadTarget();
    const transfer = start(target);
    await transfer.waitForTransfer();
    target.answer(409, { type: 'conflict' });
    await transfer.done;
    expect(transfer.reported.at(-1)).toEqual({ type: 'upload.sent' });
  });

  it('an expired signature (403) gets a fresh location once, asks its offset there and goes on', async () => {
    const target = createFakeUploadTarget();
    const transfer = start(target, { fresh: FRESH_LOCATION });
    await transfer.waitForTransfer();
    target.answer(403, { type: 'invalid-signature' });
    await transfer.waitForTransfer();
    expect(transfer.freshVideoLocation).toHaveBeenCalledWith(ASSET, expect.any(AbortSignal));
    expect(target.puts.slice(1).map(({ url, headers }) => [url, headers['content-range']])).toEqual([
      [absolute(FRESH_LOCATION), `bytes */${SIZE}`],
      [absolute(FRESH_LOCATION), `bytes 0-${SIZE - 1}/${SIZE}`],
    ]);
    target.complete();
    await transfer.done;
    expect(transfer.reported.at(-1)).toEqual({ type: 'upload.sent' });
  });

  it.each([
    [415, 'unsupported-media-type', { type: 'upload.refused', reason: 'not-a-video' }],
    [413, 'payload-too-large', { type: 'upload.refused', reason: 'too-large' }],
    [500, 'internal-server-error', { type: 'upload.failed' }],
    [403, 'invalid-signature', { type: 'upload.failed' }],
  ])('answers %i (%s) with %o', async (status, type, expected) => {
    const target = createFakeUploadTarget();
    const transfer = start(target, { fresh: null });
    await transfer.waitForTransfer();
    target.answer(status, { type });
    await transfer.done;
    expect(transfer.reported.at(-1)).toEqual(expected);
  });

  it('cancelling aborts the request and reports nothing more', async () => {
    const target = createFakeUploadTarget();
    const transfer = start(target);
    await transfer.waitForTransfer();
    target.progress(100);
    transfer.controller.abort();
    await transfer.done;
    expect(target.puts[0]?.aborted).toBe(true);
    expect(target.inFlight).toBe(false);
    expect(transfer.reported).toEqual([
      { type: 'upload.progress', loaded: 0, total: SIZE, rate: 0 },
      { type: 'upload.progress', loaded: 100, total: SIZE, rate: 0 },
    ]);
  });

  it('reports the rate over the last seconds, in bytes per second', async () => {
    const target = createFakeUploadTarget();
    let clock = 0;
    const transfer = start(target, { video: file('video/mp4', 10_000_000), now: () => clock });
    await transfer.waitForTransfer();
    clock = 1000;
    target.progress(2_000_000);
    clock = 2000;
    target.progress(5_000_000);
    const rates = transfer.reported.flatMap((event) => (event.type === 'upload.progress' ? [event.rate] : []));
    expect(rates).toEqual([0, 2_000_000, 2_500_000]);
    transfer.controller.abort();
    await transfer.done;
  });

  it('sends a video type the location takes as such, anything else as bytes for the server to recognise', () => {
    expect(uploadContentType({ type: 'video/webm' })).toBe('video/webm');
    expect(uploadContentType({ type: 'video/quicktime' })).toBe('video/quicktime');
    expect(uploadContentType({ type: 'video/x-matroska' })).toBe('application/octet-stream');
    expect(uploadContentType({ type: '' })).toBe('application/octet-stream');
  });
});

describe('uploadThumbnail', () => {
  const THUMBNAIL = `/api/uploads/${ASSET}/thumbnail?expires=1&signature=t`;
  const picture = new File([new Uint8Array(16)], 'portada.png', { type: 'image/png' });

  it('PUTs the picture with its type to the signed location', async () => {
    const seen: Array<{ type: string | null; size: number; signature: string | null }> = [];
    server.use(
      http.put('/api/uploads/{id}/{file}', async ({ request, params, response }) => {
        expect(params).toEqual({ id: ASSET, file: 'thumbnail' });
        seen.push({
          type: request.headers.get('Content-Type'),
          size: (await request.arrayBuffer()).byteLength,
          signature: new URL(request.url).searchParams.get('signature'),
        });
        return response(204).empty();
      }),
    );
    await uploadThumbnailFile({ assetId: ASSET, uploadUrl: THUMBNAIL, file: picture }, new AbortController().signal);
    expect(seen).toEqual([{ type: 'image/png', size: 16, signature: 't' }]);
  });

  it('on 403 (expired) asks GET /api/uploads/{id} for a fresh location and PUTs there', async () => {
    const signatures: string[] = [];
    server.use(
      http.put('/api/uploads/{id}/{file}', ({ request, response }) => {
        const signature = new URL(request.url).searchParams.get('signature')!;
        signatures.push(signature);
        return signature === 'fresh' ? response(204).empty() : problem(403, 'invalid-signature');
      }),
      http.get('/api/uploads/{id}', ({ response }) =>
        response(200).json({
          assetId: ASSET,
          thumbnail: { uploadUrl: `/api/uploads/${ASSET}/thumbnail?expires=9&signature=fresh` },
          estado: 'ready',
          recibido: SIZE,
          duracion: 6,
          procesado: null,
          error: null,
        }),
      ),
    );
    await uploadThumbnailFile({ assetId: ASSET, uploadUrl: THUMBNAIL, file: picture }, new AbortController().signal);
    expect(signatures).toEqual(['t', 'fresh']);
  });

  it('rejects with the problem when the picture is refused', async () => {
    server.use(http.put('/api/uploads/{id}/{file}', () => problem(415, 'unsupported-media-type')));
    await expect(
      uploadThumbnailFile({ assetId: ASSET, uploadUrl: THUMBNAIL, file: picture }, new AbortController().signal),
    ).rejects.toMatchObject({ status: 415, type: 'unsupported-media-type' });
  });
});

describe('POST /api/videos body', () => {
  it('trims the texts, leaves out a blank long description, sends the tags and the asset', () => {
    expect(
      videoCreateBody(
        { assetId: ASSET, values: { titulo: '  Reunión ', descripcionCorta: ' Resumen ', descripcion: '   ', tags: [3, 1, 3], isVisible: false } },
        'root',
      ),
    ).toEqual({ isVisible: false, nombreUsuarioAlta: 'root', titulo: 'Reunión', descripcionCorta: 'Resumen', tags: [3, 1], idExterno: ASSET });
    expect(
      videoCreateBody({ assetId: ASSET, values: { titulo: 'Reunión', descripcionCorta: 'Resumen', descripcion: ' Larga ', tags: [], isVisible: true } }),
    ).toEqual({ isVisible: true, titulo: 'Reunión', descripcion: 'Larga', descripcionCorta: 'Resumen', tags: [], idExterno: ASSET });
  });
});
