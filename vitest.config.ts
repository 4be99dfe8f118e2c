import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Generous on purpose: tests wait on events and conditions, never on time budgets, so a timeout only catches a
 * hang; on a loaded machine (docs/testing.md) a fuzz or pipeline test may take minutes. `expect.poll` waits as
 * long (its own default gives up after one second).
 */
const HANG_MS = 300_000;

/** What reaches a database: the test app, a test database, service processes, the store, the dependencies. */
const REACHES_DATABASE =
  /support\/(app|db|fleet|track-world)\.ts$|pipeline\/support\.ts$|src\/(db|deps|app|pipeline\/store)\b/;
/** A file that reads the pass's own settings behaves differently on the server. */
const READS_PASS_ENV = /TEST_DATABASE_URL|TEST_REDIS_URL|FAULT_TESTS|serverUrl\(/;
const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

/** The test file and the test helpers it imports, directly or through other helpers, with what each imports. */
function closure(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file) || !existsSync(file)) return seen;
  const text = readFileSync(file, 'utf8');
  const targets = [...text.matchAll(IMPORT)].map((m) =>
    join(dirname(file), (m[1] as string).replace(/\.js$/, '.ts')),
  );
  seen.set(file, READS_PASS_ENV.test(text) ? ['<pass environment>', ...targets] : targets);
  for (const target of targets) if (target.startsWith('test/')) closure(target, seen);
  return seen;
}

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );

/**
 * With TEST_DATABASE_FREE=skip (scripts/test-all.sh's server pass) the test files that reach no database are left
 * out: neither they nor a helper they import (followed through test/) imports the test app, a test database, a
 * service process or the store, or reads the pass's settings (TEST_DATABASE_URL, TEST_REDIS_URL, FAULT_TESTS).
 * They ran in the PGlite pass, and the server pass would run the same code again.
 */
function databaseFree(): string[] {
  if (process.env.TEST_DATABASE_FREE !== 'skip') return [];
  return testFiles('test').filter((file) =>
    [...closure(file).values()].every((imports) =>
      imports.every((i) => i !== '<pass environment>' && !REACHES_DATABASE.test(i)),
    ),
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
