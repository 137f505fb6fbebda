/**
 * Running a covering path against the rendered UI: for each step, the executor of its event (how a
 * user, the network or time causes it), then the check of the state reached (what a user sees).
 */
import { act } from '@testing-library/react';
import { SimulatedClock, type AnyMachineSnapshot, type EventObject } from 'xstate';
import type { TestPath } from 'xstate/graph';

/**
 * How each event of the model is caused (by the user, the network double, the clock); `satisfies`
 * it against the model's event type. `state` is the snapshot the event leads to.
 */
export type Executors<TSnapshot, TEvent extends EventObject> = {
  [K in TEvent['type']]: (step: { state: TSnapshot; event: Extract<TEvent, { type: K }> }) => Promise<void>;
};

/** What a user sees in each stable leaf state, keyed '#<state node id>'. */
export type StateChecks<TSnapshot> = Record<`#${string}`, (snapshot: TSnapshot) => void | Promise<void>>;

/** Runs a covering path against the rendered UI; a state without a check fails the path. */
export async function runPath<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject>(
  path: TestPath<TSnapshot, TEvent>,
  states: StateChecks<NoInfer<TSnapshot>>,
  events: Executors<NoInfer<TSnapshot>, NoInfer<TEvent>>,
): Promise<void> {
  // xstate/graph skips an event without an executor: the path would go on from the wrong state.
  const undriven = [...new Set(path.steps.slice(1).map((step) => step.event.type))].filter((type) => !(type in events));
  if (undriven.length) throw new Error(`No executor for ${undriven.join(', ')}: add it to the test's executor table`);
  const fallback = (snapshot: AnyMachineSnapshot) => {
    throw new Error(`No check for the state ${JSON.stringify(snapshot.value)}`);
  };
  await path.test({ states: { ...states, '*': fallback }, events } as never);
}

/**
 * XState's SimulatedClock for an actor under test (`createActor(logic, { clock })`, or
 * `useActorRef(logic, { clock })`): its delays (`after`, delayed events) fire only when the test
 * advances it, so a backoff is checked to the millisecond without real sleeps or fake timers.
 */
export function createTestClock() {
  const clock = new SimulatedClock();
  return {
    clock,
    /** Moves time forward by `ms`, firing the delays that are due (inside React's act). */
    advance: (ms: number) =>
      act(() => {
        clock.increment(ms);
      }),
    now: () => clock.now(),
  };
}

export type TestClock = ReturnType<typeof createTestClock>;
