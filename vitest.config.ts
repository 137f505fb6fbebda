import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    reporters: ['default', './tests/utils/summary-reporter.ts'],
    // One more worker than the 2 cores of the machines here: the end-to-end files mostly wait.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'contract',
          environment: 'node',
          include: ['tests/contract/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          // One module registry per worker, not per file: the full run is CPU-bound on 2 cores and
          // re-importing the server (Fastify, Ajv, Kysely) for each file was about half its CPU time.
          // Files keep no state between them (each builds its own app and database); checked with
          // `--sequence.shuffle.files` (docs/decisions/0057-testing-strategy.md).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          environment: 'jsdom',
          include: ['machines/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}', 'tests/ui/**/*.test.{ts,tsx}', 'tests/utils/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/utils/setup-ui.ts'],
          // As the server's: React, Mantine and the router imported once per worker (about half the
          // project's CPU time); jsdom is still a fresh window per file.
          isolate: false,
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          // Each file starts its own product (free port, own data directory) and browser, and spends
          // most of its time waiting on them: three files at once finish the e2e project in about
          // 5 minutes instead of 7.5 on 2 cores.
          fileParallelism: true,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
