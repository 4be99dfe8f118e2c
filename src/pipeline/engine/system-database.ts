import type { PostgresDb } from '../../db/postgres.js';

/** Advisory lock key serializing DBOS's schema migrations across processes (distinct from src/db/migrate.ts's). */
const DBOS_MIGRATION_LOCK_KEY = 7_140_612_901;

/**
 * DBOS applies its own schema migrations without a cross-process lock, so API processes and workers starting
 * together race on the same DDL and one dies ("tuple concurrently updated"). They go one at a time under a
 * session advisory lock; whoever comes second finds them applied, and DBOS.launch then has nothing left to do.
 * The lock is polled, never waited on inside a statement: DBOS runs CREATE INDEX CONCURRENTLY, which waits for
 * every open transaction, including a blocked pg_advisory_lock call, while that call waits for the lock held by
 * the migrating process: a deadlock through the client that PostgreSQL cannot detect. The lock's connection is
 * guarded (PostgresDb.withClient): the server dropping it mid-migration fails the launch, which the start
 * retries, instead of crashing the process.
 */
export async function migrateSystemDatabase(
  db: PostgresDb,
  databaseUrl: string,
  migrate: (url: string) => Promise<void>,
): Promise<void> {
  await db.withClient(async (client) => {
    for (;;) {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
        DBOS_MIGRATION_LOCK_KEY,
      ]);
      if (rows[0]?.locked) break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    try {
      await migrate(databaseUrl);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [DBOS_MIGRATION_LOCK_KEY]);
    }
  });
}

/**
 * Waits for `work` (the engine's launch) as long as the database answers: every `probeEveryMs` the work is still
 * pending, `probe` asks the database, and its failure (refused, dropped) ends the wait with that error. A
 * request that needs the engine is thus answered within about one probe interval of finding the database gone,
 * even when DBOS, which waits out a lost database for as long as it takes, is still launching; a launch that is
 * only slow (DBOS's first migrations on a busy machine) is waited for.
 */
export async function whileDatabaseAnswers<T>(
  work: Promise<T>,
  probe: () => Promise<unknown>,
  probeEveryMs: number,
): Promise<T> {
  const settled = work.then((value) => ({ value }));
  // Left behind when a probe ends the wait: its failure is the launch's own, reported by whoever awaits the launch.
  settled.catch(() => {});
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const tick = new Promise<undefined>((ok) => {
      timer = setTimeout(() => ok(undefined), probeEveryMs);
    });
    try {
      const outcome = await Promise.race([settled, tick]);
      if (outcome) return outcome.value;
    } finally {
      clearTimeout(timer);
    }
    await probe();
  }
}

type RetryScope = typeof import('@dbos-inc/dbos-sdk/internal/context');
let retryScope: RetryScope | undefined;
/** Already aborted: inside it, DBOS gives up at the first lost connection instead of retrying. */
const NO_RETRIES = AbortSignal.abort();

/**
 * Runs a DBOS client call so that a lost connection fails it at once: DBOS otherwise retries its system
 * database calls until the database is back, however long that takes (its scope for cutting those retries
 * short is loaded with the SDK, on first use).
 */
export async function withoutDbosRetries<T>(call: () => Promise<T>): Promise<T> {
  retryScope ??= await import('@dbos-inc/dbos-sdk/internal/context');
  return retryScope.runWithAbortableDbRetries(NO_RETRIES, call);
}
