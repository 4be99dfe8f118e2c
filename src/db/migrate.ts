import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { packagePath } from '../package-root.js';
import type { Db } from './port.js';

// Arbitrary constant shared by every process that migrates this database.
const MIGRATION_LOCK_KEY = 727_311_001;

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

/** Files named NNNN_description.sql, applied in order, forward only. */
export function loadMigrations(dir = packagePath('migrations')): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const sql = readFileSync(`${dir}/${file}`, 'utf8');
      return {
        version: file.slice(0, 4),
        name: file.replace(/\.sql$/, ''),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex').slice(0, 16),
      };
    });
}

/**
 * Applies pending migrations, each in its own transaction that first takes a transaction-scoped advisory lock:
 * a second process waits, then sees the version recorded and skips it. Running it twice is a no-op.
 * An applied migration whose file changed is refused rather than silently diverging.
 */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<string[]> {
  if (await allApplied(db, migrations)) return [];
  // CREATE TABLE IF NOT EXISTS is not safe under concurrency in PostgreSQL (two sessions can both
  // pass the existence check and one fails on pg_type's unique index), so it runs under the lock too.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const rows = await tx.query<{ checksum: string }>(
        'SELECT checksum FROM schema_migrations WHERE version = $1',
        [m.version],
      );
      if (rows[0]) {
        if (rows[0].checksum !== m.checksum) {
          throw new Error(
            `migration ${m.name} was changed after it was applied; add a new migration instead`,
          );
        }
        return false;
      }
      // Statements run one by one through the transaction so a failure rolls the whole file back.
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        m.checksum,
      ]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  return applied;
}

/**
 * Whether every file is recorded with its checksum: true at every start but the first after a deploy, which then
 * reads the record once instead of taking the lock once per file (~0.1 s of a restart on the embedded database).
 * Anything else (a pending file, a changed one, no table yet) goes the locked way, which also reports a change.
 */
async function allApplied(db: Db, migrations: readonly Migration[]): Promise<boolean> {
  const [table] = await db.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (!table?.present) return false;
  const rows = await db.query<{ version: string; checksum: string }>(
    'SELECT version, checksum FROM schema_migrations',
  );
  const recorded = new Map(rows.map((r) => [r.version, r.checksum]));
  return migrations.every((m) => recorded.get(m.version) === m.checksum);
}

/** Versions recorded in the database that match the files on disk; used by readiness. */
export async function pendingMigrations(db: Db, migrations = loadMigrations()): Promise<string[]> {
  const rows = await db
    .query<{ version: string }>('SELECT version FROM schema_migrations')
    .catch(() => [] as { version: string }[]);
  const have = new Set(rows.map((r) => r.version));
  return migrations.filter((m) => !have.has(m.version)).map((m) => m.name);
}

/**
 * Splits a migration into statements on semicolons at line ends, keeping dollar-quoted bodies
 * ($$ ... $$, used by functions) intact.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    const trimmed = line.trim();
    if (!inDollar && (trimmed.startsWith('--') || trimmed === '')) {
      if (current) current += '\n';
      continue;
    }
    const dollars = line.match(/\$\$/g)?.length ?? 0;
    if (dollars % 2 === 1) inDollar = !inDollar;
    current += `${line}\n`;
    if (!inDollar && trimmed.endsWith(';')) {
      out.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
