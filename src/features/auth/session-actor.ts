import type { QueryClient } from '@tanstack/react-query';
import { createActor, type ActorRefFrom } from 'xstate';
import type { SessionEvent } from '../../../machines/session/session.types.ts';
import { sessionMachine } from '../../../machines/session/session.machine.ts';
import { isApiError } from '../../lib/api/api-error.ts';
import { onApiProblem } from '../../lib/api/api-problems.ts';
import { clearToken, decodeClaims, getToken } from '../../lib/auth-token.ts';
import { listenForActivity } from './session.actors.ts';
import { expiryEventFor, loadErrorEventFor, sessionEventFor, type ApiProblemLike } from './session-problems.ts';

export type SessionActorRef = ActorRefFrom<typeof sessionMachine>;

/** The session machine with the browser's side effects; `createAuth` adds the query cache and the router. */
export const appSessionMachine = sessionMachine.provide({
  actors: { listenForActivity },
  actions: {
    clearToken: () => clearToken(),
    goToLogin: () => window.location.assign('/'),
    reloadPage: () => window.location.reload(),
  },
  guards: { hasToken: () => getToken() !== null },
});

/** Sends a session the event each API problem means to it. Returns the unsubscribe. */
export function forwardApiProblems(
  session: Pick<SessionActorRef, 'send'>,
  subscribe: (listener: (problem: ApiProblemLike) => void) => () => void,
  eventFor: (problem: ApiProblemLike) => SessionEvent | null = sessionEventFor,
): () => void {
  return subscribe((problem) => {
    const event = eventFor(problem);
    if (event) session.send(event);
  });
}

/** What routes know about the signed-in user: the router context's `auth` (guards, the layout). */
export interface Auth {
  /** The app's one session actor (R-SES-2). */
  session: SessionActorRef;
  /** The user claim of the stored session token; null without a token (or one that cannot be read). */
  user(): string | null;
  /** Whether a session token is stored (its claims are read for display and guards only; the server checks it). */
  hasToken(): boolean;
  /** Whether the stored token's role claim is admin (R-SEC-1). */
  isAdmin(): boolean;
  /**
   * How the session is ended on the server (`endServerSession`, server-session.ts), given by the
   * signed-in area: the API client it uses is not part of the sign-in page's code (the first-screen
   * budget), and the session can only be left from that area.
   */
  setServerSessionEnd(end: () => void): void;
}

export interface AppAuth extends Auth {
  /** The query cache's report of a read that failed after its retries. */
  readFailed(error: unknown): void;
  /** Stops the session and its API problem feed. */
  stop(): void;
}

export interface AuthOptions {
  /** The app's query cache: ending the session forgets the user's data. */
  queryClient: QueryClient;
  /** The router's navigation to '/'. */
  goToLogin: () => void;
}

/**
 * The app's session, created once by `createApp` (src/router.tsx), never by importing a module.
 * Ending it ('Cerrar sesión', 'Iniciar sesión' after expiry, the idle time-out) removes the token
 * and clears the whole query cache, so the next person on the browser never sees the previous
 * person's data. A 401/403 from any call made with the stored token expires it at once (the API client's problem feed); a
 * read that failed after its retries opens 'Error obteniendo datos' (`readFailed`, from the query cache).
 */
export function createAuth({ queryClient, goToLogin }: AuthOptions): AppAuth {
  /**
   * The stored token the server refused (401/403). A page's first calls (route loaders) may be
   * answered before the authenticated area tells the session it is entered; the session ignores
   * problems outside the area, so it also checks this when it enters: a refused token is no session.
   */
  let refusedToken: string | null = null;
  let endServerSession: (() => void) | null = null;
  const session = createActor(
    appSessionMachine.provide({
      actions: {
        endSession: () => endServerSession?.(),
        clearToken: () => {
          clearToken();
          queryClient.clear();
        },
        goToLogin: () => goToLogin(),
      },
      guards: {
        hasToken: () => {
          const token = getToken();
          return token !== null && token !== refusedToken;
        },
      },
    }),
  ).start();
  const stopProblems = forwardApiProblems(
    session,
    (listener) =>
      onApiProblem((problem, request) => {
        if (expiryEventFor(problem)) {
          // Only a refusal of the token the browser holds ends the session. A call sent before single
          // sign-on stored its token (or with the one it replaced) may be answered 401 after the new
          // session began: that answer is about a token that is gone.
          if (request.token !== getToken()) return;
          refusedToken = request.token;
        }
        listener(problem);
      }),
    expiryEventFor,
  );
  const claims = () => decodeClaims(getToken());

  return {
    session,
    user: () => claims()?.user ?? null,
    hasToken: () => getToken() !== null,
    isAdmin: () => claims()?.role === 'admin',
    setServerSessionEnd(end) {
      endServerSession = end;
    },
    readFailed(error) {
      const event = loadErrorEventFor(isApiError(error) ? error : { status: 0 });
      if (event) session.send(event);
    },
    stop() {
      stopProblems();
      session.stop();
    },
  };
}
