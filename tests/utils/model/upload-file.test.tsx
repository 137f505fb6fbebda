/**
 * The helper on a callback actor that reports progress (the per-file upload of the future upload
 * wizard): progress events are one self-loop of the model, not a new model state per percentage,
 * and a cancelled upload's callback is stopped, so only the retry's upload reaches the machine.
 */
import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { SnapshotFrom } from 'xstate';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithTheme } from '../render.tsx';
import { coveringPaths } from './covering-paths.ts';
import { coveredFeatures, itCoversTheMachine } from './coverage.ts';
import { createActorDoubles, type ActorDoubles } from './actor-doubles.ts';
import { createMachineModel } from './explicit-events.ts';
import { runPath, type Executors, type StateChecks } from './run-path.ts';
import { percentOf, uploadFileMachine, type UploadFileEvent, type UploadFileInput } from './fixtures/upload-file.machine.ts';
import { FILE_INPUT, uploadFileEvents } from './fixtures/upload-events.ts';
import { UploadFileHost } from './fixtures/upload-views.tsx';

const INPUT = FILE_INPUT;
const events = uploadFileEvents;

type Snapshot = SnapshotFrom<typeof uploadFileMachine>;

/** The model state leaves out the progress numbers: they change nothing about what can happen next. */
const withoutProgress = ({ value, context: { loaded: _loaded, total: _total, ...rest } }: Snapshot) => ({ value, context: rest });

const model = createMachineModel(uploadFileMachine, { events, input: INPUT, stateKey: withoutProgress });
// Each percentage is still shown by some path: what the user sees is checked, the model stays small.
const paths = coveringPaths(model, (snapshot) => (snapshot.matches('uploading') ? [`progress ${percentOf(snapshot.context)}%`] : []));

let user: UserEvent;
let doubles: ActorDoubles;

beforeEach(() => {
  user = userEvent.setup();
  doubles = createActorDoubles();
  renderWithTheme(
    <UploadFileHost logic={uploadFileMachine.provide({ actors: { sendFile: doubles.callback<UploadFileInput, UploadFileEvent>('sendFile') } })} input={INPUT} />,
  );
});

const row = () => screen.getByRole('listitem', { name: INPUT.name });
const button = (name: string) => within(row()).getByRole('button', { name: `${name} ${INPUT.name}` });

const executors = {
  // What the upload reports: the test speaks for the callback actor of the live upload.
  'upload.progress': async ({ event }) => doubles.send('sendFile', event),
  'upload.sent': async ({ event }) => doubles.send('sendFile', event),
  'upload.failed': async ({ event }) => doubles.send('sendFile', event),
  'upload.cancel': async () => user.click(button('Cancel')),
  'upload.retry': async () => user.click(button('Retry')),
} satisfies Executors<Snapshot, UploadFileEvent>;

/** No upload is running: the callbacks of the earlier ones were stopped (a real one would abort its PUT). */
function expectNoUpload() {
  expect(doubles.pendingCount('sendFile')).toBe(0);
  expect(doubles.calls('sendFile').every((call) => call.stopped)).toBe(true);
}

const states = {
  '#uploadFile.uploading': (snapshot) => {
    const percent = percentOf(snapshot.context);
    expect(within(row()).getByRole('progressbar', { name: `${INPUT.name} progress` })).toHaveAttribute('aria-valuenow', String(percent));
    expect(row()).toHaveTextContent(`${percent}%`);
    expect(button('Cancel')).toBeEnabled();
    // Exactly one upload runs, to the file's signed location.
    expect(doubles.pendingCount('sendFile')).toBe(1);
    expect(doubles.inputs('sendFile').at(-1)).toEqual(INPUT);
  },
  '#uploadFile.failed': () => {
    expect(row()).toHaveTextContent('Failed');
    expect(button('Retry')).toBeEnabled();
    expectNoUpload();
  },
  '#uploadFile.cancelled': () => {
    expect(row()).toHaveTextContent('Cancelled');
    expect(button('Retry')).toBeEnabled();
    expectNoUpload();
  },
  '#uploadFile.uploaded': () => {
    expect(row()).toHaveTextContent('Uploaded');
    expect(within(row()).queryByRole('button')).not.toBeInTheDocument();
    expect(within(row()).queryByRole('progressbar')).not.toBeInTheDocument();
  },
} satisfies StateChecks<Snapshot>;

describe('upload of one file (fixture)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await runPath(path, states, executors);
    });
  }
});

describe('upload of one file: model coverage', () => {
  itCoversTheMachine(uploadFileMachine, paths, { events, states, executors });
  it('shows every percentage the upload reports', () => {
    const covered = coveredFeatures(paths);
    expect(covered).toContain('progress 0%');
    expect(covered).toContain('progress 13%');
    expect(covered).toContain('progress 75%');
  });
});

describe('progress events and model states', () => {
  it('progress numbers do not multiply model states when the state key leaves them out', () => {
    const states = (stateKey?: typeof withoutProgress) =>
      Object.keys(createMachineModel(uploadFileMachine, { events, input: INPUT, ...(stateKey ? { stateKey } : {}) }).model.getAdjacencyMap());
    // uploading, failed, cancelled, uploaded
    expect(states(withoutProgress)).toHaveLength(4);
    // Without it, every percentage is a state of its own (and each of them can fail, be cancelled…).
    expect(states().length).toBeGreaterThan(4);
  });

  it('replays each path on the machine, so a step shows the percentage of its own event', () => {
    const progressSteps = paths.flatMap(({ path }) => path.steps.filter((step) => step.event.type === 'upload.progress'));
    expect(progressSteps.length).toBeGreaterThan(0);
    for (const step of progressSteps) {
      const event = step.event as Extract<UploadFileEvent, { type: 'upload.progress' }>;
      expect(step.state.context).toMatchObject({ loaded: event.loaded, total: event.total });
    }
  });
});

describe('cancelling an upload', () => {
  it("after Cancel and Retry, the old upload's late reports reach nobody and the retry's do", async () => {
    await doubles.send('sendFile', { type: 'upload.progress', loaded: 150, total: 200 });
    await user.click(button('Cancel'));
    await user.click(button('Retry'));
    const [old, retry] = doubles.calls('sendFile');
    expect(old?.stopped).toBe(true);
    expect(retry?.stopped).toBe(false);
    // The cancelled upload finishing late changes nothing for the user.
    old!.send({ type: 'upload.sent' });
    expect(within(row()).getByRole('progressbar', { name: `${INPUT.name} progress` })).toHaveAttribute('aria-valuenow', '0');
    // The next report is the retry's own.
    await doubles.send('sendFile', { type: 'upload.progress', loaded: 50, total: 200 });
    expect(row()).toHaveTextContent('25%');
    await doubles.send('sendFile', { type: 'upload.sent' });
    expect(row()).toHaveTextContent('Uploaded');
  });
});
