import { fromPromise } from 'xstate';
import type { StoreTokenInput } from '../../../machines/shared/session-token.types.ts';
import { storeToken } from '../../lib/auth-token.ts';

/** Stores the session token (localStorage 'token'); rejects when the browser refuses it. */
export const storeSessionToken = fromPromise<void, StoreTokenInput>(async ({ input }) => {
  if (!storeToken(input.token)) throw new Error('The browser did not store the session token');
});
