import { rmSync } from 'node:fs';
import { COMPANY_DETAIL, type CompanyDetailAttrs } from '../catalog/fields/company-record.js';
import {
  type Intern,
  JOB_RECORD_COLUMNS,
  JOB_RECORD_TSV,
  type JobAttrs,
  type JobRecord,
  recordFromRow,
  recordFromTsv,
  sameRecord,
} from '../catalog/fields/job-record.js';
import { tsvRows } from '../catalog/fields/tsv.js';
import { companyPredicate } from '../catalog/filters.js';
import type { CompanyFilters, JobFilters } from '../catalog/types.js';
import type { Db } from '../db/port.js';
import { readSnapshot, writeSnapshot } from './index-snapshot.js';
import { JobCodes, JobColumns, type RowMasks } from './job-columns.js';
import { ScanThread } from './scan-thread.js';
import { type Hit, type StoredVector, VectorIndex } from './vector-index.js';

/**
 * The in-process copy of what semantic search needs: each job's and company's vector (for the current model)
 * and the attributes the catalog filters read. It follows the database through the search_seq change feed
 * (migration 0002): refresh() reads only rows whose seq passed the last one seen, so start-up is one bulk read
 * and every later search costs one indexed, usually empty, query.
 *
 * Coherence: refresh() runs before every search, so a committed write is visible to the next search in any
 * process. On PostgreSQL a sequence value can commit after a larger one, so the feed re-reads the last
 * `lagMs` of changes each time (idempotently), and re-reads everything once, `lagMs` after a full load, for
 * writes that drew their value before the load and committed after it; a writer transaction open longer than
 * `lagMs` (default 10 s) could be missed until the next full re-read (every `fullReloadMs`, in chunks, with
 * searches served meanwhile; `reload()` empties and reloads at once).
 */

export type { CompanyDetailAttrs, JobAttrs };
export { companyPredicate, tsvRows };

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

export interface CompanyAttrs {
  name: string;
  slug: string;
  category: string;
  /** "dimension:slug" of every attached tag. */
  tags: Set<string>;
  active: boolean;
  domain: string;
  oneLiner: string;
  /** The column the /companies order reads (kept by the writers). */
  activeJobCount: number;
  /** lower(name) as the database computes it: the /companies tie-break compares it. */
  nameKey: string;
  /** Attached tags as list items show them, in the database's order (lower(value), slug). */
  tagList: TagRef[];
  detail: CompanyDetailAttrs;
}

/** A tag as a company list item shows it. */
export interface TagRef {
  dimension: string;
  value: string;
  slug: string;
}

export interface CatalogIndexOptions {
  /** Embedder identity: only vectors of this model are loaded. */
  model: string;
  now?: () => number;
  /** Re-read window for out-of-order sequence commits in ms (default 10000 on PostgreSQL, 0 on PGlite). */
  lagMs?: number;
  /** Period of the full re-read in ms (default 10 minutes on PostgreSQL, never on PGlite). */
  fullReloadMs?: number;
  /**
   * A snapshot file that belongs to this database (the embedded one's data directory): read instead of the
   * bulk load at start, written after a bulk load and by saveSnapshot().
   */
  snapshotPath?: string;
  /** Background failures (snapshot writes) that must be logged but not thrown. */
  onError?: (err: unknown, msg: string) => void;
  /**
   * From this many job vectors, each job scan's pass over every row runs on a worker thread while the event loop
   * ranks the keyword lists (scan-thread.ts); 0 or absent: never.
   */
  scanThreadRows?: number;
}

/** A job row of the change feed or the bulk load: its record (job-record.ts) and what the index needs besides. */
type JobRow = JobRecord & { id: string; active: boolean; vector: Uint8Array | null };

interface CompanyRow {
  id: string;
  name: string;
  slug: string;
  category: string;
  active: boolean;
  domain: string;
  one_liner: string;
  active_job_count: number;
  name_key: string;
  tags: TagRef[] | null;
  detail: CompanyDetailAttrs;
  vector: Uint8Array | null;
}

