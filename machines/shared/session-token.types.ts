import type { components } from '../../contract/openapi.gen.ts';

/** Input of the app's storeToken actor: the session token POST /api/mfa (or single sign-on) answered. */
export type StoreTokenInput = Pick<components['schemas']['TokenResponse'], 'token'>;
