import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { PgliteDb } from '../../src/db/pglite.js';
import type { Db } from '../../src/db/port.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { cachePath, loadWordVectors } from '../../src/search/embedders/word-vectors.js';

/**
 * A fresh, empty database for one test file. With TEST_DATABASE_URL set (CI's second pass) it is a new database
 * on that PostgreSQL server, dropped afterwards; otherwise an in-memory PGlite.
 */
export interface TestDatabase {
  db: Db;
  /** Set in server mode: the URL of the fresh database, for child processes. */
  url: string | undefined;
  drop(): Promise<void>;
}

export const serverUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

/** The migration set's fingerprint: template databases and data directories are built once per set. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const m of loadMigrations()) hash.update(m.checksum);
  return hash.digest('hex').slice(0, 12);
}

/**
 * Booting an empty PGlite runs initdb (~4 s of CPU). Instead, one migrated data directory is built per machine
 * and migration set, and every test copies it (~0.5 s to open). Built in a temp dir and renamed into place, so
 * parallel workers racing to build it never see a half-written template.
 */
async function pgliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), `frontline-pglite-template-${migrationsHash()}`);
  if (existsSync(join(dir, 'pgdata', 'PG_VERSION'))) return dir;
  const building = mkdtempSync(join(tmpdir(), 'frontline-pglite-build-'));
  const db = await PgliteDb.open(building);
  await migrate(db);
  await db.close();
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/** A data directory holding a migrated, empty embedded database, for a service that opens it itself. */
export async function freshDataDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'frontline-test-data-'));
  cpSync(await pgliteTemplate(), dir, { recursive: true });
  rmSync(join(dir, 'frontline.pid'), { force: true });
  return dir;
}

/**
 * As freshDataDir, with the word-vector cache in place: a process's first start on a new data directory builds it
 * (seconds of CPU, test/fleet/first-start.test.ts is about that), which a test about something else need not pay
 * in every child. One cache is built per machine and linked into each directory (copied across file systems).
 */
export async function freshDataDirWithVectors(): Promise<string> {
  const dir = await freshDataDir();
  const shared = join(tmpdir(), 'frontline-word-vectors');
  loadWordVectors(shared);
  mkdirSync(join(dir, 'cache'), { recursive: true });
  try {
    linkSync(cachePath(shared), cachePath(join(dir, 'cache')));
  } catch {
    copyFileSync(cachePath(shared), cachePath(join(dir, 'cache')));
  }
  return dir;
}

export const databaseUrl = (base: string, name: string): string => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

/** PostgreSQL's "source database is being accessed by other users": another worker is cloning or building it. */
const IN_USE = '55006';

/**
 * As pgliteTemplate, on the server: a migrated database per migration set, kept on the server, that every test
 * database is cloned from (CREATE DATABASE … TEMPLATE, a file copy) instead of running every migration again
 * (about 0.8 s a database, measured under load). Built under another name and renamed, so no clone sees it half
 * migrated; a worker that loses the race to build it drops its own copy.
 */
async function serverTemplate(admin: pg.Client, base: string): Promise<string> {
  const name = `frontline_template_${migrationsHash()}`;
  const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found.rowCount) return name;
  const building = `frontline_template_build_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${building}`);
  const db = new PostgresDb({ url: databaseUrl(base, building), poolSize: 1, statementTimeoutMs: 0 });
  await migrate(db).finally(() => db.close());
  try {
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
  } catch {
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
  }
  return name;
}

/** Clones the template; while another worker is cloning it at the same moment, PostgreSQL refuses and we ask again. */
async function createFromTemplate(admin: pg.Client, name: string, template: string): Promise<void> {
  for (;;) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== IN_USE) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * A fresh database, migrated (the PGlite template, or on the server a clone of the server's template), unless
 * `empty` asks for a database no migration ran on (server only: a test of migrating an empty database). `vector`
 * loads pgvector into the embedded database, as a process searching in the database does (src/db/open.ts).
 * `prefix` begins the server database's name (`frontline_test_` by default).
 */
export async function freshDatabase(
  base = serverUrl(),
  opts: { statementTimeoutMs?: number; empty?: boolean; vector?: boolean; prefix?: string } = {},
): Promise<TestDatabase> {
  if (!base) {
    const dir = mkdtempSync(join(tmpdir(), 'frontline-test-db-'));
    cpSync(await pgliteTemplate(), dir, { recursive: true });
    rmSync(join(dir, 'frontline.pid'), { force: true });
    const db = await PgliteDb.open(dir, { vector: opts.vector });
    return {
      db,
      url: undefined,
      drop: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `${opts.prefix ?? 'frontline_test_'}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    if (opts.empty) await admin.query(`CREATE DATABASE ${name}`);
    else await createFromTemplate(admin, name, await serverTemplate(admin, base));
  } finally {
    await admin.end();
  }
  const url = databaseUrl(base, name);
  const db = new PostgresDb({
    url,
    poolSize: 5,
    statementTimeoutMs: opts.statementTimeoutMs ?? 30_000,
  });
  return {
    db,
    url,
    drop: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
