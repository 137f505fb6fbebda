import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { preloadRegisteredComponents } from '../../src/lib/lazy-with-preload.tsx';
import { server, unhandledCalls } from './msw.ts';

/**
 * `window.matchMedia` as jsdom lacks it: each query matches when `matches(query)` says so (by
 * default none does, as on a wide, non-touch screen).
 */
export function fakeMatchMedia(matches: (query: string) => boolean = () => false): (query: string) => MediaQueryList {
  return (query) =>
    ({
      matches: matches(query),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

/** For one test: media queries answer `matches(query)` (undone by `vi.unstubAllGlobals()`). */
export function stubMatchMedia(matches: (query: string) => boolean): void {
  vi.stubGlobal('matchMedia', fakeMatchMedia(matches));
}

/**
 * For one test: an IntersectionObserver the test drives (undone by `vi.unstubAllGlobals()`).
 * `report(ratio)` tells the last observer created that its target is that much in view.
 */
export function stubIntersectionObserver(): { report: (ratio: number) => void } {
  let report: (ratio: number) => void = () => {};
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(callback: IntersectionObserverCallback) {
        report = (ratio) => callback([{ intersectionRatio: ratio } as IntersectionObserverEntry], this as never);
      }
      observe() {}
      unobserve() {}
      disconnect() {}
      takeRecords() {
        return [];
      }
    },
  );
  return { report: (ratio) => report(ratio) };
}

// jsdom lacks a few browser APIs Mantine and the router rely on.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', { writable: true, value: fakeMatchMedia() });
}
/** As in a browser, observing an element reports its size once (jsdom lays nothing out: zero sizes); no later changes. */
class ResizeObserverStub {
  private observed = new Set<Element>();
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    this.observed.add(target);
    queueMicrotask(() => {
      if (!this.observed.has(target)) return;
      const rect = target.getBoundingClientRect();
      const size = [{ inlineSize: rect.width, blockSize: rect.height }];
      const entry = { target, contentRect: rect, borderBoxSize: size, contentBoxSize: size, devicePixelContentBoxSize: size };
      this.callback([entry as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
    });
  }
  unobserve(target: Element) {
    this.observed.delete(target);
  }
  disconnect() {
    this.observed.clear();
  }
}
(globalThis as unknown as { ResizeObserver: unknown }).ResizeObserver ??= ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView ??= function scrollIntoView() {};
// The router restores scroll positions; jsdom does not scroll ("Not implemented: window.scrollTo").
window.scrollTo = () => {};

// The API: Mock Service Worker with handlers typed against openapi.yaml (tests/utils/msw.ts).
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request) => void unhandledCalls.push(`${request.method} ${new URL(request.url).pathname}`),
  }),
);
afterAll(() => server.close());

// The app loads some parts on demand (the MFA modal, the toasts, dialogs: src/lib/lazy-with-preload.tsx);
// tests see them as a user does once their code is there. The loading is the browser suite's.
beforeAll(() => preloadRegisteredComponents());

afterEach(() => {
  cleanup();
  server.resetHandlers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  const unhandled = unhandledCalls.splice(0);
  expect(unhandled, 'API calls no handler answered (add one with server.use)').toEqual([]);
});
