/**
 * Model paths for the pure machines of the video list (tag-filter, video-filters), straight on
 * `createTestModel` from xstate/graph (these machines have no `invoke` and no `after`).
 *
 * The model's vertices are full snapshots (state value and context). A shortest path to every
 * vertex, extended by each of its outgoing events, is a candidate; the candidates are then picked
 * greedily until every state node and every transition (each guard branch counted apart), plus the
 * test's own extra features, is shown by some picked path. Every picked path is a real sequence of
 * events from the initial snapshot, replayed by the UI.
 */
import { expect, it } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, SnapshotFrom } from 'xstate';
import { createTestModel, getStateNodes, serializeSnapshot, type TestPath } from 'xstate/graph';

export interface ModelPath<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject> {
  name: string;
  path: TestPath<TSnapshot, TEvent>;
  features: string[];
}

export interface ModelOptions<TMachine extends AnyStateMachine, TEvent extends EventObject> {
  /** Every event (with its payloads) the model may send; events the machine does not take are ignored. */
  events: readonly TEvent[];
  /** Events a user cannot cause from a snapshot (e.g. selecting a tag that is not listed). */
  filterEvents?: (snapshot: SnapshotFrom<TMachine>, event: TEvent) => boolean;
  /** Features besides nodes and transitions that some path must show (e.g. "the chip reads 'y 1 más'"). */
  extraFeatures?: (snapshot: SnapshotFrom<TMachine>) => string[];
  /** Every event (payload included) that some path must take, when the machine takes it: each way a user acts. */
  everyEvent?: boolean;
  input?: unknown;
  /**
   * What makes two snapshots the same vertex of the model; by default the state value and the whole
   * context. A coarser key (e.g. "how many tags are selected") keeps the model small when the
   * context can take many values; the paths stay real runs of the machine.
   */
  abstractState?: (snapshot: SnapshotFrom<TMachine>) => string;
}

const nodeFeatures = (snapshot: AnyMachineSnapshot) => snapshot._nodes.map((node) => `node ${node.id}`);

function transitionFeatures(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject, everyEvent = false): string[] {
  const taken = machine.getTransitionData(snapshot as never, event).map((transition) => {
    const siblings = transition.source.transitions.get(transition.eventType) ?? [];
    return `transition ${transition.source.id} on ${transition.eventType} #${siblings.indexOf(transition)}`;
  });
  return everyEvent && taken.length > 0 ? [...taken, `event ${label(event)}`] : taken;
}

/** Every state node and every transition (per guard branch) the machine declares. */
export function declaredFeatures(machine: AnyStateMachine): string[] {
  const nodes = getStateNodes(machine.root);
  return [
    ...nodes.map((node) => `node ${node.id}`),
    ...[machine.root, ...nodes].flatMap((node) =>
      [...node.transitions.entries()].flatMap(([eventType, list]) =>
        list.map((_, index) => `transition ${node.id} on ${eventType} #${index}`),
      ),
    ),
  ];
}

export function undescribedStates(machine: AnyStateMachine): string[] {
  return [machine.root, ...getStateNodes(machine.root)].filter((node) => !node.description).map((node) => node.id);
}

function label(event: EventObject): string {
  const { type, ...payload } = event as EventObject & Record<string, unknown>;
  return Object.keys(payload).length ? `${type} ${JSON.stringify(payload)}` : type;
}

export function coveringPaths<TMachine extends AnyStateMachine, TEvent extends EventObject>(
  machine: TMachine,
  options: ModelOptions<TMachine, TEvent>,
): Array<ModelPath<SnapshotFrom<TMachine> & AnyMachineSnapshot, TEvent>> {
  type Snapshot = SnapshotFrom<TMachine> & AnyMachineSnapshot;
  const extra = (snapshot: Snapshot) => options.extraFeatures?.(snapshot) ?? [];
  const model = createTestModel(machine, {
    events: options.events as never,
    ...(options.filterEvents ? { filterEvents: options.filterEvents as never } : {}),
    ...(options.input !== undefined ? { input: options.input as never } : {}),
    serializeTransition: () => '',
    ...(options.abstractState ? { serializeState: options.abstractState as never } : {}),
  });
  const keyOf = (snapshot: Snapshot) => (options.abstractState ? options.abstractState(snapshot) : serializeSnapshot(snapshot));
  const adjacency = model.getAdjacencyMap();
  const shortest = model.getShortestPaths({ allowDuplicatePaths: true });
  const initial = shortest[0]?.steps[0]?.state as Snapshot | undefined;

  const candidates: Array<{ events: TEvent[]; features: Set<string> }> = [];
  for (const path of shortest) {
    const steps = path.steps as unknown as Array<{ state: Snapshot; event: TEvent }>;
    const events = steps.slice(1).map((step) => step.event);
    const base = new Set<string>();
    steps.forEach((step, index) => {
      for (const feature of [...nodeFeatures(step.state), ...extra(step.state)]) base.add(feature);
      const previous = steps[index - 1];
      if (previous) for (const feature of transitionFeatures(machine, previous.state, step.event, options.everyEvent)) base.add(feature);
    });
    candidates.push({ events, features: base });
    const vertex = adjacency[keyOf(path.state as Snapshot) as keyof typeof adjacency];
    for (const { event, state } of Object.values(vertex?.transitions ?? {}) as Array<{ event: TEvent; state: Snapshot }>) {
      const features = new Set(base);
      for (const feature of [...nodeFeatures(state), ...extra(state), ...transitionFeatures(machine, path.state as Snapshot, event, options.everyEvent)]) {
        features.add(feature);
      }
      candidates.push({ events: [...events, event], features });
    }
  }

  const uncovered = new Set(candidates.flatMap((candidate) => [...candidate.features]));
  const picked: typeof candidates = [];
  while (uncovered.size > 0) {
    let best = candidates[0]!;
    let bestGain = -1;
    for (const candidate of candidates) {
      let gain = 0;
      for (const feature of candidate.features) if (uncovered.has(feature)) gain += 1;
      if (gain > bestGain || (gain === bestGain && candidate.events.length < best.events.length)) {
        best = candidate;
        bestGain = gain;
      }
    }
    picked.push(best);
    for (const feature of best.features) uncovered.delete(feature);
  }

  return picked.map(({ events, features }) => {
    // getPathsFromEvents ignores the model's input: start from the initial snapshot explicitly.
    const [path] = model.getPathsFromEvents(events as never, { fromState: initial as never });
    if (!path) throw new Error(`No path for ${events.map(label).join(' → ')}`);
    return {
      name: events.length ? events.map(label).join(' → ') : '(initial state)',
      path: path as unknown as TestPath<Snapshot, TEvent>,
      features: [...features],
    };
  });
}

/** The three assertions every model-based test of these machines makes about its paths. */
export function itCoversEveryStateAndTransition(machine: AnyStateMachine, paths: ReadonlyArray<{ features: string[] }>): void {
  const covered = new Set(paths.flatMap((path) => path.features));
  const declared = declaredFeatures(machine);
  it('describes every state', () => {
    expect(undescribedStates(machine)).toEqual([]);
  });
  it('visits every state node', () => {
    expect(declared.filter((feature) => feature.startsWith('node ') && !covered.has(feature))).toEqual([]);
  });
  it('takes every transition, each guard branch included', () => {
    const transitions = declared.filter((feature) => feature.startsWith('transition '));
    expect(transitions.length).toBeGreaterThan(0);
    expect(transitions.filter((feature) => !covered.has(feature))).toEqual([]);
  });
}
