import { useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { AppHeader } from '../../components/app-header.tsx';
import { decodeClaims, getToken } from '../../lib/auth-token.ts';
import { currentUserQuery } from './auth.queries.ts';
import type { SessionActorRef } from './session-actor.ts';
import { SessionDialogs } from './session-dialogs.tsx';

interface SessionAreaProps {
  session: SessionActorRef;
  /** The header's 'Subir video' entry (admin). */
  onUploadVideo?: (() => void) | undefined;
  /** The header's 'Administrar usuarios' entry (admin). */
  onManageUsers?: (() => void) | undefined;
  /** The header's 'Administrar etiquetas' entry (admin). */
  onManageTags?: (() => void) | undefined;
  children: ReactNode;
}

/**
 * The authenticated area: tells the session it is entered (token check, idle timer) and left,
 * shows the header and the page while a token exists, and the session dialogs.
 */
export function SessionArea({ session, onManageUsers, onUploadVideo, onManageTags, children }: SessionAreaProps) {
  useEffect(() => {
    session.send({ type: 'session.enter' });
    return () => {
      // After an idle time-out the session is over (the page reloads): nothing to leave.
      if (session.getSnapshot().status === 'active') session.send({ type: 'session.leave' });
    };
  }, [session]);
  // The header and the page show while a token is stored, from the first render on: not waiting for
  // 'session.enter' (sent by the effect above, after that render), whose re-render drew the whole
  // page a second time, synchronously, in one long task
  // (docs/decisions/0063-first-render-in-slices.md). Without a token the session goes to 'Sesión expirada'. The token is looked at again
  // whenever the session changes, and the area renders again only when it has changed (the session
  // clears it on logout, on 'Iniciar sesión' and on the idle time-out).
  const token = useSelector(session, () => getToken());

  return (
    <>
      {token !== null && (
        <>
          <SessionHeader session={session} token={token} onManageUsers={onManageUsers} onUploadVideo={onUploadVideo} onManageTags={onManageTags} />
          {children}
        </>
      )}
      <SessionDialogs session={session} />
    </>
  );
}

function SessionHeader({
  session,
  token,
  onManageUsers,
  onUploadVideo,
  onManageTags,
}: {
  session: SessionActorRef;
  token: string;
  onManageUsers?: (() => void) | undefined;
  onUploadVideo?: (() => void) | undefined;
  onManageTags?: (() => void) | undefined;
}) {
  const claims = decodeClaims(token);
  // The same query options the authenticated layout's loader primed (src/routes/_auth.tsx).
  const me = useQuery(currentUserQuery(claims?.user));
  return (
    <AppHeader
      nombre={me.data?.nombre ?? claims?.user ?? ''}
      isAdmin={claims?.role === 'admin'}
      onLogout={() => session.send({ type: 'session.logout' })}
      onManageUsers={onManageUsers}
      onUploadVideo={onUploadVideo}
      onManageTags={onManageTags}
    />
  );
}
