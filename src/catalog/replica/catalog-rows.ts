import { COMPANY_RECORD_COLUMNS, type CompanyRecord } from '../fields/company-record.js';

export type { TagRef } from '../fields/company-record.js';

import { JOB_RECORD_COLUMNS, type JobAttrs, type JobRecord } from '../fields/job-record.js';

/**
 * The rows of the in-process catalog index as read from the database and the snapshot: their attribute types,
 * the SQL that reads them, and the listener interface derived structures implement.
 */

export interface CatalogReplicaOptions {
  /** Embedder identity: only vectors of this model are loaded. */
  model: string;
  now?: () => number;
  /** Re-read window for out-of-order sequence commits in ms (default 10000 on PostgreSQL, 0 on PGlite). */
  lagMs?: number;
  /** Period of the full re-read in ms (default 10 minutes on PostgreSQL, never on PGlite). */
  fullReloadMs?: number;
  /** Rows per round of a full re-read, companies and jobs alike (default 50 companies, 2,000 jobs). */
  rereadChunk?: number;
  /** Pause before each chunk of a full re-read after its first, in ms (default three times the last one's time). */
  rereadPauseMs?: number;
  /**
   * A snapshot file that belongs to this database (the embedded one's data directory): read instead of the
   * bulk load at start, written after a bulk load and by saveSnapshot().
   */
  snapshotPath?: string;
  /** Background failures (snapshot writes) that must be logged but not thrown. */
  onError?: (err: unknown, msg: string) => void;
  /**
   * From this many job vectors, each job scan's pass over every row runs on a worker thread while the event loop
   * ranks the keyword lists (src/search/vectors/scan-thread.ts); 0 or absent: never.
   */
  scanThreadRows?: number;
}

/**
 * Told of every change the index applies (bulk load, snapshot, change-feed deltas), after it is applied: derived
 * in-memory structures (the /jobs listing, keyword structures) follow the index without polling the database.
 */
export interface IndexListener {
  jobPut?(id: string, attrs: JobAttrs, old: JobAttrs | undefined): void;
  jobRemoved?(id: string, old: JobAttrs): void;
  companyPut?(id: string, attrs: CompanyAttrs, old: CompanyAttrs | undefined): void;
  companyRemoved?(id: string, old: CompanyAttrs): void;
  /** Everything was dropped (a full reload follows). */
  cleared?(): void;
}

/** A company as the replica holds it: its declared record and the keys ("dimension:slug") of its tags. */
export type CompanyAttrs = CompanyRecord & { tags: Set<string> };

/**
 * A job row of the change feed or the bulk load: its record (catalog/fields/job-record.ts) and what the index needs besides,
 * with its change-feed version (sync/job-versions.ts).
 */
export type JobRow = JobRecord & { id: string; active: boolean; vector: Uint8Array | null; seq?: number };

/** A company as the feed and bulk reads return it. */
export type CompanyRow = CompanyRecord & { id: string; vector: Uint8Array | null };

/**
 * Jobs per bulk-load round trip: bounds the transient strings and, on PGlite, how long one query holds the event
 * loop; requests get a turn between chunks.
 */
export const BULK_CHUNK = 5_000;

/** The longest the snapshot load keeps the event loop before letting waiting requests run. */
export const LOAD_SLICE_MS = 4;

export const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** The last seq handed out (0 before the first): a cheap "did anything change" probe. */
export const LAST_SEQ = `SELECT CASE WHEN is_called THEN last_value ELSE 0 END::float8 AS v FROM search_change_seq`;

/**
 * Companies the replica holds: every published one (an onboarding not yet published is unknown to the public).
 * `embeddings` narrows the embeddings' side of the join (a range of ids the caller also puts on the companies).
 */
export const companySelect = (embeddings = '') => `SELECT c.id, e.vector,
    ${COMPANY_RECORD_COLUMNS}
  FROM (SELECT * FROM companies WHERE published_at IS NOT NULL) c
  LEFT JOIN company_embeddings e ON e.company_id = c.id AND e.model = $1${embeddings}`;

export const COMPANY_SELECT = companySelect();

/** A job's version: the larger search_seq of its row and its embedding (each write to either draws a new one). */
export const JOB_VERSION = 'greatest(j.search_seq, coalesce(e.search_seq, 0))::float8';

export const JOB_SELECT = `SELECT j.id, j.active, ${JOB_RECORD_COLUMNS}, e.vector, ${JOB_VERSION} AS seq
  FROM jobs j LEFT JOIN job_embeddings e ON e.job_id = j.id AND e.model = $1`;

export function bytesToVector(bytes: Uint8Array): Float32Array {
  // A copy: driver buffers may start at offsets that are not multiples of 4.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

export function vectorToBytes(v: Float32Array): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}
