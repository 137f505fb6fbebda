/**
 * Model-based testing helpers for machines that invoke actors or use delays (login, mfa, registration, sso, session, and the ones to come).
 *
 * `createTestModel` from xstate/graph refuses machines with `invoke` or `after`. The auth
 * machines use both (actors are how they do side effects), so the model is built from a copy
 * of the machine's own config in which each invocation's onDone/onError becomes a transition on
 * the event the running actor would receive (`xstate.done.actor.<id>`, `xstate.error.actor.<id>`)
 * and each `after` delay a transition on `xstate.after.<delay>`. Guards, actions and context are
 * the machine's own, so the model cannot drift from the machine.
 */
import { act, waitFor } from '@testing-library/react';
import { expect, it } from 'vitest';
import {
  createMachine,
  fromPromise,
  getNextSnapshot,
  type AnyStateMachine,
  type EventObject,
  type SnapshotFrom,
  type InputFrom,
  type AnyMachineSnapshot,
} from 'xstate';
import { createTestModel, getStateNodes, serializeSnapshot, type TestModel, type TestPath } from 'xstate/graph';

type Config = Record<string, unknown> & { states?: Record<string, Config> };
type Transitions = Record<string, unknown>;

function explicitEvents(node: Config): Config {
  const { invoke, after, on, states, ...rest } = node as Config & { invoke?: unknown; after?: unknown; on?: unknown };
  const transitions: Transitions = { ...((on as Transitions | undefined) ?? {}) };
  const invocations = invoke === undefined ? [] : Array.isArray(invoke) ? invoke : [invoke];
  for (const invocation of invocations as Array<{ id?: string; onDone?: unknown; onError?: unknown }>) {
    if (!invocation.id) throw new Error('Give every invocation an id: the model names its events after it');
    if (invocation.onDone !== undefined) transitions[`xstate.done.actor.${invocation.id}`] = invocation.onDone;
    if (invocation.onError !== undefined) transitions[`xstate.error.actor.${invocation.id}`] = invocation.onError;
  }
  for (const [delay, transition] of Object.entries((after as Transitions | undefined) ?? {})) {
    transitions[`xstate.after.${delay}`] = transition;
  }
  return {
    ...rest,
    ...(Object.keys(transitions).length ? { on: transitions } : {}),
    ...(states ? { states: Object.fromEntries(Object.entries(states).map(([key, child]) => [key, explicitEvents(child)])) } : {}),
  };
}

/** The machine with invocations and delays turned into explicit events (same implementations). */
export function withExplicitEvents<TMachine extends AnyStateMachine>(machine: TMachine): TMachine {
  return createMachine(
    explicitEvents(machine.config as Config) as never,
    machine.implementations as never,
  ) as unknown as TMachine;
}

/** `{ type: 'xstate.done.actor.<id>', output }`: the invoked actor `id` resolved. */
export type DoneEvent<Id extends string, Output = undefined> = { type: `xstate.done.actor.${Id}`; output: Output };
/** `{ type: 'xstate.error.actor.<id>', error }`: the invoked actor `id` rejected. */
export type ErrorEvent<Id extends string> = { type: `xstate.error.actor.${Id}`; error: unknown };
/** The named delay elapsed. */
export type AfterEvent<Delay extends string> = { type: `xstate.after.${Delay}` };

export interface MachineModel<TMachine extends AnyStateMachine, TEvent extends EventObject> {
  /** The machine the model was built from, with explicit events. */
  machine: TMachine;
  model: TestModel<SnapshotFrom<TMachine>, TEvent, unknown>;
}

export interface MachineModelOptions<TMachine extends AnyStateMachine, TEvent extends EventObject> {
  /** The concrete events (with payloads) to try in each state; an event type not listed is tried without payload. */
  events: readonly TEvent[];
  /** Leaves out events that cannot happen in the UI from a given snapshot. */
  filterEvents?: (snapshot: SnapshotFrom<TMachine>, event: TEvent) => boolean;
  input?: InputFrom<TMachine>;
}

/**
 * `createTestModel` over the machine with explicit events. A vertex of the model is a state value
 * plus context; which paths are run is decided by `coveringPaths`.
 */
export function createMachineModel<TMachine extends AnyStateMachine, TEvent extends EventObject>(
  machine: TMachine,
  options: MachineModelOptions<TMachine, TEvent>,
): MachineModel<TMachine, TEvent> {
  const testable = withExplicitEvents(machine);
  const model = createTestModel(testable, {
    events: options.events as never,
    ...(options.filterEvents ? { filterEvents: options.filterEvents as never } : {}),
    ...(options.input !== undefined ? { input: options.input as never } : {}),
    serializeTransition: () => '',
  }) as unknown as TestModel<SnapshotFrom<TMachine>, TEvent, unknown>;
  return { machine: testable, model };
}

const nodeIdsOf = (snapshot: AnyMachineSnapshot) => snapshot._nodes.map((node) => `node ${node.id}`);

