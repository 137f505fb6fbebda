/**
 * Coverage counted on the real machine: what it declares (every state node, every transition
 * with each guard branch, `always` branches, invocations' onDone/onError/onSnapshot, delays) against
 * what the chosen paths show. Whatever the model leaves out shows up as uncovered; it cannot vanish.
 */
import { expect, it } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, AnyTransitionDefinition, EventObject } from 'xstate';
import { getStateNodes } from 'xstate/graph';

/** `transition <state id> on <event descriptor> #<branch>`, or `… always #<branch>`; null for a transition the machine does not list (the initial one). */
export function transitionId(transition: AnyTransitionDefinition): string | null {
  const source = transition.source as AnyStateNode;
  if (transition.eventType === '') {
    const index = (source.always ?? []).indexOf(transition);
    return index < 0 ? null : `transition ${source.id} always #${index}`;
  }
  const index = (source.transitions.get(transition.eventType) ?? []).indexOf(transition);
  return index < 0 ? null : `transition ${source.id} on ${transition.eventType} #${index}`;
}

/** The state nodes a snapshot rests in and the transitions (with their source states) that led there. */
export function stepFeatures(snapshot: AnyMachineSnapshot, transitions: readonly AnyTransitionDefinition[]): string[] {
  const taken = transitions.map((transition) => ({ transition, id: transitionId(transition) })).filter(({ id }) => id !== null);
  return [
    ...snapshot._nodes.filter((node) => node.parent).map((node) => `node ${node.id}`),
    // A transient state (only `always` branches) is never rested in: taking one of its branches visits it.
    ...taken.map(({ transition }) => (transition.source as AnyStateNode)).filter((node) => node.parent).map((node) => `node ${node.id}`),
    ...taken.map(({ id }) => id!),
  ];
}

/** `event <json>`: the model took this concrete event. */
export const eventFeature = (event: EventObject) => `event ${JSON.stringify(event)}`;

/** Every state node and every transition (each guard branch, each `always` branch) the machine declares. */
export function declaredFeatures(machine: AnyStateMachine): { nodes: string[]; transitions: string[] } {
  const nodes = getStateNodes(machine.root);
  return {
    nodes: nodes.map((node) => `node ${node.id}`),
    transitions: [machine.root, ...nodes].flatMap((node) => [
      ...[...node.transitions.entries()].flatMap(([eventType, list]) =>
        list.map((_, index) => `transition ${node.id} on ${eventType} #${index}`),
      ),
      ...(node.always ?? []).map((_, index) => `transition ${node.id} always #${index}`),
    ]),
  };
}

/** Ids of the state nodes without a `description` (every state should say what the user sees). */
export function undescribedStates(machine: AnyStateMachine): string[] {
  return [machine.root, ...getStateNodes(machine.root)].filter((node) => !node.description).map((node) => node.id);
}

/** A state left at once by an unguarded `always` branch: no one ever rests (or looks) there. */
const isTransient = (node: AnyStateNode) => (node.always ?? []).some((branch) => !branch.guard);

/** The leaf states a user can rest in (transient states are never observed), as '#<id>'. */
export function stableLeafIds(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root)
    .filter((node) => Object.keys(node.states).length === 0 && !isTransient(node))
    .map((node) => `#${node.id}`);
}

interface PathLike {
  features: readonly string[];
  path: { steps: ReadonlyArray<{ event: EventObject }> };
}

/** Features shown by the picked paths. */
export function coveredFeatures(paths: ReadonlyArray<{ features: readonly string[] }>): Set<string> {
  return new Set(paths.flatMap((path) => path.features));
}

/** Stable, non-final leaf states that declare no way out (nor do their ancestors): a user would be stuck. */
export function deadEnds(machine: AnyStateMachine): string[] {
  const leaves = new Set(stableLeafIds(machine));
  return getStateNodes(machine.root)
    .filter((node) => leaves.has(`#${node.id}`) && node.type !== 'final')
    .filter((node) => {
      for (let current: AnyStateNode | undefined = node; current; current = current.parent) {
        if (current.transitions.size > 0 || (current.always ?? []).length > 0) return false;
      }
      return true;
    })
    .map((node) => `#${node.id}`);
}

