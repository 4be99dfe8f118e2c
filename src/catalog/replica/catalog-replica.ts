import type { Db } from '../../db/port.js';
import type { VectorIndex } from '../../search/vectors/vector-index.js';
import type { ActiveLocations } from '../active-locations.js';
import type { JobAttrs } from '../fields/job-record.js';
import type { JobFilters } from '../types.js';
import {
  type CatalogReplicaOptions,
  COMPANY_SELECT,
  type CompanyAttrs,
  type CompanyRow,
  type IndexListener,
  LAST_SEQ,
  ZERO_UUID,
} from './catalog-rows.js';
import { CatalogStore } from './catalog-store.js';
import type { JobCodes, RowMasks } from './job-columns.js';
import * as feed from './sync/feed-reads.js';
import { JobVersions } from './sync/job-versions.js';
import {
  REREAD_PAUSE_FACTOR,
  type Reread,
  rereadCompanyChunk,
  rereadJobChunk,
} from './sync/reread-chunks.js';

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
 * searches served meanwhile; `reload()` empties and reloads at once). A re-read compares each job's version
 * (sync/job-versions.ts) and reads only the jobs that differ.
 */

export type { JobAttrs } from '../fields/job-record.js';
export type { CatalogReplicaOptions, CompanyAttrs } from './catalog-rows.js';

export class CatalogReplica {
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
  /** A full re-read in progress: the table and the id its next chunk starts after. */
  private reread: Reread | undefined;
  /** Set when a re-read's next chunk is due: the round that starts next runs it. */
  private chunkDue = false;
  private chunkTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private pendingSave: NodeJS.Immediate | undefined;
  /** Where the last full load came from (start-up logs and tests read it). */
  loadedFrom: 'snapshot' | 'database' | undefined;
  private inflight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /**
   * Embedded database only: Db.writeGeneration as read before a round that left the index complete. Every write
   * goes through this process's Db there, which counts them, so while the count stays put nothing can be new and
   * a round needs no statement (the probe costs event-loop time on every search).
   */
  private quietAt: number | undefined;
  private readonly now: () => number;
  private readonly lagMs: number;
  private readonly fullReloadMs: number;
  /** The rows, which this replica keeps current; the read surface below is theirs. */
  private readonly store: CatalogStore;
  readonly jobCodes: JobCodes;
  readonly jobs: VectorIndex<JobAttrs>;
  readonly companies: VectorIndex<CompanyAttrs>;
  readonly places: ActiveLocations;

  constructor(
    private readonly db: Db,
    private readonly opts: CatalogReplicaOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.lagMs = opts.lagMs ?? (db.kind === 'postgres' ? 10_000 : 0);
    // PGlite has one connection, so its feed cannot miss a commit and never needs a full reload.
    this.fullReloadMs = opts.fullReloadMs ?? (db.kind === 'postgres' ? 600_000 : Number.POSITIVE_INFINITY);
    // Versions are kept only where a full re-read can happen (they are what it compares).
    const rereads = this.lagMs > 0 || Number.isFinite(this.fullReloadMs);
    this.store = new CatalogStore(db, opts, rereads ? new JobVersions() : undefined);
    this.jobCodes = this.store.jobCodes;
    this.jobs = this.store.jobs;
    this.companies = this.store.companies;
    this.places = this.store.places;
  }

  /** CatalogStore.generation: bumped by every change applied. */
  get generation(): number {
    return this.store.generation;
  }

  listen(listener: IndexListener): void {
    this.store.listen(listener);
  }

  companyIdBySlug(slug: string): string | undefined {
    return this.store.companyIdBySlug(slug);
  }

  jobMasks(filters: JobFilters): RowMasks | null {
    return this.store.jobMasks(filters);
  }

  jobsAtLocations(masks: RowMasks): Int32Array {
    return this.store.jobsAtLocations(masks);
  }

  jobRows(masks: RowMasks | null): ((slot: number) => boolean) | undefined {
    return this.store.jobRows(masks);
  }

  /** True while a full load runs: the index is partial until it ends. */
  loading = false;

  /** True while a full re-read is under way: its rounds follow one another, each searched between. */
  get rereading(): boolean {
    return this.reread !== undefined;
  }

  /** Whether a full load has completed (reads from the index are then answers, not guesses). */
  get ready(): boolean {
    return this.loaded;
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
    // A re-read's chunk runs in a round the re-read scheduled, never in a caller's, so a search waits for one
    // chunk at most. Taken before the first await: a chunk scheduled meanwhile belongs to the next round.
    const chunk = this.chunkDue;
    this.chunkDue = false;
    try {
      await this.round(chunk);
    } catch (err) {
      // The next round runs the chunk instead, so a failed round never stalls the re-read.
      this.chunkDue ||= chunk;
      throw err;
    }
  }

