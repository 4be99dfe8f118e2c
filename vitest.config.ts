import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Generous on purpose: tests wait on events and conditions, never on time budgets, so a timeout only catches a
 * hang; on a loaded machine (docs/testing.md) a fuzz or pipeline test may take minutes. `expect.poll` waits as
 * long (its own default gives up after one second).
 */
const HANG_MS = 300_000;

/** Folders of tests of pure code (parsers, adapters over fixtures, the outbound client, the classifier). */
const PURE_FOLDERS = ['test/net', 'test/pipeline-units', 'test/registry', 'test/enrich', 'test/sources'];
/** What reaches a database: the test app, a test database, service processes, the store, the dependencies. */
const REACHES_DATABASE =
  /support\/(app|db|fleet|track-world)\.js|pipeline\/support\.js|src\/(db|deps|app|pipeline\/store)\b/;

/**
 * With TEST_DATABASE_FREE=skip (scripts/test-all.sh's server pass) the files of those folders that import nothing
 * reaching a database are left out: they ran in the PGlite pass, and the server would run the same code again.
 */
function databaseFree(): string[] {
  if (process.env.TEST_DATABASE_FREE !== 'skip') return [];
  return PURE_FOLDERS.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => join(dir, f))
      .filter((file) => !REACHES_DATABASE.test(readFileSync(file, 'utf8'))),
  );
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...databaseFree()],
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
