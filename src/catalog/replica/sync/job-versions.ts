import type { Db } from '../../../db/port.js';
import { JOB_VERSION, ZERO_UUID } from '../catalog-rows.js';

/**
 * Active jobs whose versions one chunk of a full re-read checks: one short text row a job instead of the row and
 * its vector, through two index-only scans (migrations 0154, 0155), read outside the feed's rounds so that no
 * search waits for it (../catalog-replica.ts). (`e.job_id > $2` repeats the join's key range for the embeddings:
 * without it PostgreSQL read every embedding before the range, and a chunk's time grew with its position.)
 */
export const CHECK_CHUNK = 2_000;

/**
 * The change-feed version of every job the replica holds, as it was when the row was read. A full re-read (on
 * PostgreSQL, for writes that committed out of sequence order) then compares versions instead of reading every
 * row and vector again: it walks the active jobs' ids and versions (jobs_active_id_idx, migrations/0154) and reads
 * only the rows whose version differs or that it does not hold, and, at the end, the jobs it holds that the walk
 * did not meet (closed or deleted since).
 */
export class JobVersions {
  private readonly seqs = new Map<string, number>();
  /** The ids the re-read under way has met, how many of them had a version, and whether one was dropped since. */
  private met = new Set<string>();
  private metHeld = 0;
  private dropped = false;

  set(id: string, seq: number | undefined): void {
    if (seq === undefined) this.seqs.delete(id);
    else this.seqs.set(id, seq);
  }

  delete(id: string): void {
    if (this.seqs.delete(id)) this.dropped = true;
  }

  clear(): void {
    this.seqs.clear();
    this.restart();
  }

  private restart(): void {
    this.met = new Set();
    this.metHeld = 0;
    this.dropped = false;
  }

  /**
   * The versions of one chunk of the active jobs, ids after `after`: a read only, which may run while feed rounds
   * apply changes (compare() then finds any job they changed since as differing, and the row is read again).
   */
  static async read(db: Db, model: string, after: string, limit = CHECK_CHUNK): Promise<VersionChunk> {
    const [chunk] = await db.query<{ n: number; last: string | null; versions: string | null }>(
      `SELECT count(*)::int AS n, max(x.id::text) AS last,
              string_agg(x.id::text || ' ' || x.v::text, ',' ORDER BY x.id) AS versions
         FROM (SELECT j.id, ${JOB_VERSION} AS v
                 FROM jobs j
                 LEFT JOIN job_embeddings e ON e.job_id = j.id AND e.model = $1 AND e.job_id > $2::uuid
                WHERE j.active AND j.id > $2::uuid ORDER BY j.id LIMIT $3) x`,
      [model, after, limit],
    );
    return { after, limit, n: chunk?.n ?? 0, last: chunk?.last ?? null, versions: chunk?.versions ?? null };
  }

  /**
   * One chunk of the check against what the index holds now (ZERO_UUID as `after` starts a re-read): the ids to
   * read again and the id to continue after. The last chunk (next undefined) adds the held jobs it never met.
   * Looking for them takes a pass over every held id, so only when there can be any: when
   * the jobs met with a version are fewer than those held, or a job was dropped meanwhile (with none dropped,
   * every job held was held at the start or added since, so as many met as are held means every one was met).
   */
  compare(
    chunk: VersionChunk,
    held: { size: number; entries: () => Iterable<[string, unknown]> },
  ): { stale: string[]; next: string | undefined } {
    if (chunk.after === ZERO_UUID) this.restart();
    const stale: string[] = [];
    for (const pair of chunk.versions ? chunk.versions.split(',') : []) {
      const space = pair.indexOf(' ');
      const id = pair.slice(0, space);
      this.met.add(id);
      const seq = this.seqs.get(id);
      if (seq !== undefined) this.metHeld++;
      if (seq !== Number(pair.slice(space + 1))) stale.push(id);
    }
    if (chunk.n === chunk.limit && chunk.last) return { stale, next: chunk.last };
    if (this.dropped || this.metHeld !== held.size)
      for (const [id] of held.entries()) if (!this.met.has(id)) stale.push(id);
    this.restart();
    return { stale, next: undefined };
  }
}

/** The versions of one chunk of active jobs as read (JobVersions.read), "id version" pairs in id order. */
export interface VersionChunk {
  after: string;
  limit: number;
  n: number;
  last: string | null;
  versions: string | null;
}
