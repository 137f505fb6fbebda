import type { ReactNode } from 'react';
import '../../lib/styles/signed-in-styles.ts';
import type { ssoMachine } from '../../../machines/sso/sso.machine.ts';
import type { SessionActorRef } from './session-actor.ts';
import { SessionArea } from './session-area.tsx';
import { SsoGate } from './sso-gate.tsx';

interface AuthAreaProps {
  /** `xwikiid` from the address, or null. */
  ssoToken: string | null;
  onSsoTokenUsed: () => void;
  /** Single sign-on failed: show its message (a persistent toast). */
  onSsoFailure: (errorType: string | null) => void;
  sso: typeof ssoMachine;
  session: SessionActorRef;
  /** The header's 'Subir video' entry (admin). */
  onUploadVideo?: (() => void) | undefined;
  /** The header's 'Administrar usuarios' entry (admin). */
  onManageUsers?: (() => void) | undefined;
  /** The header's 'Administrar etiquetas' entry (admin). */
  onManageTags?: (() => void) | undefined;
  children: ReactNode;
}

/** Everything in front of /videos, /videos/{id} and /statistics: single sign-on first, then the session. */
export function AuthArea({ ssoToken, onSsoTokenUsed, onSsoFailure, sso, session, onUploadVideo, onManageTags, onManageUsers, children }: AuthAreaProps) {
  return (
    <SsoGate logic={sso} ssoToken={ssoToken} onSsoTokenUsed={onSsoTokenUsed} onSsoFailure={onSsoFailure}>
      <SessionArea session={session} onManageUsers={onManageUsers} onUploadVideo={onUploadVideo} onManageTags={onManageTags}>
        {children}
      </SessionArea>
    </SsoGate>
  );
}
