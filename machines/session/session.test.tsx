import { useSyncExternalStore } from 'react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { createActor } from 'xstate';
import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { appLabels } from '../../src/components/app-labels.ts';
import { ApiError, type ApiProblem } from '../../src/lib/api/api-error.ts';
import { appSessionMachine, forwardApiProblems, type SessionActorRef } from '../../src/features/auth/session-actor.ts';
import { endServerSession } from '../../src/features/auth/server-session.ts';
import { ACTIVITY_EVENTS, listenForActivity } from '../../src/features/auth/session.actors.ts';
import { SessionArea } from '../../src/features/auth/session-area.tsx';
import { sessionEventFor } from '../../src/features/auth/session-problems.ts';
import { clearToken, getToken, storeToken } from '../../src/lib/auth-token.ts';
import { authMessages, dialogMessages } from '../../src/lib/messages.ts';
import { itCoversTheMachine, runPath, type Executors, type StateChecks } from '../../tests/utils/machine-model.ts';
import { http, server } from '../../tests/utils/msw.ts';
import { createTestQueryClient, renderInRouter } from '../../tests/utils/render-in-router.tsx';
import { IDLE_TIMEOUT_MS, sessionMachine } from './session.machine.ts';
import { sessionModel, type SessionModelEvent, type SessionSnapshot } from './session.model.test-support.ts';

/**
 * Shortened idle timeout, for the paths that test the timer; activity checks wait 0.6 of it
 * twice (1.2 in all), so a timer that was not restarted would fire. Other paths get a long
 * one, so a slow machine cannot time them out.
 */
const IDLE = 600;
const LONG_IDLE = 60_000;
let idleTimeout = LONG_IDLE;
const sleep = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const TOKEN = `${base64url({ alg: 'HS256' })}.${base64url({ user: 'ana', role: 'admin' })}.signature`;
const ME = { id: 1, user: 'ana', nombre: 'Ana Pérez', email: 'ana@example.org', role: 'admin' as const, organizacion: 'TAO' };
const CONTENT = 'Lista de videos';
const PUBLIC_PAGE = 'Página de inicio';

type Snapshot = SessionSnapshot;
type ModelEvent = SessionModelEvent;
// The model is shared with `npm run qa`: session.model.test-support.ts.
const { events, paths } = sessionModel;

/** Where the user is: a public page, or the authenticated area (what the router would mount). */
function createLocation() {
  let inside = false;
  const listeners = new Set<() => void>();
  return {
    set(value: boolean) {
      inside = value;
      for (const listener of listeners) listener();
    },
    get: () => inside,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

let user: UserEvent;
let actor: SessionActorRef;
let location: ReturnType<typeof createLocation>;
let publish: (problem: ApiProblem) => Promise<void>;
let reloadPage: Mock<() => void>;
let goToLogin: Mock<() => void>;
let activityCount = 0;
let problemCount = 0;
/** The Authorization of each POST /api/logout: leaving the session ends it on the server. */
let logoutCalls: Array<string | null>;

beforeEach(async () => {
  user = userEvent.setup();
  location = createLocation();
  logoutCalls = [];
  server.use(
    http.post('/api/logout', ({ request, response }) => {
      logoutCalls.push(request.headers.get('Authorization'));
      return response(204).empty();
    }),
  );
  reloadPage = vi.fn();
  // Navigation to '/' unmounts the area, as the router does.
  goToLogin = vi.fn(() => location.set(false));
  // The app's session machine (token guard, ending the session on the server, clearToken, activity listener are
  // real); navigation and reload are spies.
  actor = createActor(
    appSessionMachine.provide({ actions: { endSession: () => endServerSession(), goToLogin, reloadPage }, delays: { idleTimeout: () => idleTimeout } }),
  ).start();
  // The API client's problem feed, as the app wires it.
  const listeners = new Set<(problem: ApiError) => void>();
  forwardApiProblems(actor, (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  });
  publish = (problem) =>
    act(async () => {
      listeners.forEach((listener) => listener(new ApiError(problem)));
      // Let Mantine's modal transition (animation frames) settle inside act.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    });

  const queryClient = createTestQueryClient();
  queryClient.setQueryData(['me', 'ana'], ME);
  function Host() {
    const inside = useSyncExternalStore(location.subscribe, location.get);
    return inside ? (
      <SessionArea session={actor}>
        <p>{CONTENT}</p>
      </SessionArea>
    ) : (
      <p>{PUBLIC_PAGE}</p>
    );
  }
  await renderInRouter(Host, { queryClient });
});

const userMenu = () => screen.getByRole('button', { name: appLabels.userMenuOf(ME.nombre) });

async function fireActivity() {
  const kind = ACTIVITY_EVENTS[activityCount++ % ACTIVITY_EVENTS.length]!;
  if (kind === 'scroll') fireEvent.scroll(window);
  else fireEvent(document.body, new Event(kind, { bubbles: true }));
}

const executors = {
  'session.enter': async ({ event }) => {
    if (event.withToken) storeToken(TOKEN);
    else clearToken();
    act(() => location.set(true));
  },
  'session.leave': async () => act(() => location.set(false)),
  'session.activity': async () => {
    await sleep(IDLE * 0.6);
    await fireActivity();
    await sleep(IDLE * 0.6);
  },
  // A 401 or a 403 from any call.
  'session.expired': async () =>
    publish(problemCount++ % 2 ? { status: 403, type: 'unauthorized-role' } : { status: 401, type: 'invalid-access-token' }),
  // A server error or a network failure.
  'session.load-error': async () =>
    publish(problemCount++ % 2 ? { status: 0, type: 'network-error' } : { status: 500, type: 'internal-server-error' }),
  'session.sign-in': async () => {
    await user.click(screen.getByRole('button', { name: dialogMessages.signIn }));
    expect(getToken()).toBeNull();
    expect(goToLogin).toHaveBeenCalled();
  },
  'session.reload': async () => {
    const before = reloadPage.mock.calls.length;
    await user.click(screen.getByRole('button', { name: dialogMessages.reload }));
    expect(reloadPage).toHaveBeenCalledTimes(before + 1);
  },
  'session.logout': async () => {
    await user.click(userMenu());
    await user.click(await screen.findByRole('menuitem', { name: authMessages.logout }));
    expect(getToken()).toBeNull();
    expect(goToLogin).toHaveBeenCalled();
    // The server was asked to end the session of the token the browser held.
    await waitFor(() => expect(logoutCalls).toEqual([`Bearer ${TOKEN}`]));
  },
  'xstate.after.idleTimeout': async () => {
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1), { timeout: IDLE * 4 });
    await waitFor(() => expect(logoutCalls).toEqual([`Bearer ${TOKEN}`]));
  },
} satisfies Executors<Snapshot, ModelEvent>;

function expectArea({ content }: { content: boolean }) {
  if (content) {
    expect(screen.getByText(CONTENT)).toBeInTheDocument();
    expect(userMenu()).toBeInTheDocument();
  } else {
    expect(screen.queryByText(CONTENT)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: new RegExp(appLabels.userMenu) })).not.toBeInTheDocument();
  }
  expect(screen.queryByText(PUBLIC_PAGE)).not.toBeInTheDocument();
}

