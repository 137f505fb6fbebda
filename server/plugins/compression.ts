import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyCompressOptions } from '@fastify/compress';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Encoding = 'br' | 'gzip';
const ENCODINGS: Encoding[] = ['br', 'gzip'];
const THRESHOLD_BYTES = 1024;
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * JSON answers of 1 KB or more are compressed as they are sent (brotli at quality 4, a fraction of
 * the time of 11, or gzip, as the client accepts): JSON and problem+json, and whatever else
 * @fastify/compress's type list calls compressible text. Media (video/mp4, image/jpeg), Range
 * answers (206) and the SPA's files (precompressed by the build, server/plugins/spa.ts) go as they
 * are; request bodies are never decompressed. Answers sent again as the very same bytes are
 * compressed once (rememberedAnswer).
 */
export const API_COMPRESSION = {
  global: true,
  threshold: THRESHOLD_BYTES,
  encodings: ENCODINGS,
  brotliOptions: BROTLI_OPTIONS,
  customTypes: /^application\/(?:problem\+)?json(?:;|$)/,
  globalDecompression: false,
} satisfies FastifyCompressOptions;

/** The compressed forms made of each remembered answer, for as long as the answer itself is remembered. */
const compressedForms = new WeakMap<Buffer, Partial<Record<Encoding, Buffer>>>();

/**
 * An answer sent again and again as the very same Buffer (the list's remembered answers,
 * list-cache.ts), in the encoding the client accepts, chosen and made as API_COMPRESSION would —
 * but once per Buffer and encoding instead of at every request. Compressing a page of the list
 * costs ~150 µs of CPU with either encoding, more than the rest of a repeated list (docs/DECISIONS.md,
 * "A remembered list is compressed once"). Sets Content-Encoding and Vary (@fastify/compress then
 * leaves the answer as it is); small answers and clients that accept neither get the bytes as they are.
 */
export function rememberedAnswer(request: FastifyRequest, reply: FastifyReply, body: Buffer): Buffer {
  const accepted = request.headers['accept-encoding'];
  if (body.length < THRESHOLD_BYTES || !accepted) return body;
  // as @fastify/compress reads the header: `*` and `x-gzip` stand for gzip
  const encoding = negotiate(accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), ENCODINGS);
  if (encoding !== 'br' && encoding !== 'gzip') return body;
  let forms = compressedForms.get(body);
  if (!forms) compressedForms.set(body, (forms = {}));
  const compressed = (forms[encoding] ??= encoding === 'br' ? zlib.brotliCompressSync(body, BROTLI_OPTIONS) : zlib.gzipSync(body));
  reply.header('Content-Encoding', encoding).header('Vary', 'accept-encoding');
  return compressed;
}

/** The bytes of an answer as they were before the Content-Encoding it was sent with (br, gzip or none). */
export function decoded(body: Buffer, contentEncoding: unknown): Buffer {
  if (contentEncoding === 'br') return zlib.brotliDecompressSync(body);
  if (contentEncoding === 'gzip') return zlib.gunzipSync(body);
  return body;
}
