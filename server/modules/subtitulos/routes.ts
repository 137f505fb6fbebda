import type { FastifyRequest } from 'fastify';
import type { AppContext, ContentTypeParserSpec, ServerModule } from '../../context.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Caller } from '../videos/videos.service.ts';
import { deleteSubtitles, listSubtitles, putSubtitles, SUBTITLES_MAX_BYTES } from './subtitulos.service.ts';

function callerOf(request: FastifyRequest): Caller {
  if (!request.principal) throw new HttpProblem(401, 'invalid-access-token', 'no session');
  return { userId: request.principal.userId, role: request.principal.role, user: request.principal.user };
}

/**
 * The files' bytes as they came: the encoding is told from them (UTF-8, UTF-16, Windows-1252), not
 * from a charset parameter senders get wrong.
 */
const rawBytes = (contentType: string): ContentTypeParserSpec => ({ contentType, parseAs: 'buffer', parser: async (_request: FastifyRequest, body: Buffer) => body });

/** A video's subtitle tracks (openapi.yaml tag `subtitulos`); the files are in `storage`, served by the media module. */
export function subtitulosModule(ctx: AppContext, storage: Storage = ctx.storage): ServerModule {
  return {
    name: 'subtitulos',
    bodyLimits: { putSubtitles: SUBTITLES_MAX_BYTES },
    contentTypeParsers: [rawBytes('text/vtt'), rawBytes('application/x-subrip')],
    handlers: {
      listSubtitles: async (request) => listSubtitles(ctx, callerOf(request), request.params.id),
      putSubtitles: async (request, reply) => {
        const body = request.body as unknown as Buffer;
        const { subtitulo, created } = await putSubtitles(ctx, storage, callerOf(request), request.params.id, request.params.idioma, body);
        reply.code(created ? 201 : 200);
        return subtitulo;
      },
      deleteSubtitles: async (request, reply) => {
        await deleteSubtitles(ctx, storage, callerOf(request), request.params.id, request.params.idioma);
        reply.code(204).send();
      },
    },
  };
}
