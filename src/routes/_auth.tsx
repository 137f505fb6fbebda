import { useCallback, useEffect, useRef, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createFileRoute, Outlet, retainSearchParams, useNavigate } from '@tanstack/react-router';
import { AuthArea } from '../features/auth/auth-area.tsx';
import { currentUserQuery } from '../features/auth/auth.queries.ts';
import { endServerSession } from '../features/auth/server-session.ts';
import { appSsoMachine } from '../features/auth/sso.actors.ts';
import { UploadLauncherContext } from '../features/videos/upload/upload-launcher.ts';
import { validateVideoSearch, videoSearchKeys, type VideoSearch } from '../features/videos/video-search.ts';
import { tagKeys, videoKeys } from '../features/videos/videos.queries.ts';
import { lazyWithPreload } from '../lib/lazy-with-preload.tsx';
import { ssoMessage } from '../lib/messages.ts';
import type { ToastStore } from '../lib/toasts.ts';

interface AuthSearch extends VideoSearch {
  /** Single sign-on token (R-AUTH-8). */
  xwikiid?: string;
}

/** Pathless layout of /videos, /videos/{id} and /statistics: single sign-on, session, header. */
export const Route = createFileRoute('/_auth')({
  // The list's filters (R-LIB-12) belong to the whole area: validated once here, for every page below.
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
  // While a single sign-on token is pending the session token is about to change: the pages below
  // ask for nothing until it is exchanged (a read sent with no token, or with the one being replaced,
  // would only be refused or fetch somebody else's data). Their components ask once the gate opens.
  beforeLoad: ({ search }) => ({ ssoPending: search.xwikiid !== undefined }),
  // While a single sign-on token is pending the session token is about to change: prime the
  // header's user once it is gone (a change of deps runs the loader again).
  loaderDeps: ({ search }) => ({ ssoPending: search.xwikiid !== undefined }),
  loader: ({ context: { queryClient, auth }, deps }) => {
    // Leaving the session from this area ends it on the server too (POST /api/logout).
    auth.setServerSessionEnd(endServerSession);
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
  const [uploading, setUploading] = useState(false);
  // The wizard opens over no earlier toast: on a phone they lay over its buttons (docs/decisions/0022-session-dialogs-and-toasts.md).
  const openUpload = useCallback(() => {
    toasts.closeTransient();
    setUploading(true);
  }, [toasts]);
  const closeUpload = useCallback(() => setUploading(false), []);
  // The header's 'Administrar usuarios' and 'Administrar etiquetas' (admin): each counts its openings;
  // its dialogs' code is loaded at the first one and stays mounted (and its dialogs' state) afterwards.
  const [userAdminOpenings, setUserAdminOpenings] = useState(0);
  const [tagAdminOpenings, setTagAdminOpenings] = useState(0);
  const currentUser = useCallback(() => auth.user(), [auth]);

  return (
    <AuthArea
      ssoToken={xwikiid ?? null}
      onSsoTokenUsed={() => void navigate({ to: '.', search: ({ xwikiid: _used, ...rest }) => rest, replace: true })}
      // R-GEN-7: single sign-on toasts are effectively persistent.
      onSsoFailure={(errorType) => toasts.show({ kind: 'error', message: ssoMessage(errorType ?? undefined), persistent: true })}
      sso={appSsoMachine}
      session={auth.session}
      onUploadVideo={openUpload}
      onManageUsers={() => setUserAdminOpenings((count) => count + 1)}
      onManageTags={() => setTagAdminOpenings((count) => count + 1)}
    >
      {/* The same wizard from the pages (an administrator's empty library offers 'Subir video'). */}
      <UploadLauncherContext value={openUpload}>
        <Outlet />
      </UploadLauncherContext>
      {uploading && <UploadWizard queryClient={queryClient} toasts={toasts} onClose={closeUpload} />}
      {userAdminOpenings > 0 && <UserAdmin openings={userAdminOpenings} queryClient={queryClient} toasts={toasts} currentUser={currentUser} />}
      {tagAdminOpenings > 0 && <TagAdmin openings={tagAdminOpenings} queryClient={queryClient} toasts={toasts} />}
    </AuthArea>
  );
}

// The administrators' dialogs and the upload wizard are code most sessions never run: each is its
// own chunk, fetched when first opened (their Mantine CSS is the signed-in area's, the wizard's its own).
const UploadWizard = lazyWithPreload(() => import('../features/videos/upload/upload-wizard.tsx').then((module) => module.UploadWizard));

interface AdminDialogsProps {
  /** How many times the header's entry was chosen: each new one opens the list. */
  openings: number;
  queryClient: QueryClient;
  toasts: ToastStore;
}

/** Opens the list once per new opening (a ref, so React's strict double effects do not open it twice). */
function useOpenings(openings: number, open: () => void) {
  const handled = useRef(0);
  useEffect(() => {
    if (openings <= handled.current) return;
    handled.current = openings;
    open();
  }, [openings, open]);
}

const UserAdmin = lazyWithPreload(async () => {
  const { useUserAdmin } = await import('../features/users/user-admin.tsx');
  return function UserAdmin({ openings, currentUser, ...deps }: AdminDialogsProps & { currentUser: () => string | null }) {
    const userAdmin = useUserAdmin({ ...deps, currentUser });
    useOpenings(openings, userAdmin.open);
    return userAdmin.dialogs;
  };
});

const TagAdmin = lazyWithPreload(async () => {
  const { useTagAdmin } = await import('../features/tags/tag-admin.tsx');
  return function TagAdmin({ openings, queryClient, toasts }: AdminDialogsProps) {
    // Its changes show at once in the cached tags (the filter popover, the video form) and refresh
    // what shows tag names (the cards, a video's page).
    const tagAdmin = useTagAdmin(queryClient, toasts, { tags: tagKeys.all, showingTags: [videoKeys.all] });
    useOpenings(openings, tagAdmin.open);
    return tagAdmin.dialogs;
  };
});
