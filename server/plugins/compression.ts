import zlib from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';

/**
 * JSON answers of 1 KB or more are compressed as they are sent (brotli at quality 4, a fraction of
 * the time of 11, or gzip, as the client accepts): JSON and problem+json, and whatever else
 * @fastify/compress's type list calls compressible text. Media (video/mp4, image/jpeg), Range
 * answers (206) and the SPA's files (precompressed by the build, server/plugins/spa.ts) go as they
 * are; request bodies are never decompressed.
 */
export const API_COMPRESSION = {
  global: true,
  threshold: 1024,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  customTypes: /^application\/(?:problem\+)?json(?:;|$)/,
  globalDecompression: false,
} satisfies FastifyCompressOptions;

/** The bytes of an answer as they were before the Content-Encoding it was sent with (br, gzip or none). */
export function decoded(body: Buffer, contentEncoding: unknown): Buffer {
  if (contentEncoding === 'br') return zlib.brotliDecompressSync(body);
  if (contentEncoding === 'gzip') return zlib.gunzipSync(body);
  return body;
}
