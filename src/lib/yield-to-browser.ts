/**
 * Runs `work` in a task of its own, after the browser has had the chance to do something else
 * (paint, handle input, take a network answer): `scheduler.postTask` where the browser has it, at
 * the priority of the page's own work, else a zero-delay timer. A long start-up split this way
 * blocks the page for shorter stretches.
 */
export function afterYielding(work: () => void): void {
  const scheduler = (globalThis as { scheduler?: { postTask?: (task: () => void, options?: { priority?: string }) => Promise<unknown> } }).scheduler;
  if (typeof scheduler?.postTask === 'function') {
    void scheduler.postTask(work, { priority: 'user-blocking' });
    return;
  }
  setTimeout(work, 0);
}

/**
 * Resolves once `work` has settled (fulfilled or rejected) or `ms` milliseconds have passed,
 * whichever comes first; never rejects.
 */
export function settledOrAfter(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    work.then(done, done);
  });
}
