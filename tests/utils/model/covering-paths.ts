/**
 * Few paths through the model that together visit every reachable state node, take every reachable
 * transition and show every extra feature the test asks for.
 */
import { createHash } from 'node:crypto';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, SnapshotFrom } from 'xstate';
import type { StatePath, TestPath } from 'xstate/graph';
import { eventFeature, stepFeatures } from './coverage.ts';
import type { MachineModel } from './explicit-events.ts';

export interface CoveringPath<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject> {
  /** Stable id of the path: it changes only when the path's events (or the input it starts from) change. */
  id: string;
  /** `<id> <events>`: the test title, so `vitest -t <id>` runs this one path. */
  name: string;
  path: TestPath<TSnapshot, TEvent>;
  /** What the path shows: `node …`, `transition …` (ids of the real machine), `event …` and the extra features. */
  features: string[];
}

/** A short, readable name for an event in a test title. */
export const eventLabel = (event: EventObject) => {
  const { type, ...payload } = event as EventObject & Record<string, unknown>;
  const values = Object.values(payload);
  const json = JSON.stringify(values.length === 1 ? values[0] : payload);
  if (!Object.keys(payload).length || json === undefined) return type;
  return `${type} ${json.length > 60 ? `${json.slice(0, 57)}...` : json}`;
};

/**
 * The id of the path made of `events` from `input`: the first 8 hex digits of the SHA-1 of their
 * JSON. Picking other paths, reordering them or renaming a state leaves it as it is.
 */
export function pathId(events: readonly EventObject[], input?: unknown): string {
  const json = JSON.stringify(input === undefined ? events : { input, events });
  return createHash('sha1').update(json).digest('hex').slice(0, 8);
}

/**
 * Picks, greedily, few paths that together show every feature reachable in the model: state nodes,
 * transitions (each guard branch), the listed events, and `extraFeatures` of the states reached (e.g.
 * each error message). Candidates are the shortest path to every model state, extended by each of
 * its outgoing transitions. The picked paths are replayed on the machine, so each step's snapshot is
 * exactly what the running machine would hold (progress numbers included).
 */
export function coveringPaths<TMachine extends AnyStateMachine, TEvent extends EventObject>(
  machineModel: MachineModel<TMachine, TEvent>,
  extraFeatures: (snapshot: SnapshotFrom<TMachine>) => string[] = () => [],
): Array<CoveringPath<SnapshotFrom<TMachine> & AnyMachineSnapshot, TEvent>> {
  type Snapshot = SnapshotFrom<TMachine> & AnyMachineSnapshot;
  const { model, key, step, initial, initialTransitions } = machineModel;
  let adjacency: Record<string, { transitions: Record<string, { event: TEvent; state: Snapshot }> } | undefined>;
  let shortest: ReturnType<typeof model.getShortestPaths>;
  try {
    adjacency = model.getAdjacencyMap() as unknown as typeof adjacency;
    shortest = model.getShortestPaths({ allowDuplicatePaths: true });
  } catch (error) {
    if (error instanceof Error && error.message === 'Traversal limit exceeded') {
      throw new Error(
        `The model of '${machineModel.machine.id}' has too many states: leave out of \`stateKey\` what does not change what can ` +
          'happen next, or rule out with `filterEvents` the events that cannot happen (e.g. an actor answering twice)',
      );
    }
    throw error;
  }

  const memo = new Map<string, string[]>();
  const featuresOfStep = (from: Snapshot, event: TEvent): string[] => {
    const id = `${key(from)}|${JSON.stringify(event)}`;
    let features = memo.get(id);
    if (!features) {
      const { next, transitions } = step(from, event);
      features = [...stepFeatures(next, transitions), eventFeature(event), ...extraFeatures(next)];
      memo.set(id, features);
    }
    return features;
  };
  const initialFeatures = [...stepFeatures(initial, initialTransitions), ...extraFeatures(initial)];

  const candidates: Array<{ events: TEvent[]; features: Set<string>; target: string }> = [];
  for (const path of shortest) {
    const steps = path.steps as Array<{ state: Snapshot; event: TEvent }>;
    const events = steps.slice(1).map((entry) => entry.event);
    const base = new Set(initialFeatures);
    steps.forEach((entry, index) => {
      const previous = steps[index - 1];
      if (previous) for (const feature of featuresOfStep(previous.state, entry.event)) base.add(feature);
    });
    const vertex = adjacency[key(path.state as Snapshot)];
    const outgoing = vertex ? Object.values(vertex.transitions) : [];
    if (outgoing.length === 0) candidates.push({ events, features: base, target: key(path.state as Snapshot) });
    for (const { event, state } of outgoing) {
      const features = new Set(base);
      for (const feature of featuresOfStep(path.state as Snapshot, event)) features.add(feature);
      candidates.push({ events: [...events, event], features, target: key(state) });
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

  return picked.map(({ events, features, target }) => {
    const label = events.length ? events.map(eventLabel).join(' → ') : '(initial state)';
    const id = pathId(events, machineModel.input);
    const name = `${id} ${label}`;
    // Replay on the machine: the snapshots a running actor would hold after each event.
    const steps: Array<{ state: Snapshot; event: TEvent }> = [{ state: initial as Snapshot, event: { type: 'xstate.init' } as TEvent }];
    let current = initial as Snapshot;
    for (const event of events) {
      current = step(current, event).next as Snapshot;
      steps.push({ state: current, event });
    }
    if (key(current) !== target) throw new Error(`Path ${name} does not replay`);
    const statePath: StatePath<Snapshot, TEvent> = { state: current, steps, weight: events.length };
    const path: TestPath<Snapshot, TEvent> = {
      ...statePath,
      description: name,
      test: (params) => model.testPath(statePath, params as never),
    };
    return { id, name, path, features: [...features] };
  });
}
