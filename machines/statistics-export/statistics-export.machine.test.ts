/**
 * The statistics export machine walked on a running actor: the model (the real machine, with the
 * `collectRows` actor's answers as explicit events, xstate/graph's TestModel built by
 * createMachineModel — xstate/graph's own createTestModel refuses a machine that invokes) gives
 * few paths through every state and transition; each path runs on an actor with `collectRows`
 * doubled, and each state is checked by what the app sees: the busy tag, the export under way, the
 * rows asked for, the files downloaded and the failures reported, and that a second export asked
 * for while one runs is ignored.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createActor, type Actor } from 'xstate';
import {
  createActorDoubles,
  itCoversTheMachine,
  runPath,
  type ActorDoubles,
  type Executors,
  type StateChecks,
} from '../../tests/utils/machine-model.ts';
import { statisticsExportMachine } from './statistics-export.machine.ts';
import {
  statisticsExportModel,
  type StatisticsExportModelEvent,
  type StatisticsExportSnapshot,
} from './statistics-export.model.test-support.ts';
import type { StatisticsExportData, StatisticsExportFailure, StatisticsExportRequest } from './statistics-export.types.ts';

type Snapshot = StatisticsExportSnapshot;
type ModelEvent = StatisticsExportModelEvent;
// The model (events, and the answer each export gets) is shared with `npm run qa`: statistics-export.model.test-support.ts.
const { events, paths } = statisticsExportModel;
const { model } = statisticsExportModel.models[0]!;

let doubles: ActorDoubles;
let actor: Actor<typeof statisticsExportMachine>;
/** What the machine's actions did, and what they must have done so far (written by the executors). */
let downloaded: StatisticsExportData[];
let failures: StatisticsExportFailure[];
let expectedDownloads: StatisticsExportData[];
let expectedFailures: StatisticsExportFailure[];
/** The export each `collectRows` call must have been asked for, oldest first. */
let expectedCalls: StatisticsExportRequest[];
/** The snapshot the last check saw: the state an event starts from. */
let before: Snapshot;

function startExporter() {
  doubles = createActorDoubles();
  downloaded = [];
  failures = [];
  expectedDownloads = [];
  expectedFailures = [];
  expectedCalls = [];
  actor = createActor(
    statisticsExportMachine.provide({
      actors: { collectRows: doubles.promise<StatisticsExportData, StatisticsExportRequest>('collectRows') },
      actions: {
        download: (_, data) => void downloaded.push(data),
        notifyFailure: (_, failure) => void failures.push(failure),
      },
    }),
  );
  actor.start();
}

const current = () => actor.getSnapshot();

const executors = {
  'export.table': async ({ event }) => {
    expectedCalls.push({ kind: 'table', table: event.table });
    actor.send(event);
  },
  'export.dashboard': async ({ event }) => {
    expectedCalls.push({ kind: 'dashboard' });
    actor.send(event);
  },
  'xstate.done.actor.collectRows': async ({ event }) => {
    expectedDownloads.push(event.output);
    await doubles.resolve('collectRows', event.output);
  },
  'xstate.error.actor.collectRows': async ({ event }) => {
    expectedFailures.push({ request: before.context.request!, error: event.error });
    await doubles.reject('collectRows', event.error);
  },
} satisfies Executors<Snapshot, ModelEvent>;

function expectCommon() {
  expect(downloaded).toEqual(expectedDownloads);
  expect(failures).toEqual(expectedFailures);
  expect(doubles.inputs('collectRows')).toEqual(expectedCalls);
}

const states = {
  '#statisticsExport.idle': (snapshot) => {
    before = snapshot;
    expect(current().hasTag('busy')).toBe(false);
    expect(current().context.request).toBeNull();
    expect(doubles.pendingCount('collectRows')).toBe(0);
    expectCommon();
  },
  '#statisticsExport.exporting': (snapshot) => {
    before = snapshot;
    const request = expectedCalls.at(-1);
    expect(current().hasTag('busy')).toBe(true);
    expect(current().context.request).toEqual(request);
    expect(doubles.pendingCount('collectRows')).toBe(1);
    // Busy: every other export (and the same one again) is ignored; the running one goes on.
    actor.send({ type: 'export.table', table: 'oma' });
    actor.send({ type: 'export.table', table: 'uma' });
    actor.send({ type: 'export.dashboard' });
    expect(current().hasTag('busy')).toBe(true);
    expect(current().context.request).toEqual(request);
    expect(doubles.calls('collectRows').at(-1)?.signal?.aborted).toBe(false);
    expectCommon();
  },
} satisfies StateChecks<Snapshot>;

describe('statistics export model', () => {
  beforeEach(startExporter);
  for (const { name, path } of paths) {
    it(name, async () => {
      before = model.initial;
      await runPath(path, states, executors);
    });
  }
});

describe('statistics export model coverage', () => {
  itCoversTheMachine(statisticsExportMachine, paths, { events, states, executors });
});

describe('statistics export defaults', () => {
  it('fails loudly when the app did not supply its side effects', async () => {
    const running = createActor(statisticsExportMachine);
    const errors: unknown[] = [];
    running.subscribe({ error: (error) => errors.push(error) });
    running.start();
    running.send({ type: 'export.dashboard' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The default collectRows throws, then the default failure notification throws: the actor errors.
    expect(running.getSnapshot().status).toBe('error');
    expect(String(errors[0])).toContain('notifyFailure is supplied by the app');
  });
});
