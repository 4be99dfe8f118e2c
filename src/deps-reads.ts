import { CatalogVersionFeed } from './catalog/version-feed.js';
import type { Config } from './config.js';
import { openReadDb } from './db/open.js';
import type { Db } from './db/port.js';
import type { PostgresDb } from './db/postgres.js';
import type { Metrics } from './metrics.js';

/** The public read side's database and the catalog version its cached answers key on (composed in deps.ts). */

type Closers = (() => Promise<void>)[];

/**
 * DATABASE_READ_URL's replica for the public catalog reads, or db where none is set; every pool it reads or writes
 * through is observed in the metrics.
 */
export async function openReads(config: Config, db: Db, metrics: Metrics, closers: Closers): Promise<Db> {
  observePool(db, metrics, 'primary');
  const readDb = await openReadDb(config);
  if (!readDb) return db;
  closers.push(() => readDb.close());
  observePool(readDb, metrics, 'read');
  return readDb;
}

/**
 * The catalog version the cached answers are valid under, read from the database they are read from (readDb) and
 * polled there: a read replica's changes arrive by replication, never through this process. Read from the primary
 * while the rows come from a replica that lags it, a new version would arrive before its rows, and the answers
 * read meanwhile (old rows) would be cached under it until the next change.
 */
export async function startVersionFeed(
  readDb: Db,
  pollMs: number,
  closers: Closers,
): Promise<CatalogVersionFeed> {
  const versionFeed = new CatalogVersionFeed(readDb, pollMs);
  await versionFeed.start();
  closers.push(async () => versionFeed.stop());
  return versionFeed;
}

/** On PostgreSQL, the metrics report the connection pool's use. */
function observePool(db: Db, metrics: Metrics, name: 'primary' | 'read'): void {
  if (db.kind !== 'postgres') return;
  const { pool } = db as PostgresDb;
  metrics.observePool(name, () => ({
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
  }));
}
