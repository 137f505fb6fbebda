/**
 * A machine's QA model: everything that decides its generated paths (the machine, the model's
 * events, their filter, the input or inputs, the features the paths must show) and how each step
 * reads in plain Spanish. It lives beside the machine (machines/<name>/<name>.model.test-support.ts),
 * free of the DOM, so the machine's test (which adds the executors and the state checks) and the QA
 * tool (tests/qa) build the very same paths, with the very same ids.
 */
import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, EventObject, InputFrom, SnapshotFrom } from 'xstate';
import { coveringPaths, type CoveringPath } from './covering-paths.ts';
import { createMachineModel, type MachineModel, type MachineModelOptions } from './explicit-events.ts';

/** Each model event type in plain Spanish; a function when the payload changes the sentence. */
export type EventDescriptions<TEvent extends EventObject> = {
  [K in TEvent['type']]: string | ((event: Extract<TEvent, { type: K }>) => string);
};

/** One starting point of the machine (its input), for machines walked from several. */
export interface QaVariant<TInput> {
  /** The test's name for it (its `describe` title). */
  name: string;
  /** Where the paths start, in plain Spanish ('con el segundo factor ya activado'). */
  description: string;
  input: TInput;
}

export interface QaModelDefinition<TMachine extends AnyStateMachine, TEvent extends EventObject>
  extends Omit<MachineModelOptions<TMachine, TEvent>, 'input'> {
  /** The machine's folder in machines/: the name `npm run qa` knows it by. */
  name: string;
  /** What the machine is, in plain Spanish (the report's title). */
  title: string;
  /** The real machine: coverage is counted on it, the diagram drawn from it. */
  machine: TMachine;
  /**
   * The machine the model explores when it differs from `machine`: the same machine with rules the
   * app provides (a guard that reads the browser, the dialog's validation).
   */
  modelMachine?: TMachine;
  /** The one input, or `variants`: one model per input. */
  input?: InputFrom<TMachine>;
  variants?: ReadonlyArray<QaVariant<InputFrom<TMachine>>>;
  /** What else the paths must show, beyond states and transitions (each error message…). */
  extraFeatures?: (snapshot: SnapshotFrom<TMachine>) => string[];
  /** Every model event in plain Spanish (`satisfies` the model's event type: a new event needs a sentence). */
  eventDescriptions: EventDescriptions<TEvent>;
}

/** One step as a person reads it. */
export interface QaStep {
  /** The QA name of the state the step starts from (each region's, for parallel states). */
  from: string;
  /** What happens, in plain Spanish. */
  event: string;
  /** The QA name of the state it leads to. */
  to: string;
  /** The ids of the states, for the report ('idle.ready'). */
  fromState: string;
  toState: string;
}

export interface QaPath<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject> extends CoveringPath<TSnapshot, TEvent> {
  /** The variant the path starts from (null when the machine has one input). */
  variant: QaVariant<unknown> | null;
  /** The QA name of the state the path starts in, and its ids. */
  start: string;
  startState: string;
  steps: QaStep[];
}

export interface QaVariantModel<TMachine extends AnyStateMachine, TEvent extends EventObject> {
  variant: QaVariant<InputFrom<TMachine>> | null;
  model: MachineModel<TMachine, TEvent>;
  paths: Array<QaPath<SnapshotFrom<TMachine> & AnyMachineSnapshot, TEvent>>;
}

export interface QaModel<TMachine extends AnyStateMachine, TEvent extends EventObject> extends QaModelDefinition<TMachine, TEvent> {
  /** One model per variant (or the one model), with its covering paths: built on first use. */
  readonly models: Array<QaVariantModel<TMachine, TEvent>>;
  /** Every covering path, all variants together. */
  readonly paths: Array<QaPath<SnapshotFrom<TMachine> & AnyMachineSnapshot, TEvent>>;
  /** The listed events (for the coverage check). */
  readonly events: readonly TEvent[];
}

/** A registry holds models of any machine. */
export type AnyQaModel = QaModel<any, any>;

