import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { subtitleTracksMachine } from '../../../../machines/subtitle-tracks/subtitle-tracks.machine.ts';
import type { DeleteTrackInput, PutTrackInput, Subtitulo } from '../../../../machines/subtitle-tracks/subtitle-tracks.types.ts';
import { deleteSubtitleTrack, listSubtitleTracks, putSubtitleFile, refreshAfterSubtitles } from '../upload/subtitles.actors.ts';

/**
 * The edit dialog's Subtítulos section as the app runs it (R-ADM-7…9): the typed client's
 * GET / PUT / DELETE of the video's tracks; each change refreshes the cached videos (badge, filter,
 * the player's tracks).
 */
export function createSubtitleTracksLogic(queryClient: QueryClient) {
  return subtitleTracksMachine.provide({
    actors: {
      listTracks: fromPromise<Subtitulo[], { videoId: number }>(({ input, signal }) => listSubtitleTracks(input.videoId, signal)),
      // Not tied to the dialog's lifetime: once sent, the caches still follow.
      putTrack: fromPromise<Subtitulo, PutTrackInput>(async ({ input }) => {
        const track = await putSubtitleFile(input.videoId, input.idioma, input.file);
        refreshAfterSubtitles(queryClient, input.videoId);
        return track;
      }),
      deleteTrack: fromPromise<void, DeleteTrackInput>(async ({ input }) => {
        await deleteSubtitleTrack(input.videoId, input.idioma);
        refreshAfterSubtitles(queryClient, input.videoId);
      }),
    },
  });
}

export type SubtitleTracksLogic = ReturnType<typeof createSubtitleTracksLogic>;
