import { rmSync } from 'node:fs';
import type { Db } from '../../db/port.js';
import { ScanThread } from '../../search/vectors/scan-thread.js';
import { type StoredVector, VectorIndex } from '../../search/vectors/vector-index.js';
import { ActiveLocations } from '../active-locations.js';
import { companyRecordOf, sameCompanyRecord } from '../fields/company-record.js';
import {
  attrsOf,
  type Intern,
  JOB_RECORD_COLUMNS,
  JOB_RECORD_TSV,
  type JobAttrs,
  type JobRecord,
  recordFromRow,
  recordFromTsv,
  sameRecord,
} from '../fields/job-record.js';
import { tsvRows } from '../fields/tsv.js';
import type { JobFilters } from '../types.js';
import {
  BULK_CHUNK,
  bytesToVector,
  type CatalogReplicaOptions,
  type CompanyAttrs,
  type CompanyRow,
  type IndexListener,
  JOB_VERSION,
  type JobRow,
  LAST_SEQ,
  LOAD_SLICE_MS,
  type TagRef,
  ZERO_UUID,
} from './catalog-rows.js';
import { JobCodes, JobColumns, type RowMasks } from './job-columns.js';
import { readSnapshot, writeSnapshot } from './sync/index-snapshot.js';
import type { JobVersions } from './sync/job-versions.js';

/**
 * The rows of the in-process catalog index and how they are kept: jobs and companies with their vectors and
 * attributes, the codes and columns the filters scan, interned strings and tags, the bulk read from the database
 * and the snapshot file. CatalogReplica (catalog-replica.ts) owns one and applies the change feed to it.
 */

/** The rows CatalogReplica keeps: codes, interned values, their bulk reads and, when given, their versions. */
export class CatalogStore {
  /** Codes of job locations, roles and companies, shared by the job rows' columns here and in KeywordIndex. */
  readonly jobCodes = new JobCodes();
  private readonly jobColumns = new JobColumns(this.jobCodes);
  readonly jobs: VectorIndex<JobAttrs>;
  /** Runs the job scans' kernel on a second core (CatalogReplicaOptions.scanThreadRows). */
  private readonly scans: ScanThread | undefined;
  readonly companies = new VectorIndex<CompanyAttrs>();
  private readonly slugToCompany = new Map<string, string>();
  /** Distinct lower(location) of active jobs (query understanding reads them). */
  readonly places = new ActiveLocations();
  private readonly listeners: IndexListener[] = [];
  /** Interned strings of job attributes (see jobAttrs); emptied with the index. */
  private readonly shared = new Map<string, string>();
  /** Interned tags of company attributes (see tag). */
  private readonly tags = new Map<string, { ref: TagRef; key: string }>();
  /** Bumped by every change applied: derived structures compare it to know they are current. */
  generation = 0;

  constructor(
    readonly db: Db,
    readonly opts: CatalogReplicaOptions,
    /** The change-feed version of each job held, kept where a full re-read compares them. */
    readonly versions?: JobVersions,
  ) {
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
  }

  /** Drops every row, interned value and version, telling the listeners (a full load follows). */
  clearRows(): void {
    this.generation++;
    for (const l of this.listeners) l.cleared?.();
    this.jobs.clear();
    this.companies.clear();
    this.slugToCompany.clear();
    this.places.clear();
    this.shared.clear();
    this.tags.clear();
    this.versions?.clear();
  }

