/**
 * Test doubles for the actors at the network (and storage, and upload) boundary. Each call waits
 * until the test answers it, so every state in between can be looked at.
 *
 * The doubles behave like the real boundary when the machine lets go of a call: a promise actor
 * that is stopped aborts its AbortSignal, and the double then rejects as `fetch` does (AbortError)
 * and never settles again; a callback actor that is stopped has its clean-up run, and the double
 * stops sending. Stopped calls leave the queue, so after a cancel and a retry the test answers the
 * retry's call, and a late answer to the old call reaches nobody.
 */
import { act, waitFor } from '@testing-library/react';
import { fromCallback, fromPromise, type EventObject } from 'xstate';

export interface ActorCall<TInput = unknown> {
  readonly name: string;
  readonly input: TInput;
  /** The machine stopped the actor (it left the state): nothing this call does reaches the machine. */
  readonly stopped: boolean;
  /** A promise call was resolved, rejected or aborted. */
  readonly settled: boolean;
  /** The promise actor's AbortSignal (aborted once the actor is stopped). */
  readonly signal: AbortSignal | undefined;
  /** Events the machine sent to a callback actor. */
  readonly received: readonly EventObject[];
  /** Promise calls: answer (no effect once settled or aborted). */
  resolve(output?: unknown): void;
  reject(error: unknown): void;
  /** Callback calls: send an event back to the machine (no effect once stopped). */
  send<TEvent extends EventObject>(event: TEvent): void;
}

interface MutableCall extends ActorCall {
  kind: 'promise' | 'callback';
  stopped: boolean;
  settled: boolean;
  received: EventObject[];
}

/** Which call to answer: by default the oldest live one. */
export interface CallFilter<TInput = unknown> {
  where?: (input: TInput) => boolean;
}

export function createActorDoubles() {
  const calls = new Map<string, MutableCall[]>();
  const callsOf = (name: string) => {
    if (!calls.has(name)) calls.set(name, []);
    return calls.get(name)!;
  };
  const isLive = (call: MutableCall) => !call.stopped && (call.kind === 'callback' || !call.settled);

  const next = async (name: string, kind: MutableCall['kind'], filter: CallFilter<never> = {}) => {
    const find = () =>
      callsOf(name).find((call) => call.kind === kind && isLive(call) && (filter.where?.(call.input as never) ?? true));
    await waitFor(() => {
      if (!find()) throw new Error(`The UI did not call ${name}${filter.where ? ' with the expected input' : ''}`);
    });
    return find()!;
  };

  return {
    /**
     * A promise actor named `name`. `onResolve` runs the real side effect once the test resolves
     * the call (never for an aborted call).
     */
    promise<TOutput, TInput = unknown>(name: string, onResolve?: (input: TInput) => void) {
      return fromPromise<TOutput, TInput>(
        ({ input, signal }) =>
          new Promise<TOutput>((resolve, reject) => {
            const call: MutableCall = {
              name,
              kind: 'promise',
              input,
              signal,
              stopped: false,
              settled: false,
              received: [],
              resolve: (output) => {
                if (call.settled) return;
                call.settled = true;
                onResolve?.(input);
                resolve(output as TOutput);
              },
              reject: (error) => {
                if (call.settled) return;
                call.settled = true;
                reject(error);
              },
              send: () => {
                throw new Error(`${name} is a promise actor: resolve or reject it`);
              },
            };
            signal.addEventListener(
              'abort',
              () => {
                call.stopped = true;
                if (call.settled) return;
                call.settled = true;
                reject(new DOMException('The operation was aborted.', 'AbortError'));
              },
              { once: true },
            );
            callsOf(name).push(call);
          }),
      );
    },

    /**
     * A callback actor named `name` (e.g. an upload reporting progress): the test sends its events.
     * `TReceived` is what the machine may send to it.
     */
    callback<TInput = unknown, TReceived extends EventObject = EventObject>(name: string) {
      return fromCallback<TReceived, TInput>(({ input, sendBack, receive }) => {
        const call: MutableCall = {
          name,
          kind: 'callback',
          input,
          signal: undefined,
          stopped: false,
          settled: false,
          received: [],
          resolve: () => {
            throw new Error(`${name} is a callback actor: send its events`);
          },
          reject: () => {
            throw new Error(`${name} is a callback actor: send its events`);
          },
          send: (event) => {
            if (!call.stopped) sendBack(event);
          },
        };
        receive((event) => call.received.push(event));
        callsOf(name).push(call);
        return () => {
          call.stopped = true;
        };
      });
    },

    /** Resolves the oldest live call of the promise actor `name` (matching `where`). */
    async resolve<TInput = unknown>(name: string, output?: unknown, filter?: CallFilter<TInput>) {
      const call = await next(name, 'promise', filter as CallFilter<never>);
      await act(async () => call.resolve(output));
    },
    /** Rejects the oldest live call of the promise actor `name` (matching `where`). */
    async reject<TInput = unknown>(name: string, error: unknown, filter?: CallFilter<TInput>) {
      const call = await next(name, 'promise', filter as CallFilter<never>);
      await act(async () => call.reject(error));
    },
    /** Sends `event` from the oldest live call of the callback actor `name` (matching `where`). */
    async send<TEvent extends EventObject, TInput = unknown>(name: string, event: TEvent, filter?: CallFilter<TInput>) {
      const call = await next(name, 'callback', filter as CallFilter<never>);
      await act(async () => call.send(event));
    },
    /** Every call of `name`, oldest first, live or not: to answer a stopped call late, or to look at its signal. */
    calls<TInput = unknown>(name: string): ReadonlyArray<ActorCall<TInput>> {
      return callsOf(name) as ReadonlyArray<ActorCall<TInput>>;
    },
    /** The inputs the actor `name` was called with, oldest first. */
    inputs(name: string): unknown[] {
      return callsOf(name).map((call) => call.input);
    },
    /** Calls of `name` still waiting for the test (not settled, not stopped). */
    pendingCount(name: string): number {
      return callsOf(name).filter(isLive).length;
    },
  };
}

export type ActorDoubles = ReturnType<typeof createActorDoubles>;
