import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

export interface PreloadableComponent<P> {
  (props: P & { fallback?: ReactNode }): ReactNode;
  /** Starts loading the code (once); resolves when a render can show it at once. */
  preload: () => Promise<void>;
}

/**
 * A component whose code is loaded on demand (its own chunk, out of the first screen), as
 * `React.lazy`, with two differences: `preload()` starts the download on intent (a focused form,
 * a hovered button), and an instance mounted once the code is there renders it straight away,
 * without a Suspense round (what the page shows does not wait a tick for code already loaded).
 * An instance mounted before keeps its Suspense boundary for its whole life, so it never remounts.
 */
/** Every lazily loaded component created so far (by the modules evaluated so far). */
const registered = new Set<() => Promise<void>>();

/**
 * Loads every lazily loaded component the code imported so far defines, and those their code
 * defines in turn. The jsdom tests call it before they start (tests/utils/setup-ui.ts): they check
 * each screen as the user sees it once its code is there; the loading itself is the browser suite's.
 */
export async function preloadRegisteredComponents(): Promise<void> {
  const done = new Set<() => Promise<void>>();
  for (;;) {
    const pending = [...registered].filter((preload) => !done.has(preload));
    if (pending.length === 0) return;
    for (const preload of pending) done.add(preload);
    await Promise.all(pending.map((preload) => preload()));
  }
}

export function lazyWithPreload<P extends object>(load: () => Promise<ComponentType<P>>): PreloadableComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => {
        loaded = component;
      },
      (error: unknown) => {
        // A failed download (network) may be tried again by the next preload or render.
        loading = undefined;
        throw error;
      },
    ));
  registered.add(preload);
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded! };
  });

  function Preloadable({ fallback = null, ...props }: P & { fallback?: ReactNode }) {
    const [LoadedAtMount] = useState(() => loaded);
    if (LoadedAtMount) return <LoadedAtMount {...(props as P)} />;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...(props as P)} />
      </Suspense>
    );
  }
  return Object.assign(Preloadable, { preload });
}
