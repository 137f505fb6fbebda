import { createFileRoute } from '@tanstack/react-router';
import { VideoLibrary } from '../../../features/videos/video-library.tsx';
import { listFiltersToLoad } from '../../../features/videos/video-filters.storage.ts';
import { addressOf, videoSearchKeys, type VideoSearch } from '../../../features/videos/video-search.ts';
import { tagsQuery, videoListQuery } from '../../../features/videos/videos.queries.ts';
import { appLabels } from '../../../components/app-labels.ts';
import { documentTitle } from '../../../lib/first-screen-messages.ts';
import { briefly, hasEarlyRead } from '../../../lib/api/early-responses.ts';

/**
 * /videos (R-LIB-12). The list's filters are validated by the authenticated layout
 * (src/routes/_auth.tsx). The loader primes the list the page will show and the tags: it waits a
 * moment for a list the document asked for early (`briefly`), not for others; the page shows its
 * placeholder cards while they load or when they fail.
 */
export const Route = createFileRoute('/_auth/videos/')({
  // The filters as the address writes them: the list's query is worked out in the loader, which
  // comes with the page's code (the route tree, in the first screen, does not carry it).
  loaderDeps: ({ search }) => pickVideoSearch(search),
  loader: ({ context: { queryClient, ssoPending }, deps }) => {
    if (ssoPending) return;
    void queryClient.prefetchQuery(tagsQuery());
    // null: the address has no filters but the session has stored ones, which the page restores first.
    const query = listFiltersToLoad(deps);
    if (!query) return;
    const early = hasEarlyRead('/api/videos');
    const list = queryClient.prefetchInfiniteQuery(videoListQuery(query));
    // The first page asked for with the document is usually here: one render with the cards instead of
    // placeholders first, then the cards (docs/decisions/0063-first-render-in-slices.md).
    if (early) return briefly([list]);
  },
  head: () => ({ meta: [{ title: documentTitle(appLabels.videos) }] }),
  component: VideosPage,
});

/** Only the list's filters (the layout's search also has single sign-on's token). */
function pickVideoSearch(search: VideoSearch): VideoSearch {
  return Object.fromEntries(videoSearchKeys.map((key) => [key, search[key]]));
}

function VideosPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const { queryClient, toasts, auth } = Route.useRouteContext();
  return (
    <VideoLibrary
      search={search}
      navigate={({ search: filters, replace }) => void navigate({ search: (previous) => ({ ...previous, ...addressOf(filters) }), replace })}
      queryClient={queryClient}
      toasts={toasts}
      isAdmin={auth.isAdmin()}
    />
  );
}
