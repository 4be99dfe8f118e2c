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
import { pgliteVector } from '../../src/db/pglite-vector.js';
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

/**
 * Booting an empty PGlite runs initdb (~4 s of CPU). Instead, one migrated data directory is built per machine
 * and migration set, and every test copies it (~0.5 s to open). Built in a temp dir and renamed into place, so
 * parallel workers racing to build it never see a half-written template.
 */
async function pgliteTemplate(): Promise<string> {
  const hash = createHash('sha256');
  for (const m of loadMigrations()) hash.update(m.checksum);
  // Migrations create pgvector's columns only where the embedded database offers it (src/db/pglite-vector.ts).
  if (await pgliteVector()) hash.update('vector');
  const dir = join(tmpdir(), `frontline-pglite-template-${hash.digest('hex').slice(0, 12)}`);
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

export async function freshDatabase(
  base = serverUrl(),
  opts: { statementTimeoutMs?: number } = {},
): Promise<TestDatabase> {
  if (!base) {
    const dir = mkdtempSync(join(tmpdir(), 'frontline-test-db-'));
    cpSync(await pgliteTemplate(), dir, { recursive: true });
    rmSync(join(dir, 'frontline.pid'), { force: true });
    const db = await PgliteDb.open(dir);
    return {
      db,
      url: undefined,
      drop: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `frontline_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = new PostgresDb({
    url: url.toString(),
    poolSize: 5,
    statementTimeoutMs: opts.statementTimeoutMs ?? 30_000,
  });
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
