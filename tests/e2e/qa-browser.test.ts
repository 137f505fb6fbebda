/**
 * The QA paths of the machines that have a browser plan (tests/qa/browser/plans.ts), each walked in
 * Chromium against a real server started from the build on a fresh temporary database (or the
 * instance QA_BASE_URL names, see docs/QA.md). The same paths, with the same ids, as the machines'
 * jsdom tests; the paths that cannot run in a browser are listed, with the reason, by
 * `npm run qa -- list <machine>`. One path: `npm run qa -- run --browser <machine> <id>`.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { jsdomOnlyReason, runBrowserPath, type QaWorld } from '../qa/browser/plan.ts';
import { browserPlans } from '../qa/browser/plans.ts';
import { startInstance, type Instance } from '../qa/browser/world.ts';
import { findEntry } from '../qa/registry.ts';
import { BROWSER_SUITE } from '../qa/results.ts';
import { launchBrowser } from './harness.ts';

let instance: Instance | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  instance = await startInstance();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await instance?.stop();
});

for (const plan of browserPlans) {
  const entry = findEntry(plan.machine)!;
  describe(`${BROWSER_SUITE}${plan.machine}`, () => {
    let world: QaWorld<unknown>;
    beforeAll(async () => {
      world = { instance: instance!, browser: browser!, data: await plan.prepare({ instance: instance!, browser: browser! }) };
    });

    for (const qaPath of entry.model.paths.filter((candidate) => jsdomOnlyReason(plan, candidate) === null)) {
      it(qaPath.name, async () => {
        await runBrowserPath(plan, qaPath, world);
      });
    }
  });
}
