import { useCallback, useState } from 'react';
import { createFileRoute, Outlet, retainSearchParams, useNavigate } from '@tanstack/react-router';
import { AuthArea } from '../features/auth/auth-area.tsx';
import { currentUserQuery } from '../features/auth/auth.queries.ts';
import { appSsoMachine } from '../features/auth/sso.actors.ts';
import { useTagAdmin } from '../features/tags/tag-admin.tsx';
import { useUserAdmin } from '../features/users/user-admin.tsx';
import { createUploadWizardLogic } from '../features/videos/upload/upload.actors.ts';
import { UploadVideoDialog } from '../features/videos/upload/upload-video-dialog.tsx';
import { validateVideoSearch, videoSearchKeys, type VideoSearch } from '../features/videos/video-search.ts';
import { tagKeys, videoKeys } from '../features/videos/videos.queries.ts';
import { ssoMessage } from '../lib/messages.ts';

interface AuthSearch extends VideoSearch {
  /** Single sign-on token (SPEC.md §2). */
  xwikiid?: string;
}

/** Pathless layout of /videos, /videos/{id} and /statistics: single sign-on, session, header. */
export const Route = createFileRoute('/_auth')({
  // The list's filters (SPEC.md §2) belong to the whole area: validated once here, for every page below.
  validateSearch: (search: Record<string, unknown>): AuthSearch => {
    const { xwikiid } = search;
    return {
      ...validateVideoSearch(search),
      ...(typeof xwikiid === 'string' || typeof xwikiid === 'number' ? { xwikiid: String(xwikiid) } : {}),
    };
  },
  search: {
    // Links and navigations inside the area keep the list's filters unless they set them: the header's
    // 'Ver estadísticas', 'Volver' on a video and on the statistics page all return to the same list.
    middlewares: [retainSearchParams<AuthSearch>([...videoSearchKeys])],
  },
  // While a single sign-on token is pending the session token is about to change: prime the
  // header's user once it is gone (a change of deps runs the loader again).
  loaderDeps: ({ search }) => ({ ssoPending: search.xwikiid !== undefined }),
  loader: ({ context: { queryClient, auth }, deps }) => {
    const user = auth.user();
    // Not awaited: the page never waits for the header's name, and a failure shows
    // 'Error obteniendo datos' (the query cache), not the error page.
    if (!deps.ssoPending && user !== null) void queryClient.prefetchQuery(currentUserQuery(user));
  },
  component: AuthLayout,
});

function AuthLayout() {
  const { xwikiid } = Route.useSearch();
  const navigate = useNavigate();
  const { auth, toasts, queryClient } = Route.useRouteContext();
  // The header's 'Subir video' (admin): a fresh wizard each time the dialog opens.
  const [uploadLogic] = useState(() => createUploadWizardLogic({ queryClient, toasts }));
  const [uploading, setUploading] = useState(false);
  const closeUpload = useCallback(() => setUploading(false), []);
  // The header's 'Administrar usuarios' (admin): the user list and its dialogs.
  const userAdmin = useUserAdmin({ queryClient, toasts, currentUser: () => auth.user() });
  // The header's 'Administrar etiquetas' (admin): its changes show at once in the cached tags (the
  // filter popover, the video form) and refresh what shows tag names (the cards, a video's page).
  const tagAdmin = useTagAdmin(queryClient, toasts, { tags: tagKeys.all, showingTags: [videoKeys.all] });

  return (
    <AuthArea
      ssoToken={xwikiid ?? null}
      onSsoTokenUsed={() => void navigate({ to: '.', search: ({ xwikiid: _used, ...rest }) => rest, replace: true })}
      // SPEC.md §4: single sign-on toasts are effectively persistent.
      onSsoFailure={(errorType) => toasts.show({ kind: 'error', message: ssoMessage(errorType ?? undefined), persistent: true })}
      sso={appSsoMachine}
      session={auth.session}
      onUploadVideo={() => setUploading(true)}
      onManageUsers={userAdmin.open}
      onManageTags={tagAdmin.open}
    >
      <Outlet />
      {uploading && <UploadVideoDialog logic={uploadLogic} onClose={closeUpload} />}
      {userAdmin.dialogs}
      {tagAdmin.dialogs}
    </AuthArea>
  );
}
