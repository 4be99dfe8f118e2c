import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // PGlite boots a PostgreSQL per test file (about 4 s of CPU); two files at a time fit two cores.
    maxWorkers: 2,
    // Generous on purpose: tests wait on events and conditions, never on time budgets, so a timeout only
    // catches a hang; on a loaded machine (docs/testing.md) a fuzz or pipeline test may take minutes.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
