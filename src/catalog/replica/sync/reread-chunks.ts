import type { Db } from '../../../db/port.js';
import { type CatalogReplicaOptions, ZERO_UUID } from '../catalog-rows.js';
import type { CatalogStore } from '../catalog-store.js';
import * as feed from './feed-reads.js';
import { JobVersions, type VersionChunk } from './job-versions.js';

/**
 * The chunks of a full re-read (../catalog-replica.ts schedules them): companies first, then jobs, each chunk
 * read and applied to the store in one round of the feed.
 */

/** Companies per round of a full re-read: a round holds a search that arrives meanwhile. */
const COMPANY_CHUNK = 50;

/**
 * A full re-read waits this many times its last chunk's time before the next, so it takes at most a quarter of the
 * event loop and of a connection: back to back, its chunks slowed the searches served meanwhile (shared cores).
 */
export const REREAD_PAUSE_FACTOR = 3;

/** A full re-read under way: its next chunk's table, the id it starts after, and, for jobs, its versions once read. */
export type Reread = { table: 'companies' | 'jobs'; after: string; read?: VersionChunk; readMs?: number };

/** Where a chunk reads from and what it applies to. */
export interface RereadTarget {
  db: Db;
  opts: CatalogReplicaOptions;
  store: CatalogStore;
  /** The versions the store keeps, if any. */
  versions: JobVersions | undefined;
}

/**
 * One chunk of a full re-read's jobs: their versions (read before the round, or now), then the rows of those
 * that differ from what the store holds (without versions, every row is read: a re-read still finds whatever
 * was missed).
 */
export async function rereadJobChunk(t: RereadTarget, reread: Reread): Promise<Reread | undefined> {
  const versions = t.versions ?? new JobVersions();
  const read = reread.read ?? (await JobVersions.read(t.db, t.opts.model, reread.after, t.opts.rereadChunk));
  const { stale, next } = versions.compare(read, t.store.jobs);
  for (const r of await feed.jobsById(t.db, t.opts.model, stale)) t.store.putJob(r);
  return next === undefined ? undefined : { table: 'jobs', after: next };
}

/** One chunk of a full re-read's companies (few and small: read whole); then the jobs. */
export async function rereadCompanyChunk(t: RereadTarget, after: string): Promise<Reread> {
  const limit = t.opts.rereadChunk ?? COMPANY_CHUNK;
  const rows = await feed.companiesAfter(t.db, t.opts.model, after, limit);
  for (const r of rows) t.store.putCompany(r);
  const last = rows.at(-1);
  return rows.length === limit && last
    ? { table: 'companies', after: last.id }
    : { table: 'jobs', after: ZERO_UUID };
}
