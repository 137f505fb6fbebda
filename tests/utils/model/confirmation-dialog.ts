import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import { coverageReport } from './coverage.ts';
import type { CoveringPath } from './covering-paths.ts';
import { runPath, type Executors, type StateChecks } from './run-path.ts';

/**
 * The coverage report of a confirmation on the dialog machine (machines/dialog): every state and
 * transition but the form rules, which a confirmation never takes (validate accepts everything,
 * nothing is ever a no-op).
 */
export const CONFIRMATION_COVERAGE = {
  undescribed: [],
  unvisited: ['node dialog.open.invalid'],
  untaken: [
    'transition dialog.open on dialog.submit #0',
    'transition dialog.open on dialog.submit #2',
    'transition dialog.failed on dialog.submit #0',
    'transition dialog.failed on dialog.submit #2',
  ],
  undeclared: [],
  deadEnds: [],
  unusedEvents: [],
  uncheckedStates: ['#dialog.open.invalid'],
  unknownChecks: [],
  undrivenEvents: [],
  unusedExecutors: [],
};

export interface ConfirmationModel<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject> {
  machine: AnyStateMachine;
  paths: ReadonlyArray<CoveringPath<TSnapshot, TEvent>>;
  events: readonly TEvent[];
  states: StateChecks<TSnapshot>;
  executors: Executors<TSnapshot, TEvent>;
  /** Brings the app to where the dialog opens from (and resets what the checks compare with). */
  start: () => Promise<void>;
}

/**
 * The two suites every confirmation dialog has: each covering path walked against the UI from
 * `start`, and the coverage report those paths give (`CONFIRMATION_COVERAGE`).
 */
export function describeConfirmationModel<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject>(
  name: string,
  where: string,
  { machine, paths, events, states, executors, start }: ConfirmationModel<TSnapshot, TEvent>,
): void {
  describe(`${name} model (${where})`, () => {
    for (const { name: pathName, path } of paths) {
      it(pathName, async () => {
        await start();
        await runPath(path, states, executors);
      });
    }
  });

  describe(`${name} model coverage`, () => {
    it('walks every state and transition a confirmation can reach; only the form rules stay unused', () => {
      expect(coverageReport(machine, paths, { events, states, executors })).toEqual(CONFIRMATION_COVERAGE);
    });
  });
}
