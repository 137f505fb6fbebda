import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { server, unhandledCalls } from './msw.ts';

// jsdom lacks a few browser APIs Mantine and the router rely on.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
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

afterEach(() => {
  cleanup();
  server.resetHandlers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  const unhandled = unhandledCalls.splice(0);
  expect(unhandled, 'API calls no handler answered (add one with server.use)').toEqual([]);
});
