import { useState } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, notFound } from '@tanstack/react-router';
import { createVideoDetailLogic } from '../../../features/videos/video.actors.ts';
import { VideoDetail } from '../../../features/videos/video-detail.tsx';
import { VideoPending } from '../../../features/videos/video-pending.tsx';
import { parseStartSecond, parseVideoId, type VideoSearch } from '../../../features/videos/video-id.ts';
import { openVideo, videoQuery } from '../../../features/videos/videos.queries.ts';
import { isApiError } from '../../../lib/api/api-error.ts';
import { documentTitle } from '../../../lib/first-screen-messages.ts';
import type { ToastInput } from '../../../../machines/toast/toast.types.ts';

/** /videos/{id}: the video detail page (R-VID-1). The list's filters are the layout's (_auth.tsx). */
export const Route = createFileRoute('/_auth/videos/$id')({
  validateSearch: (search: Record<string, unknown>): VideoSearch => {
    const t = parseStartSecond(search.t);
    return t === undefined ? {} : { t };
  },
  // Only a canonical id matches (decimal digits, no leading zeros, within the contract's range):
  // anything else is the 404 page, as an unknown path is.
  params: {
    parse: ({ id }) => {
      const videoId = parseVideoId(id);
      return videoId === null ? false : { id: videoId };
    },
    stringify: ({ id }) => ({ id: String(id) }),
  },
  // Each opening asks the server (it records the view, docs/decisions/0031-openings-views-seen-and-position.md); a preload is
  // not an opening and fetches nothing. A video the user may not see, or that does not exist, is 404.
  // With a single sign-on token pending nothing is asked: once it is exchanged and gone from the
  // address, these deps change, which is a new opening with the new session's token.
  loaderDeps: ({ search }) => ({ ssoPending: search.xwikiid !== undefined }),
  loader: async ({ context: { queryClient }, params: { id }, cause, deps }) => {
    if (cause === 'preload' || deps.ssoPending) return undefined;
    try {
      const video = cause === 'enter' ? await openVideo(queryClient, id) : await queryClient.ensureQueryData(videoQuery(id));
      return { title: video.titulo };
    } catch (error) {
      if (isApiError(error) && error.status === 404) throw notFound();
      throw error;
    }
  },
  // The page's title is the video's.
  head: ({ loaderData }) => ({ meta: [{ title: documentTitle(loaderData?.title) }] }),
  // A video slower than the router's pending threshold (a second) shows the header and a spinner.
  pendingComponent: VideoPending,
  component: VideoDetailRoute,
});

function VideoDetailRoute() {
  const { id } = Route.useParams();
  // R-VID-28: where the video starts (a search snippet's second, or a shared moment's).
  const { t } = Route.useSearch();
  const { queryClient, toasts } = Route.useRouteContext();
  const { data: video } = useSuspenseQuery(videoQuery(id));
  const [logic] = useState(() => createVideoDetailLogic(queryClient, toasts));
  const [notify] = useState(() => (toast: ToastInput) => void toasts.show(toast));
  return <VideoDetail key={video.id} video={video} {...logic} startAt={t} notify={notify} />;
}
