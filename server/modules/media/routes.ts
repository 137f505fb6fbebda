import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, ServerModule } from '../../context.ts';
import { checkSignedPath, checkStreamSignature, mediaPath, storedFileName, type MediaFile } from '../../media/signed-urls.ts';
import { THUMBNAIL_SMALL_WEBP, THUMBNAIL_WEBP } from '../../media/thumbnails.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import { MEMORY_READ_MAX_BYTES, type OpenedFile, type Storage } from '../../storage/storage.ts';
import { decideRange, entityTag, httpDate, ifRangeHolds, noneMatchFails, notModifiedSince } from './http-conditions.ts';

const CONTENT_TYPES: Record<string, string> = {
  'video.mp4': 'video/mp4',
  'preview.mp4': 'video/mp4',
  'thumbnail.jpg': 'image/jpeg',
};
const contentTypeOf = (file: MediaFile): string => CONTENT_TYPES[file] ?? 'text/vtt; charset=utf-8';

/** Streaming files by extension (the contract's pattern admits only these four). */
const STREAM_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  mp4: 'video/mp4',
  vtt: 'text/vtt',
  jpg: 'image/jpeg',
};

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);

/**
 * The client names WebP among the types it accepts (browsers do for images: `image/avif,image/webp,…`),
 * not through `image/*` or `*\/*`, which some clients send without decoding it.
 */
