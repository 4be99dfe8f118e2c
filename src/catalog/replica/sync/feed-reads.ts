import type { Db } from '../../../db/port.js';
import { COMPANY_SELECT, type CompanyRow, companySelect, JOB_SELECT, type JobRow } from '../catalog-rows.js';

/**
 * The change feed's reads (migrations 0002, 0008): rows whose search_seq passed a mark, rows by id, and the
 * tombstones of deleted rows and truncations.
 */

export interface Tombstone {
  kind: string;
  id: string;
  seq: number;
}

const CHANGED_COMPANY_IDS = `SELECT id FROM companies WHERE search_seq > $1
  UNION SELECT company_id FROM company_embeddings WHERE search_seq > $1`;

const CHANGED_JOB_IDS = `SELECT id FROM jobs WHERE search_seq > $1
  UNION SELECT job_id FROM job_embeddings WHERE search_seq > $1`;

/**
 * Ids first, through the search_seq indexes, then the rows by id. One statement with IN (... UNION ...) let
 * PostgreSQL hash-join whole tables on every search.
 */
export async function changedCompanies(db: Db, model: string, since: number): Promise<CompanyRow[]> {
  const ids = await db.query<{ id: string }>(CHANGED_COMPANY_IDS, [since]);
  return rowsById<CompanyRow>(
    db,
    model,
    COMPANY_SELECT,
    'c.id',
    ids.map((r) => r.id),
  );
}

export async function changedJobs(db: Db, model: string, since: number): Promise<JobRow[]> {
  const ids = await db.query<{ id: string }>(CHANGED_JOB_IDS, [since]);
  return jobsById(
    db,
    model,
    ids.map((r) => r.id),
  );
}

export function jobsById(db: Db, model: string, ids: string[]): Promise<JobRow[]> {
  return rowsById<JobRow>(db, model, JOB_SELECT, 'j.id', ids);
}

async function rowsById<R>(
  db: Db,
  model: string,
  select: string,
  idColumn: string,
  ids: string[],
): Promise<R[]> {
  if (ids.length === 0) return [];
  return db.query<R>(`${select} WHERE ${idColumn} = ANY($2::uuid[])`, [model, ids]);
}

const TOMBSTONES = 'SELECT kind, id, seq::float8 AS seq FROM search_tombstones';

/** Tombstones after `since`, or all of them (a full re-read). */
export function tombstones(db: Db, since?: number): Promise<Tombstone[]> {
  return since === undefined
    ? db.query<Tombstone>(TOMBSTONES)
    : db.query<Tombstone>(`${TOMBSTONES} WHERE seq > $1`, [since]);
}

/**
 * Up to `limit` companies with ids after `after`, in id order (a full re-read's chunk). The embeddings' join repeats
 * the id range: without it PostgreSQL read every embedding before the range. Named, as its plan is the same every
 * time and planning was a large share of its time.
 */
export function companiesAfter(db: Db, model: string, after: string, limit: number): Promise<CompanyRow[]> {
  return db.query<CompanyRow>(
    `${companySelect(' AND e.company_id > $2::uuid')} WHERE c.id > $2::uuid ORDER BY c.id LIMIT $3`,
    [model, after, limit],
    { name: 'replica_companies_after' },
  );
}

/** The seq of the newest truncation marker, 0 when there is none. */
export async function newestTruncation(db: Db): Promise<number> {
  const [row] = await db.query<{ v: number }>(
    `SELECT coalesce(max(seq), 0)::float8 AS v FROM search_tombstones WHERE kind = 'truncate'`,
  );
  return row?.v ?? 0;
}