const dialog = (name: string) => screen.getByRole('dialog', { name });

const states = {
  '#session.outside': () => {
    expect(screen.getByText(PUBLIC_PAGE)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  },
  '#session.inside.active.counting': () => {
    expectArea({ content: true });
    expect(userMenu()).toHaveTextContent(ME.nombre);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(reloadPage).not.toHaveBeenCalled();
  },
  '#session.inside.expired': () => {
    // Behind the dialog: the page while a token exists, nothing without one.
    expectArea({ content: getToken() !== null });
    const expired = dialog(dialogMessages.sessionExpiredTitle);
    expect(within(expired).getByRole('button', { name: dialogMessages.signIn })).toBeEnabled();
    expect(screen.queryByRole('dialog', { name: dialogMessages.loadErrorTitle })).not.toBeInTheDocument();
  },
  '#session.inside.loadError': () => {
    expectArea({ content: true });
    const loadError = dialog(dialogMessages.loadErrorTitle);
    expect(within(loadError).getByRole('button', { name: dialogMessages.reload })).toBeEnabled();
    expect(screen.queryByRole('dialog', { name: dialogMessages.sessionExpiredTitle })).not.toBeInTheDocument();
  },
  '#session.timedOut': () => {
    expect(getToken()).toBeNull();
    expect(reloadPage).toHaveBeenCalledTimes(1);
    expect(goToLogin).not.toHaveBeenCalled();
  },
} satisfies StateChecks<Snapshot>;

describe('session', () => {
  for (const { name, path } of paths) {
    const timed = path.steps.some(({ event }) => event.type === 'xstate.after.idleTimeout' || event.type === 'session.activity');
    it(name, async () => {
      idleTimeout = timed ? IDLE : LONG_IDLE;
      await runPath(path, states, executors);
    });
  }
});

describe('session model coverage', () => {
  itCoversTheMachine(sessionMachine, paths, { events, states, executors });
});

describe('session rules', () => {
  it('times out after one hour by default (R-SES-5)', () => {
    expect(IDLE_TIMEOUT_MS).toBe(3_600_000);
    expect(sessionMachine.implementations.delays.idleTimeout).toBe(3_600_000);
  });

  it.each(ACTIVITY_EVENTS)('counts %s on the window as activity', (kind) => {
    const received: string[] = [];
    const session = createActor(
      sessionMachine.provide({
        guards: { hasToken: () => true },
        delays: { idleTimeout: 60_000 },
        actors: { listenForActivity },
      }),
      {
        inspect: (inspection) => {
          if (inspection.type === '@xstate.event') received.push(inspection.event.type);
        },
      },
    ).start();
    session.send({ type: 'session.enter' });
    fireEvent(kind === 'scroll' ? window : document.body, new Event(kind, { bubbles: true }));
    session.stop();
    // After stopping, the listener is gone.
    fireEvent(document.body, new Event(kind, { bubbles: true }));
    expect(received.filter((type) => type === 'session.activity')).toHaveLength(1);
  });

  it.each([
    [{ status: 401 }, 'session.expired'],
    [{ status: 403 }, 'session.expired'],
    [{ status: 500 }, 'session.load-error'],
    [{ status: 503 }, 'session.load-error'],
    [{ status: 0 }, 'session.load-error'],
    [{ status: 400 }, null],
    [{ status: 404 }, null],
    [{ status: 409 }, null],
    [{ status: 500, method: 'POST' }, null],
    [{ status: 401, method: 'PATCH' }, 'session.expired'],
  ])('maps the API problem %j to %s', (problem, type) => {
    expect(sessionEventFor(problem)?.type ?? null).toBe(type);
  });
});
