import { preloadAuthErrorAlert } from './auth-card.tsx';
import { preloadMfaModal } from './lazy-mfa-modal.tsx';

/**
 * The sign-in pages' first screen carries the form and its machine only: the API client, the error
 * alert and the second factor's modal are loaded when the user starts filling the form (or submits it).
 */
export const loadApiClient = () => import('../../lib/api/client.ts');

/** Starts loading what a submitted form needs next; a failed download is tried again when needed. */
export function preloadSignIn(): void {
  void loadApiClient().catch(() => {});
  void preloadMfaModal().catch(() => {});
  void preloadAuthErrorAlert().catch(() => {});
}
