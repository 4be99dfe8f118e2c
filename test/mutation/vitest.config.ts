import { defineConfig } from 'vitest/config';

/** The suite's settings, narrowed to the test files of one mutation group (MUTATION_TESTS, set by the Stryker config). */
const tests = (process.env.MUTATION_TESTS ?? '').split(',').filter(Boolean);
if (tests.length === 0) throw new Error('MUTATION_TESTS is empty: run through `npm run test:mutation`');

export default defineConfig({
  test: {
    include: tests,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
