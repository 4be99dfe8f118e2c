import { afterEach, describe, expect, it } from 'vitest';
import { loadMigrations, type Migration, migrate } from '../../src/db/migrate.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { freshDatabase, serverUrl, type TestDatabase } from '../support/db.js';

/** migrate.ts's advisory lock key. */
const MIGRATION_LOCK_KEY = 727_311_001;

const extra = (version: string, sql: string): Migration => ({
  version,
  name: `${version}_test`,
  sql,
  checksum: `sum-${version}-${sql.length}`,
});

describe('migrations', () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.drop();
    t = undefined;
  });

  it('is a no-op the second time and records every shipped version once', async () => {
    t = await freshDatabase();
    await migrate(t.db);
    expect(await migrate(t.db)).toEqual([]);
    const rows = await t.db.query<{ version: string }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((r) => r.version)).toEqual(loadMigrations().map((m) => m.version));
  });

  it('refuses an applied migration whose file changed', async () => {
    t = await freshDatabase();
    const shipped = loadMigrations();
    await migrate(t.db, shipped);
    const edited = shipped.map((m, i) => (i === 0 ? { ...m, checksum: 'edited' } : m));
    await expect(migrate(t.db, edited)).rejects.toThrow(/was changed after it was applied/);
  });

  it('rolls a failing migration back whole, leaving it pending', async () => {
    t = await freshDatabase();
    const shipped = loadMigrations();
    await migrate(t.db, shipped);
    const broken = extra('9001', 'CREATE TABLE half_done (id int);\nSELECT no_such_function();\n');
    await expect(migrate(t.db, [...shipped, broken])).rejects.toThrow(/no_such_function/);
    const tables = await t.db.query("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'");
    expect(tables).toHaveLength(0);
    const recorded = await t.db.query("SELECT 1 FROM schema_migrations WHERE version = '9001'");
    expect(recorded).toHaveLength(0);
  });

  // Separate connections racing on an empty database: the bootstrap table and every file must be created once.
  it.skipIf(!serverUrl())(
    'serializes processes that migrate an empty database at the same moment',
    async () => {
      t = await freshDatabase(serverUrl(), { empty: true });
      const url = t.url as string;
      const racers = Array.from(
        { length: 6 },
        () => new PostgresDb({ url, poolSize: 2, statementTimeoutMs: 30_000 }),
      );
      try {
        const results = await Promise.all(racers.map((db) => migrate(db)));
        // Exactly one racer applied each file; the others found it recorded.
        expect(results.flat().sort()).toEqual(loadMigrations().map((m) => m.name));
      } finally {
        await Promise.all(racers.map((db) => db.close()));
      }
    },
  );

  // A start on an up-to-date database must not queue behind another process's migration lock (a deploy's first
  // process migrating while the rest restart), nor pay the lock once per file.
  it.skipIf(!serverUrl())(
    'checks an up-to-date database without waiting for the migration lock, and waits when a file is pending',
    async () => {
      t = await freshDatabase();
      const url = t.url as string;
      const shipped = loadMigrations();
      await migrate(t.db, shipped);
      const holder = new PostgresDb({ url, poolSize: 1, statementTimeoutMs: 30_000 });
      const other = new PostgresDb({ url, poolSize: 1, statementTimeoutMs: 30_000 });
      try {
        const pending = extra('9002', 'CREATE TABLE after_the_lock (id int);\n');
        let waiting: Promise<string[]> | undefined;
        let settled = false;
        await holder.transaction(async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
          // Up to date: answers while the lock is held (were it to wait, this await would never return and the
          // test would time out), and never queues for the lock.
          expect(await migrate(other, shipped)).toEqual([]);
          expect(await lockWaiters(t as TestDatabase)).toBe(0);
          // A pending file: the migrator queues for the lock. PostgreSQL shows the waiter in pg_locks.
          waiting = migrate(other, [...shipped, pending]).finally(() => {
            settled = true;
          });
          await expect.poll(() => lockWaiters(t as TestDatabase), { interval: 50 }).toBe(1);
          expect(settled).toBe(false);
        });
        // Once the lock is released the pending file goes in.
        expect(await waiting).toEqual([pending.name]);
      } finally {
        await holder.close();
        await other.close();
      }
    },
  );
});

/** Sessions of this database waiting for the migration lock. */
async function lockWaiters(t: TestDatabase): Promise<number> {
  const rows = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
     WHERE l.locktype = 'advisory' AND l.objid = $1 AND NOT l.granted AND d.datname = current_database()`,
    [MIGRATION_LOCK_KEY],
  );
  return rows[0]?.n ?? 0;
}
