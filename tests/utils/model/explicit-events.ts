/**
 * The test model of a machine, built on the machine itself (not on a rewritten copy).
 *
 * `createTestModel` from xstate/graph refuses machines with `invoke` or `after` (its
 * `validateMachine`), and only offers events whose type equals a state's event descriptor. What it
 * builds is xstate/graph's `TestModel` over the machine; we build the same `TestModel` over the
 * real machine with our own event offer, so that:
 *
 * - an invoked actor's answers are the events the running machine receives: `xstate.done.actor.<id>`
 *   (with `output`), `xstate.error.actor.<id>` (with `error`), `xstate.snapshot.<id>` (onSnapshot,
 *   with `snapshot`); spawned children's answers the same, wildcard descriptors included;
 * - a named delay is the explicit event `xstate.after.<delay>` (the machine's own event is
 *   `xstate.after.<delay>.<state id>`; the model translates);
 * - guards, actions, context and transitions are the machine's own: the model cannot drift.
 *
 * No side effect runs while the model is explored: actions, actors and timers are resolved but
 * never executed (the actor scope executes nothing).
 */
import {
  createEmptyActor,
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  type EventObject,
  type InputFrom,
  type SnapshotFrom,
} from 'xstate';
import { TestModel } from 'xstate/graph';

/** `{ type: 'xstate.done.actor.<id>', output }`: the invoked (or spawned) actor `id` finished. */
export type DoneEvent<Id extends string, Output = undefined> = { type: `xstate.done.actor.${Id}`; output: Output };
/** `{ type: 'xstate.error.actor.<id>', error }`: the actor `id` failed (a promise rejected). */
export type ErrorEvent<Id extends string> = { type: `xstate.error.actor.${Id}`; error: unknown };
/** `{ type: 'xstate.snapshot.<id>', snapshot }`: the invoked actor `id` changed (what `onSnapshot` reacts to). */
export type SnapshotEvent<Id extends string, Snapshot = unknown> = { type: `xstate.snapshot.${Id}`; snapshot: Snapshot };
/** The named delay elapsed in the state that declares it. */
export type AfterEvent<Delay extends string> = { type: `xstate.after.${Delay}` };

const AFTER = 'xstate.after.';

/** The delayed transitions of the active states, deepest state first. */
function delayedTransitions(snapshot: AnyMachineSnapshot) {
  return [...snapshot._nodes].reverse().flatMap((node) => node.after.map((transition) => ({ node, transition })));
}

/**
 * The event the running machine receives for a model event: `xstate.after.<delay>` becomes the
 * delayed event of the active state that declares that delay; every other event is unchanged.
 */
export function toMachineEvent(snapshot: AnyMachineSnapshot, event: EventObject): EventObject {
  if (!event.type.startsWith(AFTER)) return event;
  const delay = event.type.slice(AFTER.length);
  const matches = delayedTransitions(snapshot).filter(({ transition }) => String(transition.delay) === delay);
  const owners = new Set(matches.map(({ node }) => node.id));
  if (owners.size > 1) {
    throw new Error(`Delay '${delay}' is declared by several active states (${[...owners].join(', ')}): give each its own name`);
  }
  return matches[0] ? { type: matches[0].transition.eventType } : event;
}

/** The model's name of a machine event type: `xstate.after.<delay>.<state id>` → `xstate.after.<delay>`. */
function modelEventType(snapshot: AnyMachineSnapshot, descriptor: string): string {
  if (!descriptor.startsWith(AFTER)) return descriptor;
  const found = delayedTransitions(snapshot).find(({ transition }) => transition.eventType === descriptor);
  return found ? `${AFTER}${String(found.transition.delay)}` : descriptor;
}

const ANSWER = /^xstate\.(?:done\.actor|error\.actor|snapshot)\.(.+)$/;

/** An actor's answer can only come from a child the snapshot has (invoked or spawned, not stopped). */
function fromRunningChild(snapshot: AnyMachineSnapshot, event: EventObject): boolean {
  const id = ANSWER.exec(event.type)?.[1];
  return id === undefined || snapshot.children[id] !== undefined;
}

/** Step of the model: the snapshot an event leads to and every transition taken on the way (microsteps included). */
export interface ModelStep<TSnapshot> {
  next: TSnapshot;
  transitions: AnyTransitionDefinition[];
}

/**
 * An actor scope that executes nothing (actions, spawned actors and timers are only resolved) and
 * records the transitions of each microstep, so `always` branches and internal events count too.
 */
