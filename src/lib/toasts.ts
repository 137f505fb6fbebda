import { createActor, type ActorRefFrom } from 'xstate';
import { toastMachine } from '../../machines/toast/toast.machine.ts';
import type { ToastInput } from '../../machines/toast/toast.types.ts';

export type ToastActor = ActorRefFrom<typeof toastMachine>;

export interface ToastEntry {
  id: string;
  actor: ToastActor;
}

/**
 * The toasts on screen: one toast actor per message, dropped when it reaches `closed`.
 * A plain external store (subscribe/getSnapshot) that React reads with useSyncExternalStore.
 * `createApp` makes the app's one store and hands it to routes through the router context
 * (`toasts`); whatever shows a toast (a route's callback, an area's write actors) receives it.
 */
export function createToastStore(logic: typeof toastMachine = toastMachine) {
  let entries: readonly ToastEntry[] = [];
  let sequence = 0;
  const listeners = new Set<() => void>();

  const publish = (next: readonly ToastEntry[]) => {
    entries = next;
    for (const listener of listeners) listener();
  };

  return {
    /** Shows a toast; returns its id (for `close`). */
    show(input: ToastInput): string {
      sequence += 1;
      const id = `toast-${sequence}`;
      const actor = createActor(logic, { input });
      actor.subscribe({
        complete: () => publish(entries.filter((entry) => entry.id !== id)),
      });
      publish([...entries, { id, actor }]);
      actor.start();
      return id;
    },
    /** Closes a toast as its close button does (fade-out, then gone). */
    close(id: string): void {
      entries.find((entry) => entry.id === id)?.actor.send({ type: 'toast.close' });
    },
    /**
     * Closes, as their close buttons do, the toasts that close by themselves (not the persistent
     * ones): a dialog that takes the screen opens over no earlier message
     * (docs/decisions/0022-session-dialogs-and-toasts.md).
     */
    closeTransient(): void {
      for (const entry of entries) if (!entry.actor.getSnapshot().context.persistent) entry.actor.send({ type: 'toast.close' });
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot(): readonly ToastEntry[] {
      return entries;
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;
