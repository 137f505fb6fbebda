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
