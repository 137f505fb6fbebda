import { useEffect, useState, type ReactNode } from 'react';
import { Center, Loader, Stack } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { ssoMachine } from '../../../machines/sso/sso.machine.ts';
import { AppLogo } from '../../components/app-logo.tsx';
import { authMessages, pageMessages } from '../../lib/messages.ts';

interface SsoGateProps {
  /** The sso machine with its actors and clearToken provided (the app's, or test doubles). */
  logic: typeof ssoMachine;
  /** The `xwikiid` query parameter when the page was opened; null without it. */
  ssoToken: string | null;
  /** Removes `xwikiid` from the address (replace, keeping the other parameters). */
  onSsoTokenUsed: () => void;
  /** Single sign-on failed (the machine emitted 'sso.failed'): the route shows the persistent toast. */
  onSsoFailure: (errorType: string | null) => void;
  children: ReactNode;
}

/** The logo splash shown while a single sign-on token is exchanged. */
export function SsoSplash() {
  return (
    <Center mih="100vh" role="status" aria-label={authMessages.loading}>
      <Stack align="center" gap="lg">
        <AppLogo size={96} label={pageMessages.appTitle} />
        <Loader />
      </Stack>
    </Center>
  );
}

/**
 * Single sign-on in front of the authenticated area (R-AUTH-8). The machine starts once,
 * with the `xwikiid` of the first render: removing it from the address does not restart it.
 * After a failure the children render too; without a token they show 'Sesión expirada'.
 * Opened without `xwikiid` (every visit but the portal's), the machine would only find none and
 * show the content: it is not made at all (one machine and actor fewer in each signed-in page's
 * first render, docs/decisions/0063-first-render-in-slices.md).
 */
export function SsoGate(props: SsoGateProps) {
  const [tokenAtStart] = useState(props.ssoToken);
  return tokenAtStart === null || tokenAtStart === '' ? <>{props.children}</> : <SsoExchange {...props} />;
}

function SsoExchange({ logic, ssoToken, onSsoTokenUsed, onSsoFailure, children }: SsoGateProps) {
  // @xstate/react keeps one actor and takes each render's implementations: the latest callback runs.
  const actorRef = useActorRef(logic.provide({ actions: { removeSsoToken: () => onSsoTokenUsed() } }), {
    input: { ssoToken },
  });
  useEffect(() => {
    const subscription = actorRef.on('sso.failed', ({ errorType }) => onSsoFailure(errorType));
    return () => subscription.unsubscribe();
  }, [actorRef, onSsoFailure]);
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag('busy'));
  return busy ? <SsoSplash /> : <>{children}</>;
}
