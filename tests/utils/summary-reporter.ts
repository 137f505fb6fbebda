import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, `Tests: N passed, N failed, N skipped`, after Vitest's own report,
 * so any reader of the log (CI included) sees the totals in a stable form. A file that failed outside
 * its tests (a `beforeAll` that threw, an import error) leaves its tests skipped: such files are
 * counted too, so the line never reads "0 failed" on a failed run.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const brokenFiles: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      const tests = [...module.children.allTests()];
      if (module.state() === 'failed' && !tests.some((test) => test.result().state === 'failed')) brokenFiles.push(module.moduleId);
    }
    const broken = brokenFiles.length === 0 ? '' : `, ${brokenFiles.length} file(s) failed outside their tests (${brokenFiles.join(', ')})`;
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped${broken}\n`);
  }
}
