/**
 * The dialog lifecycle machine walked on a running actor: the model (the real machine, the work's
 * answers as explicit events) gives few paths through every state and transition; each path is run
 * on an actor with the work doubled, and each state is checked by what the app sees of it: tags,
 * the work calls, the notifications, and that a busy dialog cannot be closed.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type Actor } from 'xstate';
import {
  createActorDoubles,
  itCoversTheMachine,
  runPath,
  type ActorDoubles,
  type Executors,
  type StateChecks,
} from '../../tests/utils/machine-model.ts';
import { createDialogMachine } from './dialog.machine.ts';
import {
  dialogModel,
  FAILURE,
  INVALID,
  isValid,
  nothingToDo,
  RENAMED,
  renameDialog,
  rules,
  THING,
  UNCHANGED,
  VALID,
  type DialogModelEvent,
  type DialogSnapshot,
  type Rename,
  type RenameInput,
  type Thing,
} from './dialog.model.test-support.ts';

type Snapshot = DialogSnapshot;
type ModelEvent = DialogModelEvent;
type Input = RenameInput;
// The model (events and the rename rules) is shared with `npm run qa`: dialog.model.test-support.ts.
const { events, paths } = dialogModel;
const { model } = dialogModel.models[0]!;

type Notification =
  | { kind: 'success'; subject: Thing; payload: Rename; output: Thing }
  | { kind: 'failure'; subject: Thing; payload: Rename; error: unknown };

let doubles: ActorDoubles;
let actor: Actor<typeof renameDialog>;
/** What the app was told, as the machine's actions reported it. */
let notified: Notification[];
/** What the app must have been told so far (written by the executors). */
let expected: Notification[];
/** How many times the work ran so far. */
let workCalls: number;
/** The snapshot the last check saw: the state an event starts from. */
let before: Snapshot;

function startDialog() {
  doubles = createActorDoubles();
  notified = [];
  expected = [];
  workCalls = 0;
  actor = createActor(
    renameDialog.provide({
      actors: { work: doubles.promise<Thing, Input>('work') },
      guards: rules,
      actions: {
        notifySuccess: (_, success) => void notified.push({ kind: 'success', ...success }),
        notifyFailure: (_, failure) => void notified.push({ kind: 'failure', ...failure }),
      },
    }),
  );
  actor.start();
}

const current = () => actor.getSnapshot();
const lastWork = () => doubles.calls<Input>('work').at(-1);

const executors = {
  'dialog.open': async ({ event }) => {
    actor.send(event);
  },
  'dialog.submit': async ({ event }) => {
    if (!nothingToDo({ subject: THING, payload: event.payload }) && isValid({ subject: THING, payload: event.payload })) workCalls += 1;
    actor.send(event);
  },
  'dialog.close': async ({ event }) => {
    actor.send(event);
  },
  'xstate.done.actor.work': async ({ event }) => {
    expected.push({ kind: 'success', subject: THING, payload: before.context.payload!, output: event.output });
    await doubles.resolve('work', event.output);
  },
  'xstate.error.actor.work': async ({ event }) => {
    expected.push({ kind: 'failure', subject: THING, payload: before.context.payload!, error: event.error });
    await doubles.reject('work', event.error);
  },
} satisfies Executors<Snapshot, ModelEvent>;

/** The app can close an open, idle dialog; it sees what it was told and the work it started. */
function expectCommon() {
  expect(notified).toEqual(expected);
  expect(doubles.calls('work')).toHaveLength(workCalls);
}

const states = {
  '#dialog.closed': (snapshot) => {
    before = snapshot;
    expect(current().hasTag('open')).toBe(false);
    expect(current().hasTag('busy')).toBe(false);
    expect(current().context).toEqual({ subject: null, payload: null, error: null });
    expect(doubles.pendingCount('work')).toBe(0);
    expectCommon();
  },
  '#dialog.open.editing': (snapshot) => {
    before = snapshot;
    expect(current().hasTag('open')).toBe(true);
    expect(current().hasTag('busy')).toBe(false);
    expect(current().hasTag('invalid')).toBe(false);
    expect(current().context.subject).toEqual(THING);
    expect(doubles.pendingCount('work')).toBe(0);
    expectCommon();
  },
  '#dialog.open.invalid': (snapshot) => {
    before = snapshot;
    expect(current().hasTag('open')).toBe(true);
    expect(current().hasTag('invalid')).toBe(true);
    expect(current().hasTag('busy')).toBe(false);
    expect(current().context.payload).toEqual(INVALID);
    expect(doubles.pendingCount('work')).toBe(0);
    expectCommon();
  },
  '#dialog.working': (snapshot) => {
    before = snapshot;
    expect(current().hasTag('busy')).toBe(true);
    expect(current().hasTag('open')).toBe(true);
    expect(lastWork()?.input).toEqual({ subject: THING, payload: VALID });
    expect(doubles.pendingCount('work')).toBe(1);
    // Busy: closing, opening again and submitting again are ignored; the work goes on.
    actor.send({ type: 'dialog.close' });
    actor.send({ type: 'dialog.open', subject: RENAMED });
    actor.send({ type: 'dialog.submit', payload: VALID });
    expect(current().hasTag('busy')).toBe(true);
    expect(current().context.subject).toEqual(THING);
    expect(lastWork()?.signal?.aborted).toBe(false);
    expectCommon();
  },
  '#dialog.failed': (snapshot) => {
    before = snapshot;
    expect(current().hasTag('open')).toBe(true);
    expect(current().hasTag('failed')).toBe(true);
    expect(current().hasTag('busy')).toBe(false);
    expect(current().context).toEqual({ subject: THING, payload: VALID, error: FAILURE });
    expect(doubles.pendingCount('work')).toBe(0);
    expectCommon();
  },
} satisfies StateChecks<Snapshot>;

describe('dialog lifecycle model', () => {
  beforeEach(startDialog);
  for (const { name, path } of paths) {
    it(name, async () => {
      before = model.initial;
      await runPath(path, states, executors);
    });
  }
});

describe('dialog lifecycle model coverage', () => {
  itCoversTheMachine(renameDialog, paths, { events, states, executors });
});

describe('dialog lifecycle defaults', () => {
  it('submits anything and always works when the app gives no rules', async () => {
    const dialog = createDialogMachine<Thing, Rename, Thing>().provide({
      actors: { work: fromPromise<Thing, Input>(async ({ input }) => ({ ...input.subject, name: input.payload.name })) },
      actions: { notifySuccess: () => {}, notifyFailure: () => {} },
    });
    const running = createActor(dialog).start();
    running.send({ type: 'dialog.open', subject: THING });
    running.send({ type: 'dialog.submit', payload: UNCHANGED });
    expect(running.getSnapshot().hasTag('busy')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(running.getSnapshot().value).toBe('closed');
  });

  it('fails loudly when the app did not supply its work or its notifications', async () => {
    const running = createActor(createDialogMachine<Thing, Rename, Thing>());
    const errors: unknown[] = [];
    running.subscribe({ error: (error) => errors.push(error) });
    running.start();
    running.send({ type: 'dialog.open', subject: THING });
    running.send({ type: 'dialog.submit', payload: VALID });
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The default work throws, then the default failure notification throws: the actor errors.
    expect(running.getSnapshot().status).toBe('error');
    expect(String(errors[0])).toContain('notifyFailure is supplied by the app');
  });
});
