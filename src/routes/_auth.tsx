import { useEffect } from 'react';
import { createFileRoute, Outlet, useNavigate } from '@tanstack/react-router';
import { AuthArea } from '../features/auth/auth-area.tsx';
import { sessionActor, setLoginNavigation } from '../features/auth/session-actor.ts';
import { appSsoMachine } from '../features/auth/sso.actors.ts';

interface AuthSearch {
  /** Single sign-on token (SPEC.md §2). */
  xwikiid?: string;
}

/** Pathless layout of /videos, /videos/{id} and /statistics: single sign-on, session, header. */
export const Route = createFileRoute('/_auth')({
  validateSearch: (search: Record<string, unknown>): AuthSearch => {
    const { xwikiid } = search;
    return typeof xwikiid === 'string' || typeof xwikiid === 'number' ? { xwikiid: String(xwikiid) } : {};
  },
  component: AuthLayout,
});

function AuthLayout() {
  const { xwikiid } = Route.useSearch();
  const navigate = useNavigate();
  const { queryClient } = Route.useRouteContext();
  // The session ends here (Cerrar sesión, or Iniciar sesión after expiry): forget the user's data, go to '/'.
  useEffect(
    () =>
      setLoginNavigation(() => {
        queryClient.clear();
        void navigate({ to: '/' });
      }),
    [navigate, queryClient],
  );

  return (
    <AuthArea
      ssoToken={xwikiid ?? null}
      onSsoTokenUsed={() => void navigate({ to: '.', search: ({ xwikiid: _used, ...rest }) => rest, replace: true })}
      sso={appSsoMachine}
      session={sessionActor}
    >
      <Outlet />
    </AuthArea>
  );
}