  /**
   * Reads the snapshot into the empty store if it is for this model and not ahead of the database (a restored
   * backup, say). A read that fails half-way (the file truncated under us) leaves an empty store and deletes the
   * file: the caller then loads from the database. Returns the feed position the snapshot is complete up to,
   * undefined when not read.
   */
  async readSnapshotFile(path: string): Promise<number | undefined> {
    const snap = await readSnapshot(path, this.opts.model);
    if (!snap) return undefined;
    try {
      const [last] = await this.db.query<{ v: number }>(LAST_SEQ);
      if ((last?.v ?? 0) < snap.seen) return undefined;
      this.companies.reserve(snap.companies.length, snap.dims);
      this.jobs.reserve(snap.jobCount, snap.dims);
      // Requests arriving during a restart's warm-up (answered from the database meanwhile) get a turn at least
      // every LOAD_SLICE_MS. Slices are bounded by time, not by a count of rows: rows differ in cost, and a slice
      // of a fixed count could hold the first answer after a restart for long.
      let sliceStart = performance.now();
      let i = 0;
      const due = () => (++i & 127) === 0 && performance.now() - sliceStart >= LOAD_SLICE_MS;
      const turn = async () => {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      };
      for (const c of snap.companies) {
        if (due()) await turn();
        this.putCompany({ ...companyRecordOf(c), id: c.id, vector: null }, c.vector);
      }
      for await (const j of snap.jobs()) {
        // The index is empty here: no previous attributes to unplace.
        const attrs = this.jobAttrs(recordFromRow(j, this.intern));
        this.places.add(attrs.location);
        this.jobs.upsert(j.id, attrs, j.vector);
        for (const l of this.listeners) l.jobPut?.(j.id, attrs, undefined);
        if (due()) await turn();
      }
    } catch (err) {
      this.clearRows();
      rmSync(path, { force: true });
      this.opts.onError?.(err, 'catalog replica snapshot could not be read; loading from the database');
      return undefined;
    } finally {
      await snap.close().catch(() => {});
    }
    this.generation++;
    return snap.seen;
  }

  /**
   * Writes the index to the snapshot file, complete up to `seen` on the change feed. Failures are reported, never
   * thrown: the snapshot only saves start-up time.
   */
  writeSnapshotFile(path: string, seen: number): boolean {
    try {
      const companies = [...this.companies.entries()].map(([id, a]) => ({
        id,
        ...companyRecordOf(a),
        vector: this.companies.storedOf(id),
      }));
      const jobs = [...this.jobs.entries()].map(([id, a]) => ({
        id,
        ...recordFromRow(a, (v) => v),
        vector: this.jobs.storedOf(id),
      }));
      const dims = this.jobs.dimension || this.companies.dimension;
      writeSnapshot(path, { model: this.opts.model, dims, seen, companies, jobs });
      return true;
    } catch (err) {
      this.opts.onError?.(err, 'catalog replica snapshot could not be written');
      return false;
    }
  }

