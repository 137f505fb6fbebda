import { Transform, type TransformCallback } from 'node:stream';

/**
 * What an upload location takes: the content types it accepts, and the leading bytes the file must
 * start with whatever its content type says (a PNG renamed .mp4 is refused).
 */
export type UploadKind = 'video' | 'thumbnail';

export const ACCEPTED_TYPES: Record<UploadKind, readonly string[]> = {
  video: ['video/mp4', 'video/webm', 'video/quicktime', 'application/octet-stream'],
  thumbnail: ['image/png', 'image/jpeg', 'image/webp'],
};

/** A content type without parameters, lower-cased: `Video/MP4; codecs=…` → `video/mp4`. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function acceptsType(kind: UploadKind, contentType: string | undefined): boolean {
  return ACCEPTED_TYPES[kind].includes(mediaTypeOf(contentType));
}

/** Bytes enough to recognise every accepted format. */
export const SNIFF_BYTES = 12;

/** Boxes a QuickTime/MP4 file starts with (`ftyp` in every MP4; the others in older QuickTime files). */
const MP4_FIRST_BOXES: ReadonlySet<string> = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);
const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
/** An MPEG program stream's pack header (`.mpg`, a DVD's `.vob`). */
const MPEG_PACK = Buffer.from([0x00, 0x00, 0x01, 0xba]);
/** ASF, the container of Windows Media `.wmv` (its header object's GUID starts so). */
const ASF = Buffer.from([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]);
const FLV = Buffer.from([0x46, 0x4c, 0x56, 0x01]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/** Whether the leading bytes are those of a file the location takes (`head`: at least SNIFF_BYTES when the file has them). */
export function looksLike(kind: UploadKind, head: Buffer): boolean {
  if (kind === 'video') {
    // Processing rewrites what is not an MP4 every browser plays, so older containers are taken too.
    return (
      (head.length >= 8 && MP4_FIRST_BOXES.has(head.toString('latin1', 4, 8))) ||
      head.subarray(0, 4).equals(EBML) ||
      (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'AVI ') ||
      head.subarray(0, 4).equals(MPEG_PACK) ||
      head.subarray(0, 8).equals(ASF) ||
      head.subarray(0, 4).equals(FLV)
    );
  }
  return (
    head.subarray(0, 8).equals(PNG) ||
    head.subarray(0, 3).equals(JPEG) ||
    (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
  );
}

/** The file's leading bytes are not of a format its location takes. */
export class UnrecognisedContentError extends Error {
  constructor(readonly kind: UploadKind) {
    super(kind === 'video' ? 'the file is not an MP4, QuickTime, WebM/Matroska, AVI, MPEG, Windows Media or Flash video' : 'the file is not a PNG, JPEG or WebP image');
    this.name = 'UnrecognisedContentError';
  }
}

/**
 * A pass-through that holds back the first SNIFF_BYTES bytes until it has checked them: nothing of a
 * file of the wrong kind passes (it fails with UnrecognisedContentError, also for a shorter file).
 */
export function sniffingStream(kind: UploadKind): Transform {
  let head: Buffer | undefined = Buffer.alloc(0);
  const check = (stream: Transform, callback: TransformCallback) => {
    const bytes = head!;
    head = undefined;
    if (!looksLike(kind, bytes)) return callback(new UnrecognisedContentError(kind));
    stream.push(bytes);
    callback();
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (head === undefined) return callback(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < SNIFF_BYTES) return callback();
      check(this, callback);
    },
    flush(callback) {
      if (head === undefined) return callback();
      check(this, callback);
    },
  });
}