function transitionId(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject): string[] {
  return machine.getTransitionData(snapshot, event).map((transition) => {
    const siblings = transition.source.transitions.get(transition.eventType) ?? [];
    return `transition ${transition.source.id} on ${transition.eventType} #${siblings.indexOf(transition)}`;
  });
}

/**
 * Every state node and every transition (per guard branch) the machine declares. A transient
 * node (only `always` transitions) is never rested in: it counts as covered when every target
 * of its branches is visited, so its targets are listed instead of itself.
 */
export function declaredFeatures(machine: AnyStateMachine): { nodes: string[]; transitions: string[] } {
  const nodes = getStateNodes(machine.root);
  const transient = nodes.filter((node) => node.always !== undefined);
  return {
    nodes: [
      ...nodes.filter((node) => node.always === undefined).map((node) => `node ${node.id}`),
      ...transient.flatMap((node) =>
        (node.always ?? []).flatMap((branch) => (branch.target ?? []).map((target) => `node ${target.id}`)),
      ),
    ],
    transitions: [machine.root, ...nodes].flatMap((node) =>
      [...node.transitions.entries()].flatMap(([eventType, list]) =>
        list.map((_, index) => `transition ${node.id} on ${eventType} #${index}`),
      ),
    ),
  };
}

/** Ids of the state nodes without a `description` (every state should say what the user sees). */
export function undescribedStates(machine: AnyStateMachine): string[] {
  return [machine.root, ...getStateNodes(machine.root)].filter((node) => !node.description).map((node) => node.id);
}

/** The leaf states a user can rest in (transient `always` states are never observed). */
export function stableLeafIds(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root)
    .filter((node) => Object.keys(node.states).length === 0 && node.always === undefined)
    .map((node) => `#${node.id}`);
}

export interface CoveringPath<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject> {
  name: string;
  path: TestPath<TSnapshot, TEvent>;
  features: string[];
}

const label = (event: EventObject) => {
  const { type, ...payload } = event as EventObject & Record<string, unknown>;
  const json = JSON.stringify(Object.values(payload).length === 1 ? Object.values(payload)[0] : payload);
  if (!Object.keys(payload).length || json === undefined) return type;
  return `${type} ${json.length > 60 ? `${json.slice(0, 57)}...` : json}`;
};

/**
 * Picks, greedily, few paths that together visit every reachable state node, take every
 * reachable transition (each guard branch counts) and show every extra feature (e.g. each
 * error message). Candidates are the shortest path to every vertex, extended by each of its
 * outgoing transitions.
 */
export function coveringPaths<TMachine extends AnyStateMachine, TEvent extends EventObject>(
  { machine, model }: MachineModel<TMachine, TEvent>,
  extraFeatures: (snapshot: SnapshotFrom<TMachine>) => string[] = () => [],
): Array<CoveringPath<SnapshotFrom<TMachine> & AnyMachineSnapshot, TEvent>> {
  type Snapshot = SnapshotFrom<TMachine> & AnyMachineSnapshot;
  const adjacency = model.getAdjacencyMap();
  const shortest = model.getShortestPaths({ allowDuplicatePaths: true });

  // getPathsFromEvents ignores the model's input: start it from the initial snapshot explicitly.
  const initial = shortest[0]?.steps[0]?.state;
  const candidates: Array<{ events: TEvent[]; features: Set<string> }> = [];
  for (const path of shortest) {
    const steps = path.steps as Array<{ state: Snapshot; event: TEvent }>;
    const events = steps.slice(1).map((step) => step.event);
    const base = new Set<string>();
    steps.forEach((step, index) => {
      for (const feature of [...nodeIdsOf(step.state), ...extraFeatures(step.state)]) base.add(feature);
      const previous = steps[index - 1];
      if (previous) for (const id of transitionId(machine, previous.state, step.event)) base.add(id);
    });
    const vertex = adjacency[serializeSnapshot(path.state as Snapshot)];
    const outgoing = vertex ? Object.values(vertex.transitions) : [];
    if (outgoing.length === 0) candidates.push({ events, features: base });
    for (const { event, state } of outgoing as Array<{ event: TEvent; state: Snapshot }>) {
      const features = new Set(base);
      for (const feature of [
        ...nodeIdsOf(state),
        ...extraFeatures(state),
        ...transitionId(machine, path.state as Snapshot, event),
      ]) {
        features.add(feature);
      }
      candidates.push({ events: [...events, event], features });
    }
  }

  const uncovered = new Set(candidates.flatMap((candidate) => [...candidate.features]));
  const picked: Array<{ events: TEvent[]; features: Set<string> }> = [];
  while (uncovered.size > 0) {
    let best = candidates[0]!;
    let bestGain = -1;
    for (const candidate of candidates) {
      const gain = [...candidate.features].filter((feature) => uncovered.has(feature)).length;
      if (gain > bestGain || (gain === bestGain && candidate.events.length < best.events.length)) {
        best = candidate;
        bestGain = gain;
      }
    }
    picked.push(best);
    for (const feature of best.features) uncovered.delete(feature);
  }

  return picked.map(({ events, features }) => {
    const [path] = model.getPathsFromEvents(events, { fromState: initial });
    if (path && serializeSnapshot(path.state) !== serializeSnapshot(finalStateOf(model, initial, events))) {
      throw new Error(`Path ${events.map(label).join(' → ')} does not replay`);
    }
    if (!path) throw new Error(`No path for ${events.map(label).join(' → ')}`);
    return {
      name: events.length ? events.map(label).join(' → ') : '(initial state)',
      path: path as unknown as TestPath<Snapshot, TEvent>,
      features: [...features],
    };
  });
}

