/**
 * Coverage is counted on the real machine: what a model leaves out shows up as uncovered, and a
 * transition or an onDone removed from the machine fails the checks `itCoversTheMachine` makes
 * (it asserts that every list of `coverageReport` is empty).
 */
import { createMachine, type AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { coveringPaths } from './covering-paths.ts';
import { coverageReport, type CoverageReport } from './coverage.ts';
import { createMachineModel } from './explicit-events.ts';
import { FILE_INPUT, uploadFileEvents, wizardEventPossible, wizardEvents } from './fixtures/upload-events.ts';
import { uploadFileMachine } from './fixtures/upload-file.machine.ts';
import { uploadWizardMachine } from './fixtures/upload-wizard.machine.ts';

type Config = Record<string, unknown>;

/** A copy of `machine` whose config `edit` changed; the implementations stay the same. */
function tampered<TMachine extends AnyStateMachine>(machine: TMachine, edit: (config: Config) => void): TMachine {
  const copy = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(copy)
      : value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype
        ? Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, copy(entry)]))
        : value;
  const config = copy(machine.config) as Config;
  edit(config);
  return createMachine(config as never, machine.implementations as never) as unknown as TMachine;
}

/** `config.states.<a>.states.<b>…` */
const stateConfig = (config: Config, ...path: string[]) =>
  path.reduce((node, key) => (node.states as Record<string, Config>)[key]!, config);

const wizardPaths = (machine: typeof uploadWizardMachine, events = wizardEvents) =>
  coveringPaths(createMachineModel(machine, { events, filterEvents: wizardEventPossible }));
const filePaths = (machine: typeof uploadFileMachine) =>
  coveringPaths(createMachineModel(machine, { events: uploadFileEvents, input: FILE_INPUT }));

const empty: CoverageReport = {
  undescribed: [],
  unvisited: [],
  untaken: [],
  undeclared: [],
  deadEnds: [],
  unusedEvents: [],
  uncheckedStates: [],
  unknownChecks: [],
  undrivenEvents: [],
  unusedExecutors: [],
};

const fileExecutors = Object.fromEntries(uploadFileEvents.map((event) => [event.type, () => {}]));

describe('coverage counted on the real machine', () => {
  it('finds nothing missing when the model is the machine and the test lists every answer', () => {
    expect(coverageReport(uploadWizardMachine, wizardPaths(uploadWizardMachine), { events: wizardEvents })).toEqual(empty);
    expect(coverageReport(uploadFileMachine, filePaths(uploadFileMachine), { events: uploadFileEvents, executors: fileExecutors })).toEqual(
      empty,
    );
  });

  it("counts a transition the model left out as uncovered (the invocation's onSnapshot a rewriting helper dropped)", () => {
    // What the former helper did: model a copy of the config in which `onSnapshot` was lost.
    const withoutOnSnapshot = tampered(uploadWizardMachine, (config) => {
      delete (stateConfig(config, 'confirming').invoke as Config).onSnapshot;
    });
    const report = coverageReport(uploadWizardMachine, wizardPaths(withoutOnSnapshot));
    expect(report.untaken).toEqual([
      'transition uploadWizard.confirming on xstate.snapshot.thumbnail #0',
      'transition uploadWizard.thumbnailFailed on wizard.confirm #0',
    ]);
    expect(report.unvisited).toEqual(['node uploadWizard.thumbnailFailed']);
  });

  it("counts an actor's answer the test does not list as uncovered, instead of skipping it", () => {
    const events = wizardEvents.filter((event) => event.type !== 'xstate.snapshot.thumbnail');
    const report = coverageReport(uploadWizardMachine, wizardPaths(uploadWizardMachine, events), { events });
    expect(report.untaken).toContain('transition uploadWizard.confirming on xstate.snapshot.thumbnail #0');
    expect(report.unvisited).toEqual(['node uploadWizard.thumbnailFailed']);
  });

  it('fails when an onDone is removed from the machine: the answer the test lists is never taken', () => {
    const withoutOnDone = tampered(uploadWizardMachine, (config) => {
      delete (stateConfig(config, 'requestingSession').invoke as Config).onDone;
    });
    const report = coverageReport(withoutOnDone, wizardPaths(withoutOnDone), { events: wizardEvents });
    expect(report.unusedEvents).toContain(
      `event ${JSON.stringify(wizardEvents.find((event) => event.type === 'xstate.done.actor.requestUploadSession'))}`,
    );
    // And everything after it can no longer be reached.
    expect(report.unvisited).toEqual(
      expect.arrayContaining(['node uploadWizard.uploading', 'node uploadWizard.ready', 'node uploadWizard.confirmed']),
    );
  });

  it('fails when a transition is removed from the machine: the event and its executor go unused', () => {
    const withoutProgress = tampered(uploadFileMachine, (config) => {
      delete (stateConfig(config, 'uploading').on as Config)['upload.progress'];
    });
    const report = coverageReport(withoutProgress, filePaths(withoutProgress), { events: uploadFileEvents, executors: fileExecutors });
    expect(report.unusedEvents).toEqual([
      'event {"type":"upload.progress","loaded":25,"total":200}',
      'event {"type":"upload.progress","loaded":150,"total":200}',
    ]);
    expect(report.unusedExecutors).toEqual(['upload.progress']);
  });

  it("fails when a state's only way out is removed: the user would be stuck there", () => {
    const withoutRetry = tampered(uploadFileMachine, (config) => {
      delete stateConfig(config, 'cancelled').on;
    });
    const report = coverageReport(withoutRetry, filePaths(withoutRetry), { events: uploadFileEvents });
    expect(report.deadEnds).toEqual(['#uploadFile.cancelled']);
  });
});
