// Mutation testing of the modules that carry the spec's rules (docs/testing.md). One group at a time: each group
// names the source files to mutate and the test files that cover them, so a mutant runs a few test files, not the
// suite. `npm run test:mutation` runs every group; MUTATION_GROUP=<name> npx stryker run runs one.
import { GROUPS } from './test/mutation/groups.mjs';

const name = process.env.MUTATION_GROUP ?? 'net';
// MUTATION_RUN names a run's report and sandbox, so that runs of one group (over parts of it) can go side by side.
const run = process.env.MUTATION_RUN ?? name;
const group = GROUPS[name];
if (!group) throw new Error(`MUTATION_GROUP must be one of ${Object.keys(GROUPS).join(', ')}`);
process.env.MUTATION_TESTS = group.tests.join(',');
// A group's environment for its test processes (the filters group runs away from UTC, see groups.mjs).
Object.assign(process.env, group.env);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'test/mutation/vitest.config.ts', related: false },
  mutate: group.mutate,
  coverageAnalysis: 'perTest',
  // Two cores shared with other work: one test process at a time.
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  // A mutant that makes a test hang is killed by the timeout, which scales with the measured baseline.
  timeoutFactor: 3,
  timeoutMS: 30_000,
  ignoreStatic: true,
  // MUTATION_ALL_KILLERS=1 runs every covering test of a mutant instead of stopping at the first failure, so the
  // report names all the tests that kill it (which tests a score depends on).
  disableBail: process.env.MUTATION_ALL_KILLERS === '1',
  reporters: ['clear-text', 'json', 'progress-append-only'],
  jsonReporter: { fileName: `reports/mutation/${run}.json` },
  // Reruns only the mutants whose code or covering tests changed since the group's last run.
  incremental: true,
  incrementalFile: `reports/mutation/${run}.incremental.json`,
  tempDirName: `.stryker-tmp/${run}`,
  cleanTempDir: 'always',
  // Files the tests need at run time besides sources and tests.
  ignorePatterns: ['dist', 'reports', 'bench/results', '.data', '.stryker-tmp'],
};
