import { defineConfig } from 'vitest/config';

/**
 * Generous on purpose: tests wait on events and conditions, never on time budgets, so a timeout only catches a
 * hang; on a loaded machine (docs/testing.md) a fuzz or pipeline test may take minutes. `expect.poll` waits as
 * long (its own default gives up after one second).
 */
const HANG_MS = 300_000;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Bundles the service once; every child process of the run starts from it (test/support/service-entry.ts).
    globalSetup: ['test/support/build-service.ts'],
    // PGlite boots a PostgreSQL per test file (about 4 s of CPU); two files at a time fit two cores.
    maxWorkers: 2,
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    expect: { poll: { timeout: HANG_MS } },
  },
});
