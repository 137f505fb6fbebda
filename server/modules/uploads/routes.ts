import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, ServerModule } from '../../context.ts';
import { checkSignedPath } from '../../media/signed-urls.ts';
import type { OperationRequest } from '../../openapi/handlers.ts';
import { streamedBody } from '../../openapi/modules.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { Storage } from '../../storage/storage.ts';
import { recordVideoStreaming } from '../videos/videos.service.ts';
import { createUploadsService, SWEEP_EVERY_MS, type ContentRange, type IncomingFile } from './uploads.service.ts';

/** A video transfer that sends nothing for this long is ended (its bytes are kept for resuming). */
const IDLE_TRANSFER_MS = 120_000;

/** After a refusal, the rest of a body still arriving is read and dropped for this long, then the connection is closed. */
const LINGER_MS = 30_000;

/**
 * A refusal answered before the body has all arrived: the rest is read and dropped (closing at once
 * would reset the connection, and the client could lose the answer), for LINGER_MS at most.
 */
function discardRestOf(raw: IncomingMessage): void {
  if (raw.complete || raw.destroyed || typeof raw.resume !== 'function') return;
  const timer = setTimeout(() => raw.destroy(), LINGER_MS);
  timer.unref();
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}

function hasBody(request: FastifyRequest): boolean {
  return Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
}

/** `bytes first-last/total` or `bytes *\/total` (the contract checks the shape). */
function contentRangeOf(request: FastifyRequest): ContentRange | undefined {
  const header = request.headers['content-range'];
  if (header === undefined) return undefined;
  const match = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+)$/.exec(header);
  if (!match) throw new HttpProblem(400, 'validation-error', 'Content-Range: bytes <first>-<last>/<total> or bytes */<total>');
  const total = Number(match[3]);
  if (match[1] === undefined) {
    if (hasBody(request)) throw new HttpProblem(400, 'validation-error', 'Content-Range: bytes */<total> asks for the offset: send no body');
    return { kind: 'query', total };
  }
  return { kind: 'part', first: Number(match[1]), last: Number(match[2]), total };
}

/**
 * Upload sessions (admin) and the signed upload locations (public; the signature is the credential).
 * Files are streamed to storage as they arrive: the body is never parsed nor held in memory, and
 * Fastify's body limit does not apply (MAX_UPLOAD_BYTES does, in the service).
 */
export function uploadsModule(ctx: AppContext, storage: Storage = ctx.storage): ServerModule {
  // the HLS stage's heights reach the video made of the upload (the videos module owns that row)
  const uploads = createUploadsService(ctx, storage, { recordOnVideo: recordVideoStreaming });
  const sweep = async () => {
    try {
      const removed = await uploads.sweep();
      if (removed > 0) ctx.log.info({ removed }, 'uploads: removed abandoned uploads');
    } catch (error) {
      ctx.log.warn({ err: error }, 'uploads: could not remove abandoned uploads');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    name: 'uploads',
    contentTypeParsers: streamedBody(['video/*', 'image/*', 'application/octet-stream']),
    plugin: async (scope) => {
      scope.addHook('onReady', async () => {
        await uploads.startProcessing();
        await sweep();
        timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
        timer.unref();
      });
      scope.addHook('onClose', async () => {
        clearInterval(timer);
        await uploads.stopProcessing();
      });
    },
    handlers: {
      createUpload: async (request, reply) => {
        const session = await uploads.createUpload(request.principal!.userId, request.body);
        reply.code(201);
        return session;
      },
      getUpload: async (request) => uploads.getUpload(request.params.id),
      discardUpload: async (request, reply) => {
        await uploads.discardUpload(request.params.id);
        reply.code(204);
      },
      putUploadFile: async (request, reply) => {
        try {
          await receive(request, reply);
        } catch (error) {
          discardRestOf(request.raw);
          throw error;
        }
      },
    },
  };

  async function receive(request: OperationRequest<'putUploadFile'>, reply: FastifyReply): Promise<void> {
    const { id, file } = request.params;
    const { expires, signature } = request.query;
    // checked when the request starts: a transfer in progress is not cut when the location expires
    const check = checkSignedPath(ctx.secrets.urlKey, 'PUT', `/api/uploads/${id}/${file}`, expires, signature);
    if (check === 'expired') throw new HttpProblem(403, 'invalid-signature', 'this upload location has expired');
    if (check !== 'valid') throw new HttpProblem(403, 'invalid-signature', 'this upload location is not signed for this file');

    const length = request.headers['content-length'];
    const incoming: IncomingFile = {
      assetId: id,
      body: request.body as Readable | undefined,
      contentType: request.headers['content-type'],
      contentLength: length === undefined ? undefined : Number(length),
      range: contentRangeOf(request),
      cancel: () => request.raw.destroy(),
    };
    // a transfer that sends nothing for a while is ended (inject()'s simulated request has no timer);
    // once the body has arrived, storing it (flushing a large file) may take longer
    if (typeof request.raw.setTimeout === 'function') {
      request.raw.setTimeout(IDLE_TRANSFER_MS, () => request.raw.destroy());
      request.raw.once('end', () => request.raw.setTimeout(0));
    }
    if (file === 'thumbnail') {
      await uploads.receiveThumbnail(incoming);
      reply.code(204);
      await reply.send();
      return;
    }
    const { complete, offset } = await uploads.receiveVideo(incoming);
    if (incoming.range || !complete) reply.header('Upload-Offset', String(offset));
    reply.code(complete ? 204 : 202);
    await reply.send();
  }
}