  /**
   * Active jobs in chunks of BULK_CHUNK, each chunk one row: attributes as tab-separated lines (text fields
   * escaped, see TSV_FIELD) and the vectors concatenated in base64. PGlite parses rows and bytea values slowly
   * (~5x slower than this for 20k rows).
   */
  async bulkLoadJobs(): Promise<void> {
    let after: string | undefined = ZERO_UUID;
    while (after !== undefined) {
      after = await this.readJobChunk(after);
      // On PGlite the next chunk would otherwise be queued before any waiting request's query.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Up to BULK_CHUNK active jobs with ids after `after`, applied to the index; the id to continue after, if any. */
  private async readJobChunk(after: string): Promise<string | undefined> {
    const [chunk] = await this.db.query<{
      n: number;
      last: string | null;
      rows: string | null;
      vectors: string | null;
    }>(
      `SELECT count(*)::int AS n, max(x.id::text) AS last,
              string_agg(concat_ws(E'\t', x.id, CASE WHEN x.vector IS NULL THEN '0' ELSE '1' END, x.seq,
                ${JOB_RECORD_TSV}), E'\n' ORDER BY x.id) AS rows,
              encode(string_agg(x.vector, ''::bytea ORDER BY x.id), 'base64') AS vectors
         FROM (SELECT j.id, ${JOB_RECORD_COLUMNS}, e.vector, ${JOB_VERSION} AS seq
                 FROM jobs j
                 LEFT JOIN job_embeddings e ON e.job_id = j.id AND e.model = $1 AND e.job_id > $2::uuid
                WHERE j.active AND j.id > $2::uuid ORDER BY j.id LIMIT $3) x`,
      [this.opts.model, after, BULK_CHUNK],
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
      this.putJob({ ...record, id: line[0]!, active: true, vector, seq: Number(line[2]) });
    }
    return chunk.n < BULK_CHUNK ? undefined : chunk.last;
  }

  listen(listener: IndexListener): void {
    this.listeners.push(listener);
  }

  putCompany(
    r: CompanyRow,
    vector: Float32Array | StoredVector | null = r.vector ? bytesToVector(r.vector) : null,
  ): void {
    const old = this.companies.attributes(r.id);
    if (old && old.slug !== r.slug && this.slugToCompany.get(old.slug) === r.id)
      this.slugToCompany.delete(old.slug);
    this.slugToCompany.set(r.slug, r.id);
    const tagged = r.tagList.map((t) => this.tag(t));
    const attrs: CompanyAttrs = {
      ...companyRecordOf(r),
      tagList: tagged.map((t) => t.ref),
      tags: new Set(tagged.map((t) => t.key)),
    };
    // As putJob: a re-read within the lag window returns the same rows again, and bumping the generation for
    // them would drop every kept shortlist and cached answer keyed on it.
    if (
      old &&
      (vector === null || vector instanceof Float32Array) &&
      sameCompanyRecord(old, attrs) &&
      this.companies.holds(r.id, vector)
    )
      return;
    this.companies.upsert(r.id, attrs, vector);
    this.generation++;
    for (const l of this.listeners) l.companyPut?.(r.id, attrs, old);
  }

  /**
   * One frozen TagRef per distinct tag, and its "dimension:slug" key, for every company that has it: the
   * companies otherwise hold a copy of a few hundred tags each time one is attached.
   */
  private tag(t: TagRef): { ref: TagRef; key: string } {
    const key = `${t.dimension}:${t.slug}`;
    const known = this.tags.get(key);
    if (known && known.ref.value === t.value) return known;
    const tag = { ref: Object.freeze({ dimension: t.dimension, value: t.value, slug: t.slug }), key };
    this.tags.set(key, tag);
    return tag;
  }

  removeCompany(id: string): void {
    const old = this.companies.attributes(id);
    if (!old) return;
    if (this.slugToCompany.get(old.slug) === id) this.slugToCompany.delete(old.slug);
    this.companies.remove(id);
    this.generation++;
    for (const l of this.listeners) l.companyRemoved?.(id, old);
  }

  putJob(r: JobRow, vector = r.vector ? bytesToVector(r.vector) : null): void {
    if (!r.active) {
      this.removeJob(r.id);
      return;
    }
    this.versions?.set(r.id, r.seq);
    const old = this.jobs.attributes(r.id);
    const attrs = this.jobAttrs(recordFromRow(r, this.intern));
    // A re-read returns mostly unchanged rows: leave them, and the structures that follow the index, alone.
    if (old && sameRecord(old, attrs) && this.jobs.holds(r.id, vector)) return;
    if (old) this.places.remove(old.location);
    this.places.add(attrs.location);
    this.jobs.upsert(r.id, attrs, vector);
    this.generation++;
    for (const l of this.listeners) l.jobPut?.(r.id, attrs, old);
  }

  /** Strings many jobs share (the record's shared fields) stored once: 100k jobs hold a few thousand values. */
  private readonly intern: Intern = (v) => {
    const known = this.shared.get(v);
    if (known !== undefined) return known;
    this.shared.set(v, v);
    return v;
  };

  /** A job's attributes: its record, interned, and the lower-cased location the filters read. */
  private jobAttrs(record: JobRecord): JobAttrs {
    return attrsOf(record, this.intern(record.place.toLowerCase()));
  }

  removeJob(id: string): void {
    this.versions?.delete(id);
    const old = this.jobs.attributes(id);
    if (!old) return;
    this.places.remove(old.location);
    this.jobs.remove(id);
    this.generation++;
    for (const l of this.listeners) l.jobRemoved?.(id, old);
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

  /** Stops the scan thread. */
  close(): void {
    void this.scans?.close();
  }
}