function finalStateOf<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject>(
  model: TestModel<TSnapshot, TEvent, unknown>,
  initial: TSnapshot | undefined,
  events: TEvent[],
) {
  const logic = model.testLogic as unknown as AnyStateMachine;
  return events.reduce((snapshot, event) => getNextSnapshot(logic, snapshot, event), initial as AnyMachineSnapshot);
}

/** Features shown by the picked paths, to compare with `declaredFeatures`. */
export function coveredFeatures(paths: Array<{ features: string[] }>): Set<string> {
  return new Set(paths.flatMap((path) => path.features));
}

interface PendingCall {
  input: unknown;
  resolve: (output: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Test doubles for the promise actors at the network (and storage) boundary: each call waits
 * until the test settles it, so every state in between can be looked at.
 */
export function createActorDoubles() {
  const pending = new Map<string, PendingCall[]>();
  const inputs = new Map<string, unknown[]>();
  const queue = (name: string) => {
    if (!pending.has(name)) pending.set(name, []);
    return pending.get(name)!;
  };

  const next = async (name: string) => {
    await waitFor(() => {
      if (queue(name).length === 0) throw new Error(`The UI did not call ${name}`);
    });
    return queue(name).shift()!;
  };

  return {
    /** A promise actor named `name`; `onResolve` runs the real side effect once the test resolves it. */
    actor<TOutput, TInput>(name: string, onResolve?: (input: TInput) => void) {
      return fromPromise<TOutput, TInput>(
        ({ input }) =>
          new Promise<TOutput>((resolve, reject) => {
            inputs.set(name, [...(inputs.get(name) ?? []), input]);
            queue(name).push({
              input,
              resolve: (output) => {
                onResolve?.(input);
                resolve(output as TOutput);
              },
              reject,
            });
          }),
      );
    },
    async resolve(name: string, output?: unknown) {
      const call = await next(name);
      await act(async () => call.resolve(output));
    },
    async reject(name: string, error: unknown) {
      const call = await next(name);
      await act(async () => call.reject(error));
    },
    /** The inputs the actor `name` was called with, oldest first. */
    inputs(name: string): unknown[] {
      return inputs.get(name) ?? [];
    },
    /** Calls not settled yet. */
    pendingCount(name: string): number {
      return queue(name).length;
    },
  };
}

export type ActorDoubles = ReturnType<typeof createActorDoubles>;

/** How a user causes each event of the model; `satisfies` it against the model's event type. */
export type Executors<TSnapshot, TEvent extends EventObject> = {
  [K in TEvent['type']]: (step: { state: TSnapshot; event: Extract<TEvent, { type: K }> }) => Promise<void>;
};

/** What a user sees in each stable leaf state, keyed '#<state node id>'. */
export type StateChecks<TSnapshot> = Record<`#${string}`, (snapshot: TSnapshot) => void | Promise<void>>;

/** Runs a covering path against the rendered UI. */
export async function runPath<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject>(
  path: TestPath<TSnapshot, TEvent>,
  states: StateChecks<NoInfer<TSnapshot>>,
  events: Executors<NoInfer<TSnapshot>, NoInfer<TEvent>>,
): Promise<void> {
  const fallback = (snapshot: AnyMachineSnapshot) => {
    throw new Error(`No check for the state ${JSON.stringify(snapshot.value)}`);
  };
  await path.test({ states: { ...states, '*': fallback }, events } as never);
}

/**
 * What every model-based test asserts about its paths: every state has a description, every state
 * node is visited and every transition (each guard branch included) is taken.
 */
export function itCoversTheMachine(machine: AnyStateMachine, covered: ReadonlySet<string> | readonly string[]): void {
  const declared = declaredFeatures(machine);
  const seen = [...covered];
  it('describes every state', () => {
    expect(undescribedStates(machine)).toEqual([]);
  });
  it('visits every state node', () => {
    for (const node of declared.nodes) expect(seen).toContain(node);
  });
  it('takes every transition, each guard branch included', () => {
    for (const transition of declared.transitions) expect(seen).toContain(transition);
  });
}
