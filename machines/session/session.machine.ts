import { fromCallback, setup } from 'xstate';
import type { SessionEvent, SessionTag } from './session.types.ts';

/** R-SES-5: one hour without mouse, keyboard, scroll or touch activity ends the session. */
export const IDLE_TIMEOUT_MS = 3_600_000;

/**
 * The root session workflow (R-SES-2): one actor for the whole app, so the API client's
 * problem listener can send it 'session.expired' / 'session.load-error'.
 *
 * Outside the authenticated area (login, registration) it only waits. Inside, it checks for a
 * token, runs the idle timer (restarted by any activity) and shows the two dialogs.
 *
 * Which dialog wins: 'Sesión expirada'. From 'Error obteniendo datos' a 'session.expired'
 * replaces it; while 'Sesión expirada' shows, load errors are ignored. Reloading cannot bring
 * back a session that is gone (the reloaded page would show 'Sesión expirada' anyway), while
 * signing in again fixes both.
 */
export const sessionMachine = setup({
  types: {} as {
    events: SessionEvent;
    tags: SessionTag;
  },
  actors: {
    listenForActivity: fromCallback<SessionEvent>(() => {
      throw new Error('listenForActivity is supplied by the app with .provide()');
    }),
  },
  actions: {
    endSession: () => {
      throw new Error('endSession is supplied by the app with .provide()');
    },
    clearToken: () => {
      throw new Error('clearToken is supplied by the app with .provide()');
    },
    goToLogin: () => {
      throw new Error('goToLogin is supplied by the app with .provide()');
    },
    reloadPage: () => {
      throw new Error('reloadPage is supplied by the app with .provide()');
    },
  },
  guards: {
    hasToken: () => false,
  },
  delays: {
    idleTimeout: IDLE_TIMEOUT_MS,
  },
}).createMachine({
  id: 'session',
  description: 'Session of the signed-in user: presence of the token, idle timeout, expiry and data-error dialogs.',
  initial: 'outside',
  states: {
    outside: {
      description: 'On a public page (/, /register): no idle timer, API problems are left to the page.',
      meta: { qa: 'En una página pública' },
      on: { 'session.enter': { target: 'inside' } },
    },
    inside: {
      description: 'In the authenticated area (/videos, /videos/{id}, /statistics).',
      meta: { qa: 'En el área autenticada' },
      initial: 'checking',
      on: { 'session.leave': { target: 'outside' } },
      states: {
        checking: {
          description: 'Looks for the stored token.',
          meta: { qa: 'Buscando la sesión guardada' },
          always: [{ guard: 'hasToken', target: 'active' }, { target: 'expired' }],
        },
        active: {
          description: 'Signed in, no dialog; activity on the window restarts the idle timer.',
          meta: { qa: 'Con sesión, sin diálogos' },
          invoke: { id: 'listenForActivity', src: 'listenForActivity' },
          initial: 'counting',
          states: {
            counting: {
              description: 'The idle timer runs.',
              meta: { qa: 'Con sesión, contando la inactividad' },
              after: { idleTimeout: { target: '#session.timedOut' } },
              on: { 'session.activity': { target: 'counting', reenter: true } },
            },
          },
          on: {
            'session.expired': { target: 'expired' },
            'session.load-error': { target: 'loadError' },
            // The server ends the session (its token refused from then on) before the browser forgets it.
            'session.logout': { target: '#session.outside', actions: ['endSession', 'clearToken', 'goToLogin'] },
          },
        },
        loadError: {
          description: "Dialog 'Error obteniendo datos' with Recargar.",
          meta: { qa: 'Diálogo «Error obteniendo datos»' },
          tags: ['dialog'],
          on: {
            'session.reload': { actions: 'reloadPage' },
            'session.expired': { target: 'expired' },
          },
        },
        expired: {
          description: "Dialog 'Sesión expirada' with Iniciar sesión (no token, or an API call answered 401/403).",
          meta: { qa: 'Diálogo «Sesión expirada»' },
          tags: ['dialog'],
          on: {
            'session.sign-in': { target: '#session.outside', actions: ['clearToken', 'goToLogin'] },
          },
        },
      },
    },
    timedOut: {
      description: 'Idle for too long: the server ends the session, the token is removed and the page reloads.',
      meta: { qa: 'Sesión cerrada por inactividad' },
      type: 'final',
      entry: ['endSession', 'clearToken', 'reloadPage'],
    },
  },
});
