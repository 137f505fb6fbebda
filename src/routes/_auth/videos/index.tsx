import { createFileRoute } from '@tanstack/react-router';
import { VideoLibrary } from '../../../features/videos/video-library.tsx';
import { listFiltersToLoad } from '../../../features/videos/video-filters.storage.ts';
import { addressOf } from '../../../features/videos/video-search.ts';
import { tagsQuery, videoListQuery } from '../../../features/videos/videos.queries.ts';

/**
 * /videos (SPEC.md §2). The list's filters are validated by the authenticated layout
 * (src/routes/_auth.tsx). The loader primes the list the page will show and the tags, without
 * waiting for them: the page shows its placeholder cards while they load or when they fail.
 */
export const Route = createFileRoute('/_auth/videos/')({
  loaderDeps: ({ search }) => ({ query: listFiltersToLoad(search) }),
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(tagsQuery());
    // null: the address has no filters but the session has stored ones, which the page restores first.
    if (deps.query) void queryClient.prefetchInfiniteQuery(videoListQuery(deps.query));
  },
  component: VideosPage,
});

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
