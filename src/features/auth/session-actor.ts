import { createActor, type ActorRefFrom } from 'xstate';
import { sessionMachine } from '../../../machines/session/session.machine.ts';
import { onApiProblem } from '../../lib/api/client.ts';
import { clearToken, getToken } from '../../lib/auth-token.ts';
import { listenForActivity } from './session.actors.ts';
import { sessionEventFor, type ApiProblemLike } from './session-problems.ts';

export type SessionActorRef = ActorRefFrom<typeof sessionMachine>;

const hardNavigationToLogin = () => window.location.assign('/');
let navigateToLogin: () => void = hardNavigationToLogin;

/**
 * The authenticated layout hands the router's navigation to the session so 'Iniciar sesión'
 * and 'Cerrar sesión' go to '/' without a page load. Returns the undo.
 */
export function setLoginNavigation(navigate: () => void): () => void {
  navigateToLogin = navigate;
  return () => {
    if (navigateToLogin === navigate) navigateToLogin = hardNavigationToLogin;
  };
}

/** The session machine with the browser's side effects. */
export const appSessionMachine = sessionMachine.provide({
  actors: { listenForActivity },
  actions: {
    clearToken: () => clearToken(),
    goToLogin: () => navigateToLogin(),
    reloadPage: () => window.location.reload(),
  },
  guards: { hasToken: () => getToken() !== null },
});

/** Sends a session every API problem that concerns it (401/403, failed reads). Returns the unsubscribe. */
export function forwardApiProblems(
  session: Pick<SessionActorRef, 'send'>,
  subscribe: (listener: (problem: ApiProblemLike) => void) => () => void,
): () => void {
  return subscribe((problem) => {
    const event = sessionEventFor(problem);
    if (event) session.send(event);
  });
}

/** The app's one session actor (SPEC.md §4), started once and fed by the API client's problems. */
export const sessionActor: SessionActorRef = createActor(appSessionMachine).start();
forwardApiProblems(sessionActor, onApiProblem);
