import { act, screen } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastViewport } from '../../src/components/toast-viewport.tsx';
import { appLabels } from '../../src/components/app-labels.ts';
import { createToastStore, type ToastStore } from '../../src/lib/toasts.ts';
import { renderWithTheme } from '../../tests/utils/render.tsx';
import { itCoversTheMachine, runPath, type Executors, type StateChecks } from '../../tests/utils/machine-model.ts';
import { TOAST_DURATION_MS, TOAST_FADE_DURATION_MS, toastMachine } from './toast.machine.ts';
import { inputs, toastModel, variantName, type ToastModelEvent, type ToastSnapshot } from './toast.model.test-support.ts';
import type { ToastInput } from './toast.types.ts';

// Shortened named delays, as the machines/ convention asks; time is driven by fake timers.
const DURATION = 1000;
const FADE = 100;
const testMachine = toastMachine.provide({ delays: { toastDuration: DURATION, toastFadeDuration: FADE } });

type Snapshot = ToastSnapshot;
type ModelEvent = ToastModelEvent;
// The model (one per kind of toast) is shared with `npm run qa`: toast.model.test-support.ts. The
// shortened delays are the test's: the model takes each elapsed delay as an explicit event.
const models = toastModel.models.map(({ variant, paths }) => ({ input: variant!.input, paths }));

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const toast = () => screen.getByRole('alert');

let store: ToastStore;
let user: UserEvent;

/** How a user (or time) causes each event. `satisfies` makes a new machine event a type error here until it is driven. */
const executors = {
  'toast.pointer.enter': async () => user.hover(toast()),
  'toast.pointer.leave': async () => user.unhover(toast()),
  'toast.close': async () => user.click(screen.getByRole('button', { name: appLabels.close })),
  // The toast stays the whole duration, not a millisecond less.
  'xstate.after.toastDuration': async () => {
    advance(DURATION - 1);
    expect(toast()).toHaveStyle({ opacity: '1' });
    advance(1);
  },
  'xstate.after.toastFadeDuration': async () => {
    advance(FADE - 1);
    expect(toast()).toBeInTheDocument();
    advance(1);
  },
} satisfies Executors<Snapshot, ModelEvent>;

/** What a user sees in each state. */
function statesFor(input: ToastInput) {
  const expectOnScreen = () => {
    const element = toast();
    expect(element).toHaveTextContent(input.message);
    expect(screen.getByRole('button', { name: appLabels.close })).toBeInTheDocument();
    const icon = element.querySelector('.tabler-icon');
    expect(icon).toHaveClass(input.kind === 'success' ? 'tabler-icon-check' : 'tabler-icon-x');
    expect(element.style.getPropertyValue('--notification-color')).toContain(input.kind === 'success' ? 'green' : 'red');
  };
  return {
    '#toast.shown': () => {
      expectOnScreen();
      expect(toast()).toHaveStyle({ opacity: '1' });
      if (input.persistent) {
        // A persistent toast ignores its timer: it stays however long the user waits.
        advance((DURATION + FADE) * 3);
        expectOnScreen();
        expect(toast()).toHaveStyle({ opacity: '1' });
      }
    },
    '#toast.paused': () => {
      expectOnScreen();
      // Hovered: the timer does not run, however long the user stays.
      advance((DURATION + FADE) * 3);
      expectOnScreen();
      expect(toast()).toHaveStyle({ opacity: '1' });
    },
    '#toast.closing': () => {
      expectOnScreen();
      expect(toast()).toHaveStyle({ opacity: '0' });
    },
    '#toast.closed': () => {
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(screen.queryByText(input.message)).not.toBeInTheDocument();
    },
  } satisfies StateChecks<Snapshot>;
}

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

for (const { input, paths } of models) {
  const label = variantName(input);
  describe(`toast model (${label})`, () => {
    const states = statesFor(input);
    for (const { name, path } of paths) {
      it(name, async () => {
        act(() => void store.show(input));
        await runPath(path, states, executors);
      });
    }
  });
}

describe('toast model coverage', () => {
  itCoversTheMachine(
    toastMachine,
    models.flatMap((entry) => entry.paths),
    { states: statesFor(inputs[0]!), executors },
  );
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
    const [first] = screen.getAllByRole('button', { name: appLabels.close });
    await user.click(first!);
    advance(FADE);
    expect(screen.queryByText('Video añadido a favoritos')).not.toBeInTheDocument();
    expect(screen.getByText('El token es invalido')).toBeVisible();
  });
});
