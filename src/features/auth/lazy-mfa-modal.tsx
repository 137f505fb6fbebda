import { useRef } from 'react';
import { lazyWithPreload } from '../../lib/lazy-with-preload.tsx';
import type { MfaActorRef } from './second-factor.ts';

/**
 * The 'Autentificación MFA' modal's code (Mantine's Modal with its focus trap and scroll lock, and,
 * for enrolment only, the QR code) is not part of the sign-in pages' first screen: it is fetched
 * when the user starts filling the form (`preloadMfaModal`) and shown once the password is accepted.
 */
const MfaModal = lazyWithPreload(() => import('./mfa-modal.tsx').then((module) => module.MfaModal));

export const preloadMfaModal = () => MfaModal.preload();

/** Everything the second factor may show, loaded now (tests that check the modal synchronously). */
export async function preloadSecondFactorUi(): Promise<void> {
  await MfaModal.preload();
  const { preloadQrCode } = await import('./mfa-modal.tsx');
  await preloadQrCode();
}

/** Renders nothing until the second factor first starts; from then on the modal (open while `actorRef` exists). */
export function LazyMfaModal({ actorRef }: { actorRef: MfaActorRef | undefined }) {
  const started = useRef(false);
  if (actorRef) started.current = true;
  return started.current ? <MfaModal actorRef={actorRef} /> : null;
}
