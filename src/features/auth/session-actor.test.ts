import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api/api-error.ts';
import { publish } from '../../lib/api/api-problems.ts';
import { clearToken, storeToken } from '../../lib/auth-token.ts';
import { createAuth, type AppAuth } from './session-actor.ts';

const refused = new ApiError({ status: 401, type: 'invalid-access-token', method: 'GET' });
let auth: AppAuth | undefined;

function signedInArea(token: string): AppAuth {
  storeToken(token);
  auth = createAuth({ queryClient: new QueryClient(), goToLogin: () => {} });
  auth.session.send({ type: 'session.enter' });
  return auth;
}

afterEach(() => {
  auth?.stop();
  auth = undefined;
  clearToken();
});

describe('the session and refused calls (Sesión expirada)', () => {
  it('a 401 to a call sent with the stored token ends the session', () => {
    const { session } = signedInArea('token-of-luisa');
    publish(refused, { token: 'token-of-luisa' });
    expect(session.getSnapshot().matches({ inside: 'expired' })).toBe(true);
  });

  it('a 401 to a call sent before single sign-on stored its token (no token) leaves the new session alone', () => {
    const { session } = signedInArea('token-of-luisa');
    publish(refused, { token: null });
    expect(session.getSnapshot().matches({ inside: 'active' })).toBe(true);
  });

  it('a 401 to a call sent with the token single sign-on replaced leaves the new session alone', () => {
    const { session } = signedInArea('token-of-luisa');
    publish(refused, { token: 'token-of-ramiro' });
    expect(session.getSnapshot().matches({ inside: 'active' })).toBe(true);
    // …and a later refusal of the current token still ends it.
    publish(new ApiError({ status: 403, type: 'user-blocked', method: 'GET' }), { token: 'token-of-luisa' });
    expect(session.getSnapshot().matches({ inside: 'expired' })).toBe(true);
  });
});
