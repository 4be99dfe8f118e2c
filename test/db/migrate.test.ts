import { afterEach, describe, expect, it } from 'vitest';
import { loadMigrations, type Migration, migrate } from '../../src/db/migrate.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { freshDatabase, serverUrl, type TestDatabase } from '../support/db.js';

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
      t = await freshDatabase();
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
});