/** The leaf states a snapshot rests in (one per region of a parallel state), in the machine's order. */
function leafNodes(snapshot: AnyMachineSnapshot): AnyStateNode[] {
  return snapshot._nodes.filter((node) => node.parent && Object.keys(node.states).length === 0).sort((a, b) => a.order - b.order);
}

/**
 * A state node's short Spanish name for QA (its `meta.qa`): the developers' `description` stays in
 * English in the code, the paths a tester reads are in Spanish only.
 */
export function qaName(node: AnyStateNode): string | undefined {
  const name = (node.meta as { qa?: unknown } | undefined)?.qa;
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}

/** What a person sees in a state: its leaves' QA names (each region's for parallel states, joined). */
export function stateQaName(snapshot: AnyMachineSnapshot): string {
  // A missing name shows the state's id, never its English description (qa-registry.test.ts fails on it).
  return leafNodes(snapshot)
    .map((node) => qaName(node) ?? `(sin nombre: ${node.id})`)
    .join(' + ');
}

/** The state's ids without the machine's ('idle.ready'), joined like `stateQaName`. */
export function stateName(snapshot: AnyMachineSnapshot): string {
  return leafNodes(snapshot)
    .map((node) => node.path.join('.'))
    .join(' + ');
}

/** The sentence of an event, from the model's descriptions. */
export function describeEvent<TEvent extends EventObject>(descriptions: EventDescriptions<TEvent>, event: TEvent): string {
  const description = (descriptions as Record<string, string | ((event: TEvent) => string) | undefined>)[event.type];
  if (description === undefined) throw new Error(`The model gives no description of the event '${event.type}'`);
  return typeof description === 'function' ? description(event) : description;
}

/**
 * The QA model of a machine: the definition, with its models and covering paths built on first use
 * (listing one machine does not explore them all).
 */
export function defineQaModel<TMachine extends AnyStateMachine, TEvent extends EventObject>(
  definition: QaModelDefinition<TMachine, TEvent>,
): QaModel<TMachine, TEvent> {
  type Snapshot = SnapshotFrom<TMachine> & AnyMachineSnapshot;
  let built: Array<QaVariantModel<TMachine, TEvent>> | undefined;
  const build = () => {
    const variants: Array<QaVariant<InputFrom<TMachine>> | null> = definition.variants?.length ? [...definition.variants] : [null];
    return variants.map((variant) => {
      const model = createMachineModel(definition.modelMachine ?? definition.machine, {
        events: definition.events,
        filterEvents: definition.filterEvents,
        stateKey: definition.stateKey,
        limit: definition.limit,
        input: variant ? variant.input : definition.input,
      });
      const paths = coveringPaths(model, definition.extraFeatures).map((path) => ({
        ...path,
        variant: variant as QaVariant<unknown> | null,
        start: stateQaName(path.path.steps[0]!.state as Snapshot),
        startState: stateName(path.path.steps[0]!.state as Snapshot),
        steps: path.path.steps.slice(1).map((step, index) => {
          const before = path.path.steps[index]!.state as Snapshot;
          return {
            from: stateQaName(before),
            event: describeEvent(definition.eventDescriptions, step.event),
            to: stateQaName(step.state as Snapshot),
            fromState: stateName(before),
            toState: stateName(step.state as Snapshot),
          };
        }),
      }));
      return { variant, model, paths };
    });
  };
  return {
    ...definition,
    get models() {
      built ??= build();
      return built;
    },
    get paths() {
      return this.models.flatMap((entry) => entry.paths);
    },
  };
}

/**
 * How an actor's failure reads: 'el servidor responde 401 wrong-password', 'la red falla
 * (network-error)', or the error's own message.
 */
export function failureSentence(error: unknown): string {
  // fetch rejects with a TypeError ('Failed to fetch') when no answer arrives.
  if (error instanceof TypeError) return 'la red falla (fetch no obtiene respuesta)';
  if (error instanceof Error) return `falla: ${error.message}`;
  const { status, type } = (typeof error === 'object' && error !== null ? error : {}) as { status?: number; type?: string };
  if (!status) return `la red falla (${type ?? 'sin respuesta'})`;
  return `el servidor responde ${status} ${type ?? ''}`.trimEnd();
}
