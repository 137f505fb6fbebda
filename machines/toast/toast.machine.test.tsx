import { act, screen } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestModel, getStateNodes, toDirectedGraph, type DirectedGraphNode, type TestParam } from 'xstate/graph';
import type { SnapshotFrom } from 'xstate';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import { createToastStore, type ToastStore } from '../../src/lib/toasts.ts';
import { ToastViewport } from '../../src/components/toast-viewport.tsx';
import { TOAST_DURATION_MS, TOAST_FADE_DURATION_MS, toastMachine } from './toast.machine.ts';
import type { ToastEvent, ToastInput } from './toast.types.ts';

// Shortened named delays, as the machines/ convention asks; time is driven by fake timers.
const DURATION = 1000;
const FADE = 100;
const testMachine = toastMachine.provide({ delays: { toastDuration: DURATION, toastFadeDuration: FADE } });

type ToastSnapshot = SnapshotFrom<typeof toastMachine>;
type Params = TestParam<ToastSnapshot, ToastEvent>;

const variants: ToastInput[] = [
  { kind: 'success', message: 'Video añadido a favoritos' },
  { kind: 'error', message: 'Error al guardar la puntuación' },
  { kind: 'error', message: 'El token ha expirado', persistent: true },
  { kind: 'success', message: 'Sesión iniciada', persistent: true },
];

/**
 * Every transition is a vertex of the model, self-loops included: a persistent toast's
 * ignored timer ('shown' → 'shown') becomes a path of its own, so "it stays" is tested.
 */
function modelFor(input: ToastInput) {
  return createTestModel(toastMachine, {
    input,
    serializeTransition: (_snapshot, event, previous) =>
      event && previous ? ` via ${event.type} from ${JSON.stringify(previous.value)}` : '',
  });
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const toast = () => screen.getByRole('alert');

/** How a user causes each event. `satisfies` makes a new machine event a type error here until it is driven. */
function executorsFor(user: UserEvent) {
  return {
    'toast.pointer.enter': async () => user.hover(toast()),
    'toast.pointer.leave': async () => user.unhover(toast()),
    'toast.close': async () => user.click(screen.getByRole('button', { name: 'Cerrar' })),
    'toast.timer.elapsed': async () => advance(DURATION),
    'toast.fade.done': async () => advance(FADE),
  } satisfies Record<ToastEvent['type'], () => Promise<unknown>>;
}

/** What a user sees in each state. */
function statesFor(input: ToastInput) {
  const expectOnScreen = () => {
    const element = toast();
    expect(element).toHaveTextContent(input.message);
    expect(screen.getByRole('button', { name: 'Cerrar' })).toBeInTheDocument();
    const icon = element.querySelector('.tabler-icon');
    expect(icon).toHaveClass(input.kind === 'success' ? 'tabler-icon-check' : 'tabler-icon-x');
    expect(element.style.getPropertyValue('--notification-color')).toContain(input.kind === 'success' ? 'green' : 'red');
  };
  return {
    shown: () => {
      expectOnScreen();
      expect(toast()).toHaveStyle({ opacity: '1' });
      if (input.persistent) {
        advance((DURATION + FADE) * 3);
        expectOnScreen();
        expect(toast()).toHaveStyle({ opacity: '1' });
      }
    },
    paused: () => {
      expectOnScreen();
      // Hovered: the timer does not run, however long the user stays.
      advance((DURATION + FADE) * 3);
      expectOnScreen();
      expect(toast()).toHaveStyle({ opacity: '1' });
    },
    closing: () => {
      expectOnScreen();
      expect(toast()).toHaveStyle({ opacity: '0' });
    },
    closed: () => {
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(screen.queryByText(input.message)).not.toBeInTheDocument();
    },
  } satisfies Record<string, () => void> & Params['states'];
}

let store: ToastStore;
let user: UserEvent;

beforeEach(() => {
  vi.useFakeTimers();
  // Testing Library's async wrapper waits on a 0 ms timeout and only flushes it under fake
  // timers when it sees a `jest` global (testing-library/user-event#1115): give it one.
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
  user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  store = createToastStore(testMachine);
  renderWithTheme(<ToastViewport store={store} />);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

for (const input of variants) {
  const label = `${input.kind}${input.persistent ? ', persistent' : ''}`;
  describe(`toast model (${label})`, () => {
    for (const path of modelFor(input).getShortestPaths()) {
      it(path.description, async () => {
        act(() => void store.show(input));
        await path.test({ states: statesFor(input), events: executorsFor(user) });
      });
    }
  });
}

describe('toast model coverage', () => {
  const paths = variants.flatMap((input) => modelFor(input).getShortestPaths());
  const key = (snapshot: ToastSnapshot) => String(snapshot.value);

  it('visits every state of the machine', () => {
    const visited = new Set(paths.flatMap((path) => path.steps.map((step) => key(step.state))));
    const all = getStateNodes(toastMachine.root).map((node) => node.key);
    expect([...visited].sort()).toEqual([...all].sort());
  });

  it('takes every transition of the machine', () => {
    const taken = new Set(
      paths.flatMap((path) =>
        path.steps.slice(1).map((step, i) => `${key(path.steps[i]!.state)} --${step.event.type}--> ${key(step.state)}`),
      ),
    );
    const edgesOf = (node: DirectedGraphNode): string[] => [
      ...node.edges.map((edge) => `${edge.source.key} --${edge.label.text}--> ${edge.target.key}`),
      ...node.children.flatMap(edgesOf),
    ];
    const all = edgesOf(toDirectedGraph(toastMachine));
    expect(all.length).toBeGreaterThan(0);
    for (const edge of all) expect(taken).toContain(edge);
  });
});

describe('toast with the default delays (SPEC: closes after 3 s)', () => {
  it('stays 3 s, fades out, then is gone', () => {
    const defaultStore = createToastStore();
    renderWithTheme(<ToastViewport store={defaultStore} />);
    act(() => void defaultStore.show({ kind: 'success', message: 'El video se ha creado correctamente' }));
    advance(TOAST_DURATION_MS - 1);
    expect(screen.getByText('El video se ha creado correctamente')).toBeVisible();
    advance(1);
    expect(screen.getByRole('alert')).toHaveStyle({ opacity: '0' });
    advance(TOAST_FADE_DURATION_MS);
    expect(screen.queryByText('El video se ha creado correctamente')).not.toBeInTheDocument();
  });
});

describe('toast pause (documented choice: leaving restarts the full duration)', () => {
  it('gives the full duration again after the pointer leaves', async () => {
    act(() => void store.show({ kind: 'success', message: 'Video quitado de favoritos' }));
    advance(DURATION / 2);
    await user.hover(toast());
    advance(DURATION / 4);
    await user.unhover(toast());
    // The first timer would have fired by now; the restarted one has not.
    advance(DURATION - 10);
    expect(toast()).toHaveStyle({ opacity: '1' });
    advance(10);
    expect(toast()).toHaveStyle({ opacity: '0' });
  });

  it('closes only the toast whose close button is clicked', async () => {
    act(() => {
      store.show({ kind: 'success', message: 'Video añadido a favoritos' });
      store.show({ kind: 'error', message: 'El token es invalido', persistent: true });
    });
    const [first] = screen.getAllByRole('button', { name: 'Cerrar' });
    await user.click(first!);
    advance(FADE);
    expect(screen.queryByText('Video añadido a favoritos')).not.toBeInTheDocument();
    expect(screen.getByText('El token es invalido')).toBeVisible();
  });
});
