import { ZERO_UUID } from '../catalog-rows.js';
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

/**
 * One chunk of a full re-read's jobs: their versions (read before the round, or now), then the rows of those
 * that differ from what the store holds (without versions, every row is read: a re-read still finds whatever
 * was missed).
 */
export async function rereadJobChunk(store: CatalogStore, reread: Reread): Promise<Reread | undefined> {
  const { db, opts } = store;
  const versions = store.versions ?? new JobVersions();
  const read = reread.read ?? (await JobVersions.read(db, opts.model, reread.after, opts.rereadChunk));
  const { stale, next } = versions.compare(read, store.jobs);
  for (const r of await feed.jobsById(db, opts.model, stale)) store.putJob(r);
  return next === undefined ? undefined : { table: 'jobs', after: next };
}

/** One chunk of a full re-read's companies (few and small: read whole); then the jobs. */
export async function rereadCompanyChunk(store: CatalogStore, after: string): Promise<Reread> {
  const limit = store.opts.rereadChunk ?? COMPANY_CHUNK;
  const rows = await feed.companiesAfter(store.db, store.opts.model, after, limit);
  for (const r of rows) store.putCompany(r);
  const last = rows.at(-1);
  return rows.length === limit && last
    ? { table: 'companies', after: last.id }
    : { table: 'jobs', after: ZERO_UUID };
}
