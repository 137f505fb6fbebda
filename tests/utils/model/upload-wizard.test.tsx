/**
 * The helper on a machine shaped like the future upload wizard: an abortable request retried with
 * backoff (a delay as the explicit event `xstate.after.retryBackoff`, on XState's SimulatedClock),
 * one child actor spawned per file (their ends are the model's `xstate.done.actor.upload:<name>`),
 * an invoked child watched with `onSnapshot` (`xstate.snapshot.thumbnail`), and cancellation.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { SnapshotFrom } from 'xstate';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithTheme } from '../render.tsx';
import { createActorDoubles, type ActorDoubles } from './actor-doubles.ts';
import { coveringPaths } from './covering-paths.ts';
import { itCoversTheMachine } from './coverage.ts';
import { createMachineModel } from './explicit-events.ts';
import { createTestClock, runPath, type Executors, type StateChecks, type TestClock } from './run-path.ts';
import { FILES, SESSION, THUMBNAIL, wizardEventPossible, wizardEvents, type WizardModelEvent } from './fixtures/upload-events.ts';
import { uploadFileMachine, type UploadFileEvent, type UploadFileInput } from './fixtures/upload-file.machine.ts';
import {
  MAX_ATTEMPTS,
  retryDelay,
  uploadWizardMachine,
  type UploadSession,
  type UploadSessionRequest,
} from './fixtures/upload-wizard.machine.ts';
import { UploadWizard } from './fixtures/upload-views.tsx';

type Snapshot = SnapshotFrom<typeof uploadWizardMachine>;

const model = createMachineModel(uploadWizardMachine, { events: wizardEvents, filterEvents: wizardEventPossible });
const paths = coveringPaths(model);

let user: UserEvent;
let doubles: ActorDoubles;
let time: TestClock;

beforeEach(() => {
  user = userEvent.setup();
  doubles = createActorDoubles();
  time = createTestClock();
  const logic = uploadWizardMachine.provide({
    actors: {
      requestUploadSession: doubles.promise<UploadSession, UploadSessionRequest>('requestUploadSession'),
      uploadFile: uploadFileMachine.provide({
        actors: { sendFile: doubles.callback<UploadFileInput, UploadFileEvent>('sendFile') },
      }),
    },
  });
  // The wizard's delays run on a simulated clock: the test moves time, nothing sleeps.
  renderWithTheme(<UploadWizard logic={logic} options={{ clock: time.clock }} />);
});

const button = (name: string) => screen.getByRole('button', { name });
const heading = () => screen.getByRole('heading', { level: 2 });
const fileRow = (name: string) => within(screen.getByRole('list', { name: 'Files' })).getByRole('listitem', { name });
const forFile = (name: string) => ({ where: (input: UploadFileInput) => input.name === name });
const toFile = (name: string) => new File(['bytes'], name);

/** A file's own upload (its child actor) reports progress, then finishes: the other file's row is untouched. */
async function finishUpload(name: string) {
  const other = FILES.find((file) => file !== name)!;
  const otherBefore = screen.queryByRole('progressbar', { name: `${other} progress` })?.getAttribute('aria-valuenow');
  await doubles.send('sendFile', { type: 'upload.progress', loaded: 60, total: 100 }, forFile(name));
  expect(within(fileRow(name)).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '60');
  if (otherBefore !== undefined) {
    expect(screen.getByRole('progressbar', { name: `${other} progress` })).toHaveAttribute('aria-valuenow', otherBefore);
  }
  await doubles.send('sendFile', { type: 'upload.sent' }, forFile(name));
}

const executors = {
  'wizard.choose': async ({ event }) => user.upload(screen.getByLabelText('Files'), event.files.map(toFile)),
  'wizard.cancel': async () => user.click(button('Cancel')),
  'wizard.retry': async () => user.click(button('Retry')),
  'wizard.confirm': async ({ event }) => {
    await user.upload(screen.getByLabelText('Thumbnail'), toFile(event.thumbnail));
    await user.click(button('Confirm'));
  },
  'xstate.done.actor.requestUploadSession': async ({ event }) => doubles.resolve('requestUploadSession', event.output),
  'xstate.error.actor.requestUploadSession': async ({ event }) => doubles.reject('requestUploadSession', event.error),
  // `state` is the snapshot the event leads to: the attempt after the wait.
  'xstate.after.retryBackoff': async ({ state }) => {
    const wait = retryDelay(state.context.attempt - 1);
    await time.advance(wait - 1);
    expect(doubles.pendingCount('requestUploadSession')).toBe(0);
    await time.advance(1);
  },
  'xstate.done.actor.upload:clip.mp4': async () => finishUpload('clip.mp4'),
  'xstate.done.actor.upload:intro.mp4': async () => finishUpload('intro.mp4'),
  'xstate.snapshot.thumbnail': async () => doubles.send('sendFile', { type: 'upload.failed' }, forFile(THUMBNAIL)),
  'xstate.done.actor.thumbnail': async () => {
    await doubles.send('sendFile', { type: 'upload.progress', loaded: 1, total: 4 }, forFile(THUMBNAIL));
    expect(screen.getByRole('progressbar', { name: `${THUMBNAIL} progress` })).toHaveAttribute('aria-valuenow', '25');
    await doubles.send('sendFile', { type: 'upload.sent' }, forFile(THUMBNAIL));
  },
} satisfies Executors<Snapshot, WizardModelEvent>;