  private async round(chunk: boolean): Promise<void> {
    const now = this.now();
    if (!this.loaded) {
      await this.loadAll(now);
      return;
    }
    // The periodic safety net for writes the feed may have missed is a re-read, not a reload: a reload empties
    // the index and makes every search wait for the bulk read (docs/performance.md).
    if (
      now - this.lastFull >= this.fullReloadMs &&
      this.rereadAt === undefined &&
      this.reread === undefined
    ) {
      this.lastFull = now;
      this.rereadAt = now;
    }
    // A full re-read (scheduled by a load on PostgreSQL, see loadAll, and periodically): tombstones at once, then
    // companies and jobs a small chunk per round of its own (below), with requests served in between.
    if (this.rereadAt !== undefined && now >= this.rereadAt) {
      this.rereadAt = undefined;
      // Tombstones first: one marking a truncation reloads everything instead.
      if (this.applyTombstones(await feed.tombstones(this.db))) return this.loadAll(now);
      this.reread = { table: 'companies', after: ZERO_UUID };
      this.scheduleChunk(0);
    }
    await this.applyChanges(now);
    const reread = this.reread;
    if (reread === undefined || !chunk) return;
    const started = performance.now();
    this.reread =
      reread.table === 'companies'
        ? await rereadCompanyChunk(this.store, reread.after)
        : await rereadJobChunk(this.store, reread);
    // The chunk's time: its round's part and, for jobs, the version read before it.
    const took = performance.now() - started + (reread.readMs ?? 0);
    if (this.reread !== undefined) this.scheduleChunk(this.opts.rereadPauseMs ?? REREAD_PAUSE_FACTOR * took);
  }

  /**
   * The re-read's next chunk, after `pauseMs`: a jobs chunk's versions are read first, outside any round, then the
   * chunk is compared and applied in a round of its own, after the requests already waiting. A failed read leaves
   * the chunk to that round, which reads it itself.
   */
  private scheduleChunk(pauseMs: number): void {
    if (this.closed) return;
    const due = async () => {
      this.chunkTimer = undefined;
      const reread = this.reread;
      // A reload meanwhile dropped the re-read, or the index closed: nothing is due.
      if (reread === undefined || this.closed) return;
      if (reread.table === 'jobs' && reread.read === undefined) {
        const { model, rereadChunk } = this.opts;
        const started = performance.now();
        const read = await JobVersions.read(this.db, model, reread.after, rereadChunk).catch(
          this.reportReread,
        );
        if (this.reread !== reread) return;
        if (read) Object.assign(reread, { read, readMs: performance.now() - started });
      }
      this.chunkDue = true;
      await this.refresh();
    };
    const run = () => void due().catch(this.reportReread);
    if (pauseMs <= 0) return void setImmediate(run);
    this.chunkTimer = setTimeout(run, pauseMs);
    this.chunkTimer.unref();
  }

  private readonly reportReread = (err: unknown): undefined => {
    this.opts.onError?.(err, 'catalog replica re-read failed');
  };

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
    for (const r of await feed.changedCompanies(this.db, this.opts.model, since)) this.store.putCompany(r);
    for (const r of await feed.changedJobs(this.db, this.opts.model, since)) this.store.putJob(r);
    if (this.applyTombstones(await feed.tombstones(this.db, since))) return this.loadAll(now);
    // Complete up to the sequence read first, not up to the highest seq among the rows: a write can commit
    // between this round's statements (each waits for its turn), and its job rows would then carry seqs above a
    // company row of the same write that the company statement, run before the commit, never saw. Rows above
    // `lastSeq` read here are simply read again next round.
    this.seen = Math.max(this.seen, lastSeq);
    this.marks.push({ at: now, seq: this.seen });
    this.quietAt = writes;
  }

  /** Removes what the tombstones name; true when one marks a truncation (the caller reloads everything). */
  private applyTombstones(gone: feed.Tombstone[]): boolean {
    for (const g of gone) {
      // A table was truncated (migration 0008): nothing row by row describes what went, so reload it all, unless
      // the last load already read the tables after it.
      if (g.kind === 'truncate') {
        if (g.seq > this.truncatedAt) return true;
        continue;
      }
      if (g.kind === 'job') this.store.removeJob(g.id);
      else this.store.removeCompany(g.id);
    }
    return false;
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
    this.truncatedAt = await feed.newestTruncation(this.db);
    for (const r of await this.db.query<CompanyRow>(COMPANY_SELECT, [this.opts.model]))
      this.store.putCompany(r);
    await this.store.bulkLoadJobs();
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
    if (this.chunkTimer) clearTimeout(this.chunkTimer);
    this.saveSnapshot();
    this.closed = true;
    this.store.close();
  }

  private clearAll(): void {
    // Not loaded until the load that follows completes: a failed load leaves no partial index in use.
    this.loaded = false;
    this.store.clearRows();
    this.marks = [];
    this.reread = undefined;
  }

  /** Reads the snapshot into the empty index (see CatalogStore.readSnapshotFile); true when it did. */
  private async loadSnapshot(path: string, now: number): Promise<boolean> {
    const seen = await this.store.readSnapshotFile(path);
    if (seen === undefined) return false;
    this.seen = seen;
    this.marks.push({ at: now, seq: seen });
    this.lastFull = now;
    return true;
  }

  /**
   * Writes the index to the snapshot file, complete up to the feed position every process is known to have
   * read (the safe mark), so the next start re-reads anything that might have committed out of order.
   */
  saveSnapshot(): boolean {
    const path = this.opts.snapshotPath;
    if (!path || !this.loaded || this.closed) return false;
    return this.store.writeSnapshotFile(path, this.safeMark(this.now()));
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
}