/**
 * Jobs per bulk-load round trip: bounds the transient strings (~1.2 KB per job) and, on PGlite, how long one
 * query holds the event loop (~90 ms); requests get a turn between chunks.
 */
const BULK_CHUNK = 5_000;
/** The longest the snapshot load keeps the event loop before letting waiting requests run. */
const LOAD_SLICE_MS = 4;
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** The last seq handed out (0 before the first): a cheap "did anything change" probe. */
const LAST_SEQ = `SELECT CASE WHEN is_called THEN last_value ELSE 0 END::float8 AS v FROM search_change_seq`;

const COMPANY_SELECT = `SELECT c.id, c.name, c.slug, c.category, c.active, c.domain, c.one_liner,
    c.active_job_count, lower(c.name) AS name_key, e.vector,
    (SELECT json_agg(json_build_object('dimension', t.dimension, 'value', t.value, 'slug', t.slug)
        ORDER BY lower(t.value), t.slug)
      FROM company_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.company_id = c.id) AS tags,
    ${COMPANY_DETAIL} AS detail
  FROM companies c LEFT JOIN company_embeddings e ON e.company_id = c.id AND e.model = $1`;

const JOB_SELECT = `SELECT j.id, j.active, ${JOB_RECORD_COLUMNS}, e.vector
  FROM jobs j LEFT JOIN job_embeddings e ON e.job_id = j.id AND e.model = $1`;

const CHANGED_COMPANY_IDS = `SELECT id FROM companies WHERE search_seq > $1
  UNION SELECT company_id FROM company_embeddings WHERE search_seq > $1`;

const CHANGED_JOB_IDS = `SELECT id FROM jobs WHERE search_seq > $1
  UNION SELECT job_id FROM job_embeddings WHERE search_seq > $1`;