function acceptsWebp(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((entry) => {
    const [type, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (type !== 'image/webp') return false;
    const q = params.find((param) => param.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * GET (and HEAD, which Fastify answers from the GET route) of a signed media location (getMedia) and
 * of a file under a signed streaming prefix (getStreamFile,
 * docs/decisions/0110-signed-streaming-locations.md): the
 * signature first (403 `invalid-signature`, also once expired), then the file (404), then
 * conditional requests (304) and byte ranges (206 / 416), streamed from storage.
 */
export function mediaModule(ctx: AppContext, storage: Storage = ctx.storage): ServerModule {
  return {
    name: 'media',
    handlers: {
      getMedia: async (request, reply) => {
        const { id } = request.params;
        // The contract's pattern admits only media files (a subtitle track's among them).
        const file = request.params.file as MediaFile;
        const { expires, signature, w } = request.query;
        const now = Date.now();
        // A HEAD request uses the location signed for GET: it asks for the same thing without the bytes.
        const check = checkSignedPath(ctx.secrets.urlKey, 'GET', mediaPath(id, file), expires, signature, now);
        if (check === 'expired') throw new HttpProblem(403, 'invalid-signature', 'this media location has expired');
        if (check !== 'valid') throw new HttpProblem(403, 'invalid-signature', 'this media location is not signed for this file');

        // A thumbnail's WebP copy to a browser that accepts it (about half the bytes), else the JPEG;
        // caches keep one answer per Accept (docs/decisions/0040-thumbnails-previews-and-webp-copies.md). With `w`, the
        // card-sized copy when there is one (docs/decisions/0040-thumbnails-previews-and-webp-copies.md).
        const webp = file === 'thumbnail.jpg' && acceptsWebp(header(request.headers.accept));
        if (file === 'thumbnail.jpg') reply.header('Vary', 'Accept');
        const copies = w === undefined ? [THUMBNAIL_WEBP] : [THUMBNAIL_SMALL_WEBP, THUMBNAIL_WEBP];
        let stored: OpenedFile | undefined;
        let served: string = file;
        for (const copy of webp ? copies : []) {
          stored = await storage.open(id, copy);
          if (stored) {
            served = copy;
            break;
          }
        }
        const opened: OpenedFile | undefined = stored ?? (await storage.open(id, storedFileName(file)));
        if (!opened) throw new HttpProblem(404, 'resource-not-found', 'this media file does not exist');
        await sendStoredFile(request, reply, { assetId: id, name: served, opened, contentType: stored ? 'image/webp' : contentTypeOf(file), maxAge: Math.max(0, expires - Math.floor(now / 1000)) });
      },
      getStreamFile: async (request, reply) => {
        const { id, expires, signature, file } = request.params;
        const now = Date.now();
        // One signature for the asset's whole prefix, so the names inside playlists need none of their own.
        const check = checkStreamSignature(ctx.secrets.urlKey, id, expires, signature, now);
        if (check === 'expired') throw new HttpProblem(403, 'invalid-signature', 'this streaming location has expired');
        if (check !== 'valid') throw new HttpProblem(403, 'invalid-signature', 'this streaming location is not signed for this asset');
        const opened = await storage.open(id, file);
        if (!opened) throw new HttpProblem(404, 'resource-not-found', 'this streaming file does not exist');
        const contentType = STREAM_TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
        // A master playlist gains renditions as they become ready: caches revalidate playlists (304)
        // instead of keeping one for the prefix's 12 hours.
        const maxAge = file.endsWith('.m3u8') ? 0 : Math.max(0, expires - Math.floor(now / 1000));
        await sendStoredFile(request, reply, { assetId: id, name: file, opened, contentType, maxAge });
      },
    },
  };
}

/** A stored file to answer: its address (for the entity tag), its type and how long a private cache may keep it. */
interface StoredAnswer {
  assetId: string;
  /** the stored name served (a thumbnail's WebP copy has its own validator) */
  name: string;
  opened: OpenedFile;
  contentType: string;
  /** seconds, never beyond the expiry of the signed location */
  maxAge: number;
}

/**
 * Answers an opened file for every signed media route: validators and the cache lifetime, then
 * conditional requests (304) and byte ranges (206 / 416), streamed from storage; HEAD without the body.
 * The file is closed here when no stream is read.
 */
async function sendStoredFile(request: FastifyRequest, reply: FastifyReply, { assetId, name, opened, contentType, maxAge }: StoredAnswer): Promise<void> {
  let streaming = false;
  try {
    const etag = entityTag(assetId, name, opened.size, opened.modified);
    // Validators and caching: a private cache may keep the file no longer than its location is valid.
    reply.header('ETag', etag);
    reply.header('Last-Modified', httpDate(opened.modified));
    reply.header('Cache-Control', `private, max-age=${maxAge}`);
    reply.header('Accept-Ranges', 'bytes');

    const ifNoneMatch = header(request.headers['if-none-match']);
    const notModified =
      ifNoneMatch !== undefined ? noneMatchFails(ifNoneMatch, etag) : notModifiedSince(header(request.headers['if-modified-since']), opened.modified);
    if (notModified) {
      reply.code(304);
      await reply.send();
      return;
    }

    // Range applies to GET only (RFC 9110 §14.2); HEAD describes the whole file.
    const rangeHeader = request.method === 'GET' && ifRangeHolds(header(request.headers['if-range']), etag, opened.modified) ? request.headers.range : undefined;
    const range = decideRange(rangeHeader, opened.size);
    if (range.kind === 'unsatisfiable') {
      for (const name of ['ETag', 'Last-Modified', 'Cache-Control', 'Accept-Ranges']) reply.removeHeader(name);
      throw new HttpProblem(416, 'range-not-satisfiable', `the file has ${opened.size} bytes`, undefined, {
        'Content-Range': `bytes */${opened.size}`,
      });
    }

    reply.type(contentType);
    const sent = range.kind === 'partial' ? { start: range.start, end: range.end } : { start: 0, end: opened.size - 1 };
    if (range.kind === 'partial') {
      reply.code(206);
      reply.header('Content-Range', `bytes ${range.start}-${range.end}/${opened.size}`);
    } else {
      reply.code(200);
    }
    reply.header('Content-Length', String(sent.end - sent.start + 1));
    if (request.method === 'HEAD') {
      await reply.send(Readable.from([]));
      return;
    }
    streaming = true;
    if (opened.readBytes && sent.end - sent.start < MEMORY_READ_MAX_BYTES) {
      // A player's 1 MiB range or a picture: one read into a reused buffer and one write, instead of
      // a stream (docs/decisions/0033-media-ranges-and-conditional-requests.md). The buffer is reused once sent.
      const { bytes, release } = await opened.readBytes(sent);
      reply.raw.once('finish', release);
      await reply.send(bytes);
      return;
    }
    // A whole file is read without a range: an object store is then asked for the object, not for
    // `bytes=0-(size-1)`, which an empty file (`bytes=0--1`) cannot be.
    await reply.send(opened.createReadStream(range.kind === 'partial' ? sent : undefined));
  } finally {
    if (!streaming) await opened.close();
  }
}
