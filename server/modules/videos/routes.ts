import type { FastifyRequest } from 'fastify';
import type { AppContext, ServerModule } from '../../context.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import type { Storage } from '../../storage/storage.ts';
import { deleteVideos, patchVideos } from './videos-batch.service.ts';
import { createVideo, deleteVideo } from './videos-manage.service.ts';
import { replaceVideoFile } from './videos-replace.service.ts';
import { auditActor, getVideo, listVideos, patchVideo, type Caller } from './videos.service.ts';

function callerOf(request: FastifyRequest): Caller {
  if (!request.principal) throw new HttpProblem(401, 'invalid-access-token', 'no session');
  return { userId: request.principal.userId, role: request.principal.role, user: request.principal.user };
}

/**
 * The video library: the list with its filters and search, one video, the user's own rating,
 * favourite, seen mark and position; the administrators' creating, changing (thumbnail included)
 * and deleting of videos (one, or a selection at once), whose files are in `storage`, and replacing a
 * video's file.
 */
export function videosModule(ctx: AppContext, storage: Storage = ctx.storage): ServerModule {
  return {
    handlers: {
      listVideos: async (request, reply) => {
        const { videos, total } = await listVideos(ctx, callerOf(request), request.query);
        reply.header('X-Total-Count', String(total));
        return videos;
      },
      getVideo: async (request) => getVideo(ctx, callerOf(request), request.params.id),
      patchVideo: async (request) => patchVideo(ctx, callerOf(request), request.params.id, request.body, storage),
      createVideo: async (request, reply) => {
        const video = await createVideo(ctx, storage, callerOf(request), request.body);
        reply.code(201).header('Location', `/api/videos/${video.id}`);
        return video;
      },
      deleteVideo: async (request, reply) => {
        await deleteVideo(ctx, storage, request.params.id, auditActor(callerOf(request)));
        reply.code(204).send();
      },
      patchVideos: async (request) => patchVideos(ctx, callerOf(request), request.body),
      deleteVideos: async (request) => deleteVideos(ctx, storage, callerOf(request), request.query.ids),
      replaceVideoFile: async (request) => replaceVideoFile(ctx, storage, callerOf(request), request.params.id, request.body),
    },
  };
}