function expectStep(step: number, { cancel, confirm }: { cancel: boolean; confirm: boolean }) {
  expect(heading()).toHaveTextContent(`Step ${step}`);
  if (cancel) expect(button('Cancel')).toBeEnabled();
  else expect(button('Cancel')).toBeDisabled();
  if (confirm) expect(button('Confirm')).toBeEnabled();
  else expect(button('Confirm')).toBeDisabled();
}

/** Nothing runs any more: every request was aborted or answered, every upload stopped or finished. */
function expectNothingRunning() {
  expect(doubles.pendingCount('requestUploadSession')).toBe(0);
  expect(doubles.pendingCount('sendFile')).toBe(0);
  for (const call of doubles.calls('requestUploadSession')) expect(call.settled).toBe(true);
}

const states = {
  '#uploadWizard.choosing': () => {
    expectStep(0, { cancel: false, confirm: false });
    expect(screen.getByLabelText('Files')).toBeInTheDocument();
    expectNothingRunning();
  },
  '#uploadWizard.requestingSession': (snapshot) => {
    expectStep(1, { cancel: true, confirm: false });
    expect(screen.getByText(`Requesting the upload session (attempt ${snapshot.context.attempt} of ${MAX_ATTEMPTS})`)).toBeInTheDocument();
    expect(doubles.pendingCount('requestUploadSession')).toBe(1);
    expect(doubles.inputs('requestUploadSession').at(-1)).toEqual({ files: FILES });
  },
  '#uploadWizard.waitingToRetry': (snapshot) => {
    expectStep(1, { cancel: true, confirm: false });
    const { attempt } = snapshot.context;
    expect(screen.getByText(`Attempt ${attempt} failed: retrying in ${retryDelay(attempt)} ms`)).toBeInTheDocument();
    expect(doubles.pendingCount('requestUploadSession')).toBe(0);
  },
  '#uploadWizard.sessionFailed': () => {
    expectStep(1, { cancel: true, confirm: false });
    expect(screen.getByRole('alert')).toHaveTextContent('The upload could not start');
    expect(button('Retry')).toBeEnabled();
    expect(doubles.pendingCount('requestUploadSession')).toBe(0);
  },
  '#uploadWizard.uploading': (snapshot) => {
    expectStep(2, { cancel: true, confirm: false });
    const { uploaded } = snapshot.context;
    for (const name of FILES) {
      if (uploaded.includes(name)) expect(fileRow(name)).toHaveTextContent('Uploaded');
      else expect(within(fileRow(name)).getByRole('progressbar')).toBeInTheDocument();
    }
    // One upload per file still to send, each to its own signed location.
    const running = doubles.calls<UploadFileInput>('sendFile').filter((call) => !call.stopped);
    expect(running.map((call) => call.input).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      FILES.filter((name) => !uploaded.includes(name)).map((name) => ({ name, uploadUrl: SESSION.uploadUrls[name] })),
    );
  },
  '#uploadWizard.ready': () => {
    expectStep(3, { cancel: false, confirm: true });
    expect(screen.getByText('All files uploaded')).toBeInTheDocument();
    expect(screen.getByLabelText('Thumbnail')).toBeInTheDocument();
    expectNothingRunning();
  },
  '#uploadWizard.confirming': () => {
    expectStep(3, { cancel: false, confirm: false });
    expect(within(screen.getByRole('list', { name: 'Thumbnail' })).getByRole('progressbar')).toBeInTheDocument();
    expect(doubles.calls('sendFile').at(-1)?.input).toEqual({ name: THUMBNAIL, uploadUrl: SESSION.thumbnailUrl });
  },
  '#uploadWizard.thumbnailFailed': () => {
    expectStep(3, { cancel: false, confirm: true });
    expect(screen.getByRole('alert')).toHaveTextContent('The thumbnail could not be uploaded');
    expectNothingRunning();
  },
  '#uploadWizard.confirmed': () => {
    expect(screen.getByText('Video created')).toBeInTheDocument();
    expectStep(3, { cancel: false, confirm: false });
    expectNothingRunning();
  },
} satisfies StateChecks<Snapshot>;