function createModelScope() {
  const self = createEmptyActor();
  let record: ((transitions: AnyTransitionDefinition[]) => void) | undefined;
  const system = self.system as unknown as { _sendInspectionEvent: (event: Record<string, unknown>) => void };
  system._sendInspectionEvent = (inspection) => {
    if (inspection.type === '@xstate.microstep' && inspection.actorRef === self) {
      record?.(inspection._transitions as AnyTransitionDefinition[]);
    }
  };
  const scope = {
    self,
    logger: () => {},
    id: '',
    sessionId: 'model',
    defer: () => {},
    system: self.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope;
  return {
    scope,
    recording<T>(run: () => T): { result: T; transitions: AnyTransitionDefinition[] } {
      const transitions: AnyTransitionDefinition[] = [];
      record = (taken) => transitions.push(...taken);
      try {
        return { result: run(), transitions };
      } finally {
        record = undefined;
      }
    },
  };
}

export interface MachineModelOptions<TMachine extends AnyStateMachine, TEvent extends EventObject> {
  /**
   * The concrete events (with payloads) to try in each state. An event is tried where the machine
   * reacts to it, and an actor's answer (`xstate.done…`, `xstate.error…`, `xstate.snapshot…`) only
   * while that actor is a child of the snapshot. Events without payload that are not listed (user
   * events, delays) are tried too; actors' answers must be listed.
   */
  events: readonly TEvent[];
  /** Leaves out events that cannot happen in the UI from a given snapshot. */
  filterEvents?: (snapshot: SnapshotFrom<TMachine>, event: TEvent) => boolean;
  input?: InputFrom<TMachine>;
  /**
   * What tells two model states apart (default: state value and context). Leave out what changes
   * without changing what can happen next, e.g. upload progress numbers, so that progress events
   * are one self-loop to cover instead of a new state per percentage.
   */
  stateKey?: (snapshot: SnapshotFrom<TMachine>) => unknown;
  /**
   * How many model states the exploration may visit before it gives up (default 20 000): a context
   * that grows without end (a counter, a list) would otherwise explore forever.
   */
  limit?: number;
}

export interface MachineModel<TMachine extends AnyStateMachine, TEvent extends EventObject> {
  /** The machine the model explores (the real one, with any implementations the test provided). */
  machine: TMachine;
  model: TestModel<SnapshotFrom<TMachine>, TEvent, unknown>;
  /** The events the test listed. */
  events: readonly TEvent[];
  /** The input the machine starts with (part of each path's id: the same events from another input are another path). */
  input: InputFrom<TMachine> | undefined;
  initial: SnapshotFrom<TMachine>;
  /** Transitions taken while starting the machine (initial `always` branches). */
  initialTransitions: AnyTransitionDefinition[];
  /** The model state a snapshot belongs to. */
  key(snapshot: SnapshotFrom<TMachine>): string;
  /** One model step, computed on the machine (nothing executes). */
  step(snapshot: SnapshotFrom<TMachine>, event: TEvent): ModelStep<SnapshotFrom<TMachine>>;
}

/** `TestModel` of xstate/graph over the machine itself, with actors' answers and delays as explicit events. */
export function createMachineModel<TMachine extends AnyStateMachine, TEvent extends EventObject>(
  machine: TMachine,
  options: MachineModelOptions<TMachine, TEvent>,
): MachineModel<TMachine, TEvent> {
  type Snapshot = SnapshotFrom<TMachine>;
  const { scope, recording } = createModelScope();
  const stateKey =
    options.stateKey ?? ((snapshot: Snapshot) => ({ value: (snapshot as AnyMachineSnapshot).value, context: (snapshot as AnyMachineSnapshot).context }));
  const key = (snapshot: Snapshot) => JSON.stringify(stateKey(snapshot));
  const listedTypes = new Set(options.events.map((event) => event.type));

  const start = recording(() => machine.getInitialSnapshot(scope, options.input) as Snapshot);
  const step = (snapshot: Snapshot, event: TEvent): ModelStep<Snapshot> => {
    const { result, transitions } = recording(
      () => machine.transition(snapshot, toMachineEvent(snapshot as AnyMachineSnapshot, event), scope) as Snapshot,
    );
    return { next: result, transitions };
  };
  const reacts = (snapshot: Snapshot, event: EventObject) =>
    machine.getTransitionData(snapshot, toMachineEvent(snapshot as AnyMachineSnapshot, event)).length > 0;

  /** Events tried from a snapshot: the listed ones the machine reacts to, plus payload-free unlisted ones. */
  const offered = (snapshot: Snapshot): TEvent[] => {
    const machineSnapshot = snapshot as AnyMachineSnapshot;
    const own = new Set(machineSnapshot._nodes.flatMap((node) => [...node.transitions.keys()]));
    const unlisted = [...own]
      .map((descriptor) => modelEventType(machineSnapshot, descriptor))
      .filter((type) => !listedTypes.has(type) && !type.includes('*'))
      .filter((type) => type.startsWith(AFTER) || !type.startsWith('xstate.'))
      .map((type) => ({ type }) as TEvent);
    return [...options.events, ...new Map(unlisted.map((event) => [event.type, event])).values()].filter(
      (event) =>
        fromRunningChild(machineSnapshot, event) && reacts(snapshot, event) && (options.filterEvents?.(snapshot, event) ?? true),
    );
  };

  const logic = {
    transition: (snapshot: Snapshot, event: TEvent) => step(snapshot, event).next,
    getInitialSnapshot: () => start.result,
  };
  const model = new TestModel<Snapshot, TEvent, unknown>(logic as never, {
    limit: options.limit ?? 20_000,
    serializeState: (snapshot) => key(snapshot),
    serializeEvent: (event) => JSON.stringify(event),
    events: offered,
    fromState: start.result,
    stateMatcher: (snapshot, stateKey) =>
      stateKey.startsWith('#')
        ? (snapshot as AnyMachineSnapshot)._nodes.some((node) => `#${node.id}` === stateKey)
        : (snapshot as AnyMachineSnapshot).matches(stateKey as never),
  });

  return {
    machine,
    model,
    events: options.events,
    input: options.input,
    initial: start.result,
    initialTransitions: start.transitions,
    key,
    step,
  };
}