/** What the test states independently of the machine; each is checked against what the paths did. */
export interface CoverageExpectations {
  /** The events the test lists: each must be taken by some path (a machine that stopped reacting to one fails). */
  events?: readonly EventObject[];
  /** The state checks: exactly the stable leaf states. */
  states?: Record<string, unknown>;
  /** The event executors: exactly the event types the paths take. */
  executors?: Record<string, unknown>;
}

export interface CoverageReport {
  /** States without a description. */
  undescribed: string[];
  /** Declared state nodes no path visits. */
  unvisited: string[];
  /** Declared transitions no path takes. */
  untaken: string[];
  /** Nodes or transitions the paths show that the machine does not declare (the model was built from another machine). */
  undeclared: string[];
  /** Listed events no path takes. */
  unusedEvents: string[];
  /** States a user can rest in that are not final and that nothing leaves (no transition of theirs or their ancestors'). */
  deadEnds: string[];
  /** Stable leaf states without a check, and checks of states the machine does not have. */
  uncheckedStates: string[];
  unknownChecks: string[];
  /** Event types the paths take without an executor, and executors of event types no path takes. */
  undrivenEvents: string[];
  unusedExecutors: string[];
}

/** Compares what the real machine declares with what the paths cover; every list empty means covered. */
export function coverageReport(
  machine: AnyStateMachine,
  paths: readonly PathLike[],
  expectations: CoverageExpectations = {},
): CoverageReport {
  const declared = declaredFeatures(machine);
  const covered = coveredFeatures(paths);
  const declaredSet = new Set([...declared.nodes, ...declared.transitions]);
  const structural = [...covered].filter((feature) => feature.startsWith('node ') || feature.startsWith('transition '));
  const takenTypes = new Set(paths.flatMap((path) => path.path.steps.slice(1).map((step) => step.event.type)));
  const leaves = stableLeafIds(machine);
  const checks = Object.keys(expectations.states ?? {});
  const executors = Object.keys(expectations.executors ?? {});
  return {
    undescribed: undescribedStates(machine),
    unvisited: declared.nodes.filter((node) => !covered.has(node)),
    untaken: declared.transitions.filter((transition) => !covered.has(transition)),
    undeclared: structural.filter((feature) => !declaredSet.has(feature)),
    deadEnds: deadEnds(machine),
    unusedEvents: (expectations.events ?? []).map(eventFeature).filter((feature) => !covered.has(feature)),
    uncheckedStates: expectations.states ? leaves.filter((leaf) => !checks.includes(leaf)) : [],
    unknownChecks: checks.filter((check) => !leaves.includes(check)),
    undrivenEvents: expectations.executors ? [...takenTypes].filter((type) => !executors.includes(type)) : [],
    unusedExecutors: executors.filter((type) => !takenTypes.has(type)),
  };
}

/**
 * What every model-based test asserts: every state has a description, every state node of the real
 * machine is visited and every transition taken (each guard branch included), nothing else is;
 * and, when given, every listed event is taken, every stable state is checked and every event driven.
 */
export function itCoversTheMachine(
  machine: AnyStateMachine,
  paths: readonly PathLike[],
  expectations: CoverageExpectations = {},
): void {
  const report = () => coverageReport(machine, paths, expectations);
  it('describes every state', () => {
    expect(report().undescribed).toEqual([]);
  });
  it('visits every state node, and every state a user reaches has a way out (or is final)', () => {
    const { unvisited, deadEnds } = report();
    expect({ unvisited, deadEnds }).toEqual({ unvisited: [], deadEnds: [] });
  });
  it('takes every transition, each guard branch included, and only those the machine declares', () => {
    const { untaken, undeclared } = report();
    expect({ untaken, undeclared }).toEqual({ untaken: [], undeclared: [] });
  });
  if (expectations.events) {
    it('takes every event the test lists', () => {
      expect(report().unusedEvents).toEqual([]);
    });
  }
  if (expectations.states || expectations.executors) {
    it('checks every state a user can see and drives every event', () => {
      const { uncheckedStates, unknownChecks, undrivenEvents, unusedExecutors } = report();
      expect({ uncheckedStates, unknownChecks, undrivenEvents, unusedExecutors }).toEqual({
        uncheckedStates: [],
        unknownChecks: [],
        undrivenEvents: [],
        unusedExecutors: [],
      });
    });
  }
}