describe('upload wizard (fixture)', () => {
  for (const { name, path } of paths) {
    it(name, async () => {
      await runPath(path, states, executors);
    });
  }
});

describe('upload wizard: model coverage', () => {
  itCoversTheMachine(uploadWizardMachine, paths, { events: wizardEvents, states, executors });
});

describe('upload wizard: cancellation, backoff, one actor per file', () => {
  it('after a cancel, a late answer of the old request cannot settle the retry', async () => {
    await executors['wizard.choose']({ state: model.initial, event: { type: 'wizard.choose', files: [...FILES] } });
    await user.click(button('Cancel'));
    await executors['wizard.choose']({ state: model.initial, event: { type: 'wizard.choose', files: [...FILES] } });
    const [old, retry] = doubles.calls('requestUploadSession');
    // Cancelling aborted the first request (a real fetch stops there).
    expect(old?.signal?.aborted).toBe(true);
    expect(retry?.signal?.aborted).toBe(false);
    // Its answer arriving late changes nothing: the retry is still waiting.
    await act(async () => old!.resolve(SESSION));
    expect(heading()).toHaveTextContent('Step 1');
    // The test answers the retry's request, not the old one.
    await doubles.resolve('requestUploadSession', SESSION);
    expect(heading()).toHaveTextContent('Step 2');
  });

  it('waits 1 s, then 2 s, between attempts, then gives up', async () => {
    await executors['wizard.choose']({ state: model.initial, event: { type: 'wizard.choose', files: [...FILES] } });
    const failure = { status: 503, type: 'service-unavailable' };
    await doubles.reject('requestUploadSession', failure);
    await time.advance(999);
    expect(doubles.inputs('requestUploadSession')).toHaveLength(1);
    await time.advance(1);
    expect(screen.getByText('Requesting the upload session (attempt 2 of 3)')).toBeInTheDocument();
    await doubles.reject('requestUploadSession', failure);
    await time.advance(1999);
    expect(doubles.inputs('requestUploadSession')).toHaveLength(2);
    await time.advance(1);
    await doubles.reject('requestUploadSession', failure);
    expect(screen.getByRole('alert')).toHaveTextContent('The upload could not start');
    await time.advance(60_000);
    expect(doubles.inputs('requestUploadSession')).toHaveLength(3);
  });

  it('cancelling during the backoff cancels the next attempt', async () => {
    await executors['wizard.choose']({ state: model.initial, event: { type: 'wizard.choose', files: [...FILES] } });
    await doubles.reject('requestUploadSession', { status: 503, type: 'service-unavailable' });
    await user.click(button('Cancel'));
    await time.advance(60_000);
    expect(doubles.inputs('requestUploadSession')).toHaveLength(1);
    expect(heading()).toHaveTextContent('Step 0');
  });

  it('each file is its own actor: cancelling one upload leaves the other running', async () => {
    await executors['wizard.choose']({ state: model.initial, event: { type: 'wizard.choose', files: [...FILES] } });
    await doubles.resolve('requestUploadSession', SESSION);
    await doubles.send('sendFile', { type: 'upload.progress', loaded: 30, total: 100 }, forFile('intro.mp4'));
    await user.click(within(fileRow('clip.mp4')).getByRole('button', { name: 'Cancel clip.mp4' }));
    expect(fileRow('clip.mp4')).toHaveTextContent('Cancelled');
    expect(within(fileRow('intro.mp4')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '30');
    const clipCalls = doubles.calls<UploadFileInput>('sendFile').filter((call) => call.input.name === 'clip.mp4');
    expect(clipCalls.map((call) => call.stopped)).toEqual([true]);
    // Retrying the cancelled file starts a new upload of that file only; the wizard moves on once both are sent.
    await user.click(within(fileRow('clip.mp4')).getByRole('button', { name: 'Retry clip.mp4' }));
    await doubles.send('sendFile', { type: 'upload.sent' }, forFile('clip.mp4'));
    expect(heading()).toHaveTextContent('Step 2');
    await doubles.send('sendFile', { type: 'upload.sent' }, forFile('intro.mp4'));
    expect(heading()).toHaveTextContent('Step 3');
    expect(doubles.inputs('sendFile')).toHaveLength(3);
  });
});
