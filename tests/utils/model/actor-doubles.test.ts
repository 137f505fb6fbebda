/**
 * The doubles behave like the boundary they stand for when the machine lets go of a call: an
 * aborted request never settles and never runs its side effect, a stopped upload sends nothing,
 * and the test's next answer goes to the call that is still waited for.
 */
import { assign, createActor, fromPromise, setup } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { createActorDoubles } from './actor-doubles.ts';

/** Requests something; Cancel lets go of the request, Retry asks again. */
const requestMachine = setup({
  types: {} as { context: { answer: string }; events: { type: 'cancel' } | { type: 'retry' }; output: string },
  actors: { request: fromPromise<string, { attempt: number }>(async () => 'real') },
}).createMachine({
  context: { answer: '' },
  initial: 'requesting',
  states: {
    requesting: {
      invoke: {
        src: 'request',
        input: { attempt: 1 },
        onDone: { target: 'answered', actions: assign({ answer: ({ event }) => event.output }) },
        onError: 'failed',
      },
      on: { cancel: 'cancelled' },
    },
    cancelled: { on: { retry: 'requesting' } },
    failed: {},
    answered: { type: 'final' },
  },
  output: ({ context }) => context.answer,
});

describe('promise doubles', () => {
  it('abort with the machine: the old call settles as aborted, its late answer and side effect never happen', async () => {
    const doubles = createActorDoubles();
    const stored = vi.fn();
    const actor = createActor(requestMachine.provide({ actors: { request: doubles.promise('request', stored) } })).start();
    actor.send({ type: 'cancel' });
    actor.send({ type: 'retry' });

    const [old, retry] = doubles.calls('request');
    expect(old).toMatchObject({ stopped: true, settled: true });
    expect(old?.signal?.aborted).toBe(true);
    expect(retry).toMatchObject({ stopped: false, settled: false });
    expect(doubles.pendingCount('request')).toBe(1);

    old!.resolve('late');
    await doubles.resolve('request', 'fresh');
    expect(actor.getSnapshot().output).toBe('fresh');
    // Only the answered call ran the side effect.
    expect(stored).toHaveBeenCalledTimes(1);
  });

  it('answer the call that matches `where`, whatever the order', async () => {
    const doubles = createActorDoubles();
    const request = doubles.promise<string, { file: string }>('request');
    const first = createActor(request, { input: { file: 'a.mp4' } }).start();
    const second = createActor(request, { input: { file: 'b.mp4' } }).start();
    await doubles.resolve<{ file: string }>('request', 'done b', { where: (input) => input.file === 'b.mp4' });
    expect(second.getSnapshot().output).toBe('done b');
    expect(first.getSnapshot().status).toBe('active');
    expect(doubles.pendingCount('request')).toBe(1);
  });
});

describe('callback doubles', () => {
  it('stop with the machine: a stopped call sends nothing, and `send` goes to the live one', async () => {
    const doubles = createActorDoubles();
    const received: string[] = [];
    const parent = setup({ actors: { upload: doubles.callback('upload') } }).createMachine({
      initial: 'uploading',
      states: {
        uploading: { invoke: { src: 'upload' }, on: { cancel: 'cancelled', progress: { actions: () => received.push('progress') } } },
        cancelled: { on: { retry: 'uploading' } },
      },
    });
    const actor = createActor(parent).start();
    actor.send({ type: 'cancel' });
    actor.send({ type: 'retry' });
    const [old, live] = doubles.calls('upload');
    expect(old?.stopped).toBe(true);
    old!.send({ type: 'progress' });
    expect(received).toEqual([]);
    await doubles.send('upload', { type: 'progress' });
    expect(received).toEqual(['progress']);
    expect(live?.stopped).toBe(false);
  });
});
