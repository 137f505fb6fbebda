import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToastStore } from './toasts.ts';

afterEach(() => {
  vi.useRealTimers();
});

const messages = (store: ReturnType<typeof createToastStore>) => store.getSnapshot().map((entry) => entry.actor.getSnapshot().context.message);

describe('the toasts on screen', () => {
  it('closeTransient closes every toast that closes by itself, as its close button does, and keeps the persistent ones', async () => {
    vi.useFakeTimers();
    const store = createToastStore();
    store.show({ kind: 'success', message: 'Video añadido a favoritos' });
    store.show({ kind: 'error', message: 'El token ha expirado', persistent: true });
    store.show({ kind: 'success', message: 'El video se ha eliminado con éxito' });
    store.closeTransient();
    // They fade out as after a click on their close button, then leave the store.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(messages(store)).toEqual(['El token ha expirado']);
    // A toast shown afterwards is on screen as usual.
    store.show({ kind: 'success', message: 'El video se ha creado correctamente' });
    expect(messages(store)).toEqual(['El token ha expirado', 'El video se ha creado correctamente']);
  });
});