export function bytesToVector(bytes: Uint8Array): Float32Array {
  // A copy: driver buffers may start at offsets that are not multiples of 4.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

export function vectorToBytes(v: Float32Array): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

export class CatalogIndex {
  /** Codes of job locations, roles and companies, shared by the job rows' columns here and in KeywordIndex. */
  readonly jobCodes = new JobCodes();
  private readonly jobColumns = new JobColumns(this.jobCodes);
  readonly jobs: VectorIndex<JobAttrs>;
  /** Runs the job scans' kernel on a second core (CatalogIndexOptions.scanThreadRows). */
  private readonly scans: ScanThread | undefined;
  readonly companies = new VectorIndex<CompanyAttrs>();
  private readonly slugToCompany = new Map<string, string>();
  /** Distinct lower(location) of active jobs -> how many jobs have it (query understanding reads it). */
  private readonly places = new Map<string, number>();
  private seen = 0;
  /** (time, max seq) of recent polls; the re-read mark is the max seq of a poll at least lagMs old. */
  private marks: { at: number; seq: number }[] = [];
  private lastFull = 0;
  private loaded = false;
  /** When the next full re-read is due: a lag window after a load on PostgreSQL, and every fullReloadMs. */
  private rereadAt: number | undefined;
  /**
   * The newest truncation marker (tombstone seq) visible when the last load from the database began: the load's
   * reads already reflect it and every older one. Markers are never deleted, so without this every re-read found
   * an old one again and reloaded (on PostgreSQL, after any TRUNCATE: a blocking full load every lag window).
   */
  private truncatedAt = 0;
  /** A full re-read in progress: the job id its next chunk starts after. */
  private rereadAfter: string | undefined;
  private closed = false;
  private pendingSave: NodeJS.Immediate | undefined;
  /** Where the last full load came from (start-up logs and tests read it). */
  loadedFrom: 'snapshot' | 'database' | undefined;
  private inflight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private readonly listeners: IndexListener[] = [];
  /** Interned strings of job attributes (see jobAttrs); emptied with the index. */
  private readonly shared = new Map<string, string>();
  /** Interned tags of company attributes (see tag). */
  private readonly tags = new Map<string, { ref: TagRef; key: string }>();
  /** Bumped by every change applied: derived structures compare it to know they are current. */
  generation = 0;
  /**
   * Embedded database only: Db.writeGeneration as read before a round that left the index complete. Every write
   * goes through this process's Db there, which counts them, so while the count stays put nothing can be new and
   * a round needs no statement (the probe costs ~0.4 ms of the event loop per search).
   */
  private quietAt: number | undefined;
  private readonly now: () => number;
  private readonly lagMs: number;
  private readonly fullReloadMs: number;

  constructor(
    private readonly db: Db,
    private readonly opts: CatalogIndexOptions,
  ) {
    this.now = opts.now ?? Date.now;
    const minRows = opts.scanThreadRows ?? 0;
    this.scans =
      minRows > 0
        ? new ScanThread((err) =>
            opts.onError?.(err, 'search scan thread failed; scanning on the event loop'),
          )
        : undefined;
    this.jobs = new VectorIndex<JobAttrs>({
      columns: this.jobColumns,
      ...(this.scans ? { thread: { scans: this.scans, minRows } } : {}),
    });
    this.lagMs = opts.lagMs ?? (db.kind === 'postgres' ? 10_000 : 0);
    // PGlite has one connection, so its feed cannot miss a commit and never needs a full reload.
    this.fullReloadMs = opts.fullReloadMs ?? (db.kind === 'postgres' ? 600_000 : Number.POSITIVE_INFINITY);
  }

  /** True while a full load runs: the index is partial until it ends. */
  loading = false;

  /** Whether a full load has completed (reads from the index are then answers, not guesses). */
  get ready(): boolean {
    return this.loaded;
  }

  listen(listener: IndexListener): void {
    this.listeners.push(listener);
  }

  /**
   * Brings the index up to date with every write committed before the call. A round already under way may have
   * read the feed before such a write, so a caller arriving during one gets the next round, which every caller
   * arriving meanwhile shares: at most one round runs and one waits.
   */
  refresh(): Promise<void> {
    if (this.inflight === undefined) {
      this.inflight = this.doRefresh().finally(() => {
        this.inflight = undefined;
      });
      return this.inflight;
    }
    this.queued ??= this.inflight
      .catch(() => {})
      .then(() => {
        this.queued = undefined;
        return this.refresh();
      });
    return this.queued;
  }

  /** Drops everything and reads it again in bulk. */
  async reload(): Promise<void> {
    this.loaded = false;
    await this.refresh();
  }

  private async doRefresh(): Promise<void> {
    const now = this.now();
    if (!this.loaded) {
      await this.loadAll(now);
      return;
    }
    // The periodic safety net for writes the feed may have missed is a re-read, not a reload: a reload emptied
    // the index and made every search wait for the bulk read (~5 s at 100k jobs on PostgreSQL, every 10 minutes).
    if (
      now - this.lastFull >= this.fullReloadMs &&
      this.rereadAt === undefined &&
      this.rereadAfter === undefined
    ) {
      this.lastFull = now;
      this.rereadAt = now;
    }
    // A full re-read (scheduled by a load on PostgreSQL, see loadAll, and periodically): companies and tombstones
    // at once, jobs a chunk per round (below), so no search waits for all of it.
    if (this.rereadAt !== undefined && now >= this.rereadAt) {
      this.rereadAt = undefined;
      if (await this.rereadCompaniesAndTombstones(now)) return;
      this.rereadAfter = ZERO_UUID;
    }
    await this.applyChanges(now);
    if (this.rereadAfter !== undefined) {
      this.rereadAfter = await this.readJobChunk(this.rereadAfter, true);
      // The rest follows in rounds of its own, with requests served in between.
      if (this.rereadAfter !== undefined && !this.closed) {
        setImmediate(() => {
          this.refresh().catch((err: unknown) => this.opts.onError?.(err, 'search index re-read failed'));
        });
      }
    }
  }

  /** Rows whose feed seq passed the lag-window mark, and tombstones. */
  private async applyChanges(now: number): Promise<void> {
    // Read before the first statement: a write that commits after it moves the count, and the next round reads.
    const writes = this.db.kind === 'pglite' ? this.db.writeGeneration : undefined;
    if (writes !== undefined && writes === this.quietAt) return;
    const since = this.safeMark(now);
    // Fast path, one tiny query: no sequence value was drawn after `since` (a sequence never goes back), so there
    // is nothing to read, nor to re-read for the lag window.
    const [last] = await this.db.query<{ v: number }>(LAST_SEQ, [], { name: 'search_last_seq' });
    const lastSeq = last?.v ?? 0;
    if (lastSeq <= since) {
      if (this.lagMs > 0) this.marks.push({ at: now, seq: this.seen });
      this.quietAt = writes;
      return;
    }
    const companies = await this.changedRows<CompanyRow>(CHANGED_COMPANY_IDS, COMPANY_SELECT, 'c.id', since);
    for (const r of companies) this.putCompany(r);
    const jobs = await this.changedRows<JobRow>(CHANGED_JOB_IDS, JOB_SELECT, 'j.id', since);
    for (const r of jobs) this.putJob(r);
    const gone = await this.db.query<{ kind: string; id: string; seq: number }>(
      'SELECT kind, id, seq::float8 AS seq FROM search_tombstones WHERE seq > $1',
      [since],
    );
    if (this.applyTombstones(gone)) return this.loadAll(now);
    // Complete up to the sequence read first, not up to the highest seq among the rows: a write can commit
    // between this round's statements (each waits for its turn), and its job rows would then carry seqs above a
    // company row of the same write that the company statement, run before the commit, never saw. Rows above
    // `lastSeq` read here are simply read again next round.
    this.seen = Math.max(this.seen, lastSeq);
    this.marks.push({ at: now, seq: this.seen });
    this.quietAt = writes;
  }

  /** Removes what the tombstones name; true when one marks a truncation (the caller reloads everything). */
  private applyTombstones(gone: { kind: string; id: string; seq: number }[]): boolean {
    for (const g of gone) {
      // A table was truncated (migration 0008): nothing row by row describes what went, so reload it all, unless
      // the last load already read the tables after it.
      if (g.kind === 'truncate') {
        if (g.seq > this.truncatedAt) return true;
        continue;
      }
      if (g.kind === 'job') this.removeJob(g.id);
      else this.removeCompany(g.id);
    }
    return false;
  }

  /** The first step of a full re-read; true when it found a truncation and reloaded instead. */
  private async rereadCompaniesAndTombstones(now: number): Promise<boolean> {
    for (const r of await this.db.query<CompanyRow>(COMPANY_SELECT, [this.opts.model])) this.putCompany(r);
    const gone = await this.db.query<{ kind: string; id: string; seq: number }>(
      'SELECT kind, id, seq::float8 AS seq FROM search_tombstones',
    );
    if (!this.applyTombstones(gone)) return false;
    await this.loadAll(now);
    return true;
  }

  /**
   * Rows whose feed seq passed `since`: ids first, through the search_seq indexes, then the rows by id. One
   * statement with IN (... UNION ...) let PostgreSQL hash-join whole tables, ~80 ms per search at 100k jobs.
   */
  private async changedRows<R>(
    idsSql: string,
    select: string,
    idColumn: string,
    since: number,
  ): Promise<R[]> {
    const ids = await this.db.query<{ id: string }>(idsSql, [since]);
    if (ids.length === 0) return [];
    return this.db.query<R>(`${select} WHERE ${idColumn} = ANY($2::uuid[])`, [
      this.opts.model,
      ids.map((r) => r.id),
    ]);
  }

  /**
   * Start-up, reload() and truncations: two bulk reads (companies, then active jobs with their vectors). At
   * start a valid snapshot replaces them, and the change feed brings it up to date.
   */
  private async loadAll(now: number): Promise<void> {
    this.quietAt = undefined;
    this.loading = true;
    try {
      await this.loadAllRows(now);
    } finally {
      this.loading = false;
    }
  }

  private async loadAllRows(now: number): Promise<void> {
    this.clearAll();
    // The snapshot only at start: a later full reload is for what the feed may have missed.
    if (
      this.loadedFrom === undefined &&
      this.opts.snapshotPath &&
      (await this.loadSnapshot(this.opts.snapshotPath, now))
    ) {
      this.loaded = true;
      this.loadedFrom = 'snapshot';
      await this.doRefresh();
      return;
    }
    // Read the sequence first: anything drawn after this point is re-read by the next delta. And the newest
    // truncation marker: it committed before the reads below, which therefore reflect it.
    const [last] = await this.db.query<{ v: number }>(LAST_SEQ);
    const [truncated] = await this.db.query<{ v: number }>(
      `SELECT coalesce(max(seq), 0)::float8 AS v FROM search_tombstones WHERE kind = 'truncate'`,
    );
    this.truncatedAt = truncated?.v ?? 0;
    for (const r of await this.db.query<CompanyRow>(COMPANY_SELECT, [this.opts.model])) this.putCompany(r);
    await this.bulkLoadJobs();
    this.seen = last?.v ?? 0;
    this.marks.push({ at: now, seq: this.seen });
    this.lastFull = now;
    this.loaded = true;
    this.loadedFrom = 'database';
    // A write that drew its sequence value before this load but commits after it is neither in the load nor
    // above its mark: one re-read of everything, a lag window later, picks it up (instead of every search in
    // the window re-reading the whole catalog).
    if (this.lagMs > 0) this.rereadAt = now + this.lagMs;
    // Off the request that triggered the load; the index is read synchronously, so the file is consistent.
    if (this.opts.snapshotPath) {
      this.pendingSave = setImmediate(() => {
        this.pendingSave = undefined;
        this.saveSnapshot();
      });
    }
  }

  /** Saves the snapshot one last time and stops the scan thread; nothing is written after this. */
  close(): void {
    if (this.pendingSave) clearImmediate(this.pendingSave);
    this.saveSnapshot();
    this.closed = true;
    void this.scans?.close();
  }

  private clearAll(): void {
    // Not loaded until the load that follows completes: a failed load leaves no partial index in use.
    this.loaded = false;
    this.generation++;
    for (const l of this.listeners) l.cleared?.();
    this.jobs.clear();
    this.companies.clear();
    this.slugToCompany.clear();
    this.places.clear();
    this.shared.clear();
    this.tags.clear();
    this.marks = [];
    this.rereadAfter = undefined;
  }

  /**
   * Reads the snapshot if it is for this model and not ahead of the database (a restored backup, say). A read that
   * fails half-way (the file truncated under us) leaves an empty index and deletes the file: the caller then
   * loads from the database.
   */
  private async loadSnapshot(path: string, now: number): Promise<boolean> {
    const snap = await readSnapshot(path, this.opts.model);
    if (!snap) return false;
    try {
      const [last] = await this.db.query<{ v: number }>(LAST_SEQ);
      if ((last?.v ?? 0) < snap.seen) return false;
      this.companies.reserve(snap.companies.length, snap.dims);
      this.jobs.reserve(snap.jobCount, snap.dims);
      // Requests arriving during a restart's warm-up (answered from the database meanwhile) get a turn at least
      // every LOAD_SLICE_MS: a fixed count of rows per turn made the first answer after a restart wait behind
      // slices of ~20–90 ms (5,000 jobs; all 5,000 companies in one).
      let sliceStart = performance.now();
      let i = 0;
      const due = () => (++i & 127) === 0 && performance.now() - sliceStart >= LOAD_SLICE_MS;
      const turn = async () => {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      };
      for (const c of snap.companies) {
        if (due()) await turn();
        const row: CompanyRow = {
          id: c.id,
          name: c.name,
          slug: c.slug,
          category: c.category,
          active: c.active,
          domain: c.domain,
          one_liner: c.oneLiner,
          active_job_count: c.activeJobCount,
          name_key: c.nameKey,
          tags: c.tagList,
          detail: c.detail,
          vector: null,
        };
        this.putCompany(row, c.vector);
      }
      for await (const j of snap.jobs()) {
        // The index is empty here: no previous attributes to unplace.
        const attrs = this.jobAttrs(recordFromRow(j, this.intern));
        this.places.set(attrs.location, (this.places.get(attrs.location) ?? 0) + 1);
        this.jobs.upsert(j.id, attrs, j.vector);
        for (const l of this.listeners) l.jobPut?.(j.id, attrs, undefined);
        if (due()) await turn();
      }
    } catch (err) {
      this.clearAll();
      rmSync(path, { force: true });
      this.opts.onError?.(err, 'search index snapshot could not be read; loading from the database');
      return false;
    } finally {
      await snap.close().catch(() => {});
    }
    this.generation++;
    this.seen = snap.seen;
    this.marks.push({ at: now, seq: snap.seen });
    this.lastFull = now;
    return true;
  }

  /**
   * Writes the index to the snapshot file, complete up to the feed position every process is known to have
   * read (the safe mark), so the next start re-reads anything that might have committed out of order.
   * Failures are reported, never thrown: the snapshot only saves start-up time.
   */
  saveSnapshot(): boolean {
    const path = this.opts.snapshotPath;
    if (!path || !this.loaded || this.closed) return false;
    try {
      const companies = [...this.companies.entries()].map(([id, a]) => ({
        id,
        name: a.name,
        slug: a.slug,
        category: a.category,
        active: a.active,
        domain: a.domain,
        oneLiner: a.oneLiner,
        activeJobCount: a.activeJobCount,
        nameKey: a.nameKey,
        tagList: a.tagList,
        detail: a.detail,
        vector: this.companies.storedOf(id),
      }));
      const jobs = [...this.jobs.entries()].map(([id, a]) => ({
        id,
        ...recordFromRow(a, (v) => v),
        vector: this.jobs.storedOf(id),
      }));
      const dims = this.jobs.dimension || this.companies.dimension;
      writeSnapshot(path, { model: this.opts.model, dims, seen: this.safeMark(this.now()), companies, jobs });
      return true;
    } catch (err) {
      this.opts.onError?.(err, 'search index snapshot could not be written');
      return false;
    }
  }

  /**
   * Active jobs in chunks of BULK_CHUNK, each chunk one row: attributes as tab-separated lines (text fields
   * escaped, see TSV_FIELD) and the vectors concatenated in base64. PGlite parses rows and bytea values slowly
   * (~5x slower than this for 20k rows).
   */
  private async bulkLoadJobs(): Promise<void> {
    let after: string | undefined = ZERO_UUID;
    while (after !== undefined) {
      after = await this.readJobChunk(after, false);
      // On PGlite the next chunk would otherwise be queued before any waiting request's query.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Up to BULK_CHUNK jobs with ids after `after`, applied to the index: active ones only for a load, every one
   * for a re-read (a job deactivated by a late commit must leave). Returns the id to continue after, or
   * undefined when none are left.
   */
  private async readJobChunk(after: string, withInactive: boolean): Promise<string | undefined> {
    const [chunk] = await this.db.query<{
      n: number;
      last: string | null;
      rows: string | null;
      vectors: string | null;
    }>(
      `SELECT count(*)::int AS n, max(x.id::text) AS last,
              string_agg(concat_ws(E'\t', x.id, CASE WHEN x.vector IS NULL THEN '0' ELSE '1' END,
                CASE WHEN x.active THEN '1' ELSE '0' END, ${JOB_RECORD_TSV}), E'\n' ORDER BY x.id) AS rows,
              encode(string_agg(x.vector, ''::bytea ORDER BY x.id), 'base64') AS vectors
         FROM (SELECT j.id, j.active, ${JOB_RECORD_COLUMNS}, e.vector
                 FROM jobs j LEFT JOIN job_embeddings e ON e.job_id = j.id AND e.model = $1
                WHERE ($4 OR j.active) AND j.id > $2::uuid ORDER BY j.id LIMIT $3) x`,
      [this.opts.model, after, BULK_CHUNK, withInactive],
    );
    if (!chunk || chunk.n === 0 || !chunk.rows || !chunk.last) return undefined;
    const bytes = chunk.vectors ? Buffer.from(chunk.vectors, 'base64') : Buffer.alloc(0);
    const lines = tsvRows(chunk.rows);
    const withVector = lines.filter((l) => l[1] === '1').length;
    const width = withVector > 0 ? bytes.length / withVector : 0;
    let offset = 0;
    for (const line of lines) {
      let vector: Uint8Array | null = null;
      if (line[1] === '1') {
        vector = bytes.subarray(offset, offset + width);
        offset += width;
      }
      const record = recordFromTsv(line, 3, this.intern);
      this.putJob({ ...record, id: line[0]!, active: line[2] === '1', vector });
    }
    return chunk.n < BULK_CHUNK ? undefined : chunk.last;
  }

  private putCompany(
    r: CompanyRow,
    vector: Float32Array | StoredVector | null = r.vector ? bytesToVector(r.vector) : null,
  ): void {
    const old = this.companies.attributes(r.id);
    if (old && old.slug !== r.slug && this.slugToCompany.get(old.slug) === r.id)
      this.slugToCompany.delete(old.slug);
    this.slugToCompany.set(r.slug, r.id);
    const tagged = (r.tags ?? []).map((t) => this.tag(t));
    const tagList = tagged.map((t) => t.ref);
    const attrs: CompanyAttrs = {
      name: r.name,
      slug: r.slug,
      category: r.category,
      tags: new Set(tagged.map((t) => t.key)),
      active: r.active,
      domain: r.domain,
      oneLiner: r.one_liner,
      activeJobCount: r.active_job_count,
      nameKey: r.name_key,
      tagList,
      detail: r.detail,
    };
    // As putJob: a re-read within the lag window returns the same rows again, and bumping the generation for
    // them would drop every kept shortlist and cached answer keyed on it.
    if (
      old &&
      (vector === null || vector instanceof Float32Array) &&
      sameCompany(old, attrs) &&
      this.companies.holds(r.id, vector)
    )
      return;
    this.companies.upsert(r.id, attrs, vector);
    this.generation++;
    for (const l of this.listeners) l.companyPut?.(r.id, attrs, old);
  }

  /**
   * One frozen TagRef per distinct tag, and its "dimension:slug" key, for every company that has it: 5,000
   * companies with ~7 tags each otherwise hold ~35k copies of a few hundred tags (~6 MB).
   */
  private tag(t: TagRef): { ref: TagRef; key: string } {
    const key = `${t.dimension}:${t.slug}`;
    const known = this.tags.get(key);
    if (known && known.ref.value === t.value) return known;
    const tag = { ref: Object.freeze({ dimension: t.dimension, value: t.value, slug: t.slug }), key };
    this.tags.set(key, tag);
    return tag;
  }

  private removeCompany(id: string): void {
    const old = this.companies.attributes(id);
    if (!old) return;
    if (this.slugToCompany.get(old.slug) === id) this.slugToCompany.delete(old.slug);
    this.companies.remove(id);
    this.generation++;
    for (const l of this.listeners) l.companyRemoved?.(id, old);
  }

  private putJob(r: JobRow, vector = r.vector ? bytesToVector(r.vector) : null): void {
    if (!r.active) {
      this.removeJob(r.id);
      return;
    }
    const old = this.jobs.attributes(r.id);
    const attrs = this.jobAttrs(recordFromRow(r, this.intern));
    // A re-read returns mostly unchanged rows: leave them, and the structures that follow the index, alone.
    if (old && sameRecord(old, attrs) && this.jobs.holds(r.id, vector)) return;
    if (old) this.unplace(old.location);
    this.places.set(attrs.location, (this.places.get(attrs.location) ?? 0) + 1);
    this.jobs.upsert(r.id, attrs, vector);
    this.generation++;
    for (const l of this.listeners) l.jobPut?.(r.id, attrs, old);
  }

  /**
   * Strings many jobs share (company ids, roles, locations: the record's shared fields) stored once: 100k jobs
   * otherwise hold 100k copies of a few thousand values (~17 MB).
   */
  private readonly intern: Intern = (v) => {
    const known = this.shared.get(v);
    if (known !== undefined) return known;
    this.shared.set(v, v);
    return v;
  };

  /** A job's attributes: its record, interned, and the lower-cased location the filters read. */
  private jobAttrs(record: JobRecord): JobAttrs {
    return { ...record, location: this.intern(record.place.toLowerCase()) };
  }

  private removeJob(id: string): void {
    const old = this.jobs.attributes(id);
    if (!old) return;
    this.unplace(old.location);
    this.jobs.remove(id);
    this.generation++;
    for (const l of this.listeners) l.jobRemoved?.(id, old);
  }

  private unplace(location: string): void {
    const n = (this.places.get(location) ?? 0) - 1;
    if (n > 0) this.places.set(location, n);
    else this.places.delete(location);
  }

  /** The distinct locations (lower case, as JobAttrs.location) of active jobs that contain any of `terms`. */
  locationsWith(terms: readonly string[]): Set<string> {
    const out = new Set<string>();
    for (const loc of this.places.keys()) if (terms.some((t) => loc.includes(t))) out.add(loc);
    return out;
  }

  /** Those of `terms` that occur in at least one active job's location (distinct locations are few). */
  placesMatching(terms: readonly string[]): string[] {
    return terms.filter((t) => {
      for (const loc of this.places.keys()) if (loc.includes(t)) return true;
      return false;
    });
  }

  /**
   * The seq below which every change is known to be read: the newest poll mark at least lagMs old, or, within
   * lagMs of a load, the load's own mark (the re-read scheduled by the load covers what commits late below it).
   */
  private safeMark(now: number): number {
    if (this.lagMs === 0) return this.seen;
    while (this.marks.length > 1 && now - this.marks[1]!.at >= this.lagMs) this.marks.shift();
    // 0 only when the load found an empty catalog: everything since is then exactly what must be read.
    return this.marks[0]?.seq ?? this.seen;
  }

  /** The company with this slug (as stored: lower case), active or not; the job filter `company` resolves it. */
  companyIdBySlug(slug: string): string | undefined {
    return this.slugToCompany.get(slug);
  }

  /**
   * The job filters as masks over row codes (job-columns.ts), null when they admit every job. Valid until the
   * next change is applied: build them in the same synchronous stretch as the lists that use them.
   */
  jobMasks(filters: JobFilters): RowMasks | null {
    return this.jobCodes.masks(filters, (slug) => this.slugToCompany.get(slug));
  }

  /** The job slots at the locations the masks admit (TopK.within), for masks that name few locations. */
  jobsAtLocations(masks: RowMasks): Int32Array {
    return this.jobColumns.atLocations(masks);
  }

  /** A TopK.admit for the job vectors from masks (undefined: every row). */
  jobRows(masks: RowMasks | null): ((slot: number) => boolean) | undefined {
    return masks === null ? undefined : this.jobColumns.admit(masks);
  }

  searchCompanies(query: Float32Array, filters: CompanyFilters, k: number, minScore: number): Hit[] {
    return this.companies.search(query, k, companyPredicate(filters), minScore);
  }
}

function sameCompany(a: CompanyAttrs, b: CompanyAttrs): boolean {
  return (
    a.name === b.name &&
    a.slug === b.slug &&
    a.category === b.category &&
    a.active === b.active &&
    a.domain === b.domain &&
    a.oneLiner === b.oneLiner &&
    a.activeJobCount === b.activeJobCount &&
    a.nameKey === b.nameKey &&
    // Small values, compared whole: a change to any tag or detail field is a change.
    JSON.stringify(a.tagList) === JSON.stringify(b.tagList) &&
    JSON.stringify(a.detail) === JSON.stringify(b.detail)
  );
}
