import { vectorToBytes } from '../catalog/replica/catalog-rows.js';
import { bumpCatalogVersion } from '../catalog/version.js';
import type { Db, Queryable } from '../db/port.js';
import type { Embedder } from './embedders/types.js';

/**
 * Computes and stores embeddings. A row needs one when it has none, or when its model or text hash differs
 * from today's (the texts are the views search_job_texts / search_company_texts of migration 0002, so "stale"
 * is one SQL comparison). Every pass is idempotent and resumable: it only ever picks stale rows.
 */

export type EmbedKind = 'job' | 'company';

const TABLES = {
  job: { texts: 'search_job_texts', table: 'job_embeddings', key: 'job_id' },
  company: { texts: 'search_company_texts', table: 'company_embeddings', key: 'company_id' },
} as const;

export interface Progress {
  kind: EmbedKind;
  done: number;
  total: number;
}

export class EmbeddingIndexer {
  constructor(
    private readonly db: Db,
    private readonly embedder: Embedder,
    /** Wall clock in ms (stamps the catalog version bump). */
    private readonly now: () => number = Date.now,
    /** Rows embedded per transaction (default 500). */
    private readonly batchSize = 500,
  ) {}

  /** Embeds these ids now if stale (the pipeline calls this after writing jobs or companies). */
  async embedIds(kind: EmbedKind, ids: readonly string[]): Promise<number> {
    let done = 0;
    for (let i = 0; i < ids.length; i += this.batchSize) {
      done += (await this.embedBatch(kind, ids.slice(i, i + this.batchSize))).written;
    }
    return done;
  }

  /** How many active rows of this kind are missing or stale for the current model (a full scan: CLI only). */
  async countStale(kind: EmbedKind): Promise<number> {
    const t = TABLES[kind];
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${t.texts} s LEFT JOIN ${t.table} e ON e.${t.key} = s.id
        WHERE e.${t.key} IS NULL OR e.model <> $1 OR e.text_hash <> md5(s.text)`,
      [this.embedder.id],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Embeds every stale row of every kind; safe to interrupt and run again. It walks the rows in id order, a window
   * at a time, so no single query scans the whole catalog: on the embedded database a query blocks the event loop,
   * and a 100k-row staleness scan would stall every request for seconds. Counting (for a progress bar) is only done
   * when onProgress is given.
   */
  async catchUp(onProgress?: (p: Progress) => void): Promise<number> {
    let total = 0;
    for (const kind of ['company', 'job'] as const) {
      const seqStart = await this.lastSeq();
      const stale = onProgress ? await this.countStale(kind) : 0;
      let done = 0;
      onProgress?.({ kind, done, total: stale });
      let after = '00000000-0000-0000-0000-000000000000';
      for (;;) {
        const window = await this.staleInWindow(kind, after);
        if (window.last === undefined) break;
        after = window.last;
        if (window.rows.length > 0) {
          const vectors = await this.embedder.embed(window.rows.map((r) => r.text));
          await this.db.transaction((tx) => this.write(tx, kind, window.rows, vectors));
          done += window.rows.length;
          onProgress?.({ kind, done: Math.min(done, stale), total: stale });
        }
      }
      // Rows changed during the pass carry a higher seq and are picked up by the next catchUpChanges.
      this.seen[kind] = Math.max(this.seen[kind], seqStart);
      await this.saveMark(kind, seqStart);
      total += done;
    }
    return total;
  }

  /**
   * What a process runs at start: a full catchUp for any kind without a mark for the current model (first start,
   * model change), otherwise only the rows changed since the recorded mark. This keeps a restart on a large
   * catalog from scanning every row for staleness while it should be serving.
   */
  async resume(): Promise<number> {
    const marks = await this.db.query<{ kind: EmbedKind; seq: number }>(
      'SELECT kind, seq::float8 AS seq FROM search_embedding_marks WHERE model = $1',
      [this.embedder.id],
    );
    if (marks.length < 2) return this.catchUp();
    for (const m of marks) this.seen[m.kind] = Math.max(this.seen[m.kind], m.seq);
    return this.catchUpChanges();
  }

  /**
   * Embeds rows changed since the last pass (their search_seq moved past what was seen), through an index on
   * search_seq: cheap enough to run every minute. Covers rows written by other processes or whose write-time
   * embedding failed. Model changes need a full catchUp, which every process runs once at start.
   */
  async catchUpChanges(): Promise<number> {
    let total = 0;
    for (const kind of ['company', 'job'] as const) {
      const parent = kind === 'job' ? 'jobs' : 'companies';
      for (;;) {
        const rows = await this.db.query<{ id: string; seq: number }>(
          `SELECT id, search_seq::float8 AS seq FROM ${parent} WHERE active AND search_seq > $1
            ORDER BY search_seq LIMIT $2`,
          [this.seen[kind], this.batchSize],
        );
        if (rows.length === 0) break;
        total += await this.embedIds(
          kind,
          rows.map((r) => r.id),
        );
        this.seen[kind] = rows[rows.length - 1]!.seq;
      }
      // The mark trails by one pass: on PostgreSQL a seq can commit after a larger one, and a row that did so
      // since the previous pass is still above the mark a restart resumes from.
      const previous = this.previousPass[kind];
      if (previous !== undefined && previous > this.savedMark[kind]) await this.saveMark(kind, previous);
      this.previousPass[kind] = this.seen[kind];
    }
    return total;
  }

  private readonly seen: Record<EmbedKind, number> = { job: 0, company: 0 };
  private readonly previousPass: Partial<Record<EmbedKind, number>> = {};
  private readonly savedMark: Record<EmbedKind, number> = { job: 0, company: 0 };

  /** The last search_seq handed out: rows changed after a pass started carry a larger one. */
  private async lastSeq(): Promise<number> {
    const rows = await this.db.query<{ v: number }>(
      'SELECT CASE WHEN is_called THEN last_value ELSE 0 END::float8 AS v FROM search_change_seq',
    );
    return rows[0]?.v ?? 0;
  }

  private async saveMark(kind: EmbedKind, seq: number): Promise<void> {
    await this.db.query(
      `INSERT INTO search_embedding_marks (kind, model, seq) VALUES ($1, $2, $3)
       ON CONFLICT (kind) DO UPDATE SET model = EXCLUDED.model, seq = EXCLUDED.seq, updated_at = now()`,
      [kind, this.embedder.id, seq],
    );
    this.savedMark[kind] = seq;
  }

  /** The stale rows among the next window of ids after `after`; `last` is the window's last id (undefined: done). */
  private async staleInWindow(
    kind: EmbedKind,
    after: string,
  ): Promise<{ rows: { id: string; text: string; hash: string }[]; last: string | undefined }> {
    const t = TABLES[kind];
    const rows = await this.db.query<{ id: string; text: string; hash: string; stale: boolean }>(
      `SELECT s.id, s.text, md5(s.text) AS hash,
              (e.${t.key} IS NULL OR e.model <> $1 OR e.text_hash <> md5(s.text)) AS stale
         FROM (SELECT id, text FROM ${t.texts} WHERE id > $3::uuid ORDER BY id LIMIT $2) s
         LEFT JOIN ${t.table} e ON e.${t.key} = s.id
        ORDER BY s.id`,
      [this.embedder.id, this.batchSize, after],
    );
    return { rows: rows.filter((r) => r.stale), last: rows[rows.length - 1]?.id };
  }

  /** Embeds up to batchSize stale rows among `ids`. */
  private async embedBatch(kind: EmbedKind, ids: readonly string[]): Promise<{ written: number }> {
    const t = TABLES[kind];
    const rows = await this.db.query<{ id: string; text: string; hash: string }>(
      `SELECT s.id, s.text, md5(s.text) AS hash FROM ${t.texts} s LEFT JOIN ${t.table} e ON e.${t.key} = s.id
        WHERE (e.${t.key} IS NULL OR e.model <> $1 OR e.text_hash <> md5(s.text)) AND s.id = ANY($2::uuid[])`,
      [this.embedder.id, ids],
    );
    if (rows.length === 0) return { written: 0 };
    const vectors = await this.embedder.embed(rows.map((r) => r.text));
    await this.db.transaction((tx) => this.write(tx, kind, rows, vectors));
    return { written: rows.length };
  }

  /**
   * One statement per batch: the vectors travel as one concatenated buffer sliced by ordinality, which both
   * PGlite and node-postgres pass without array-of-bytea support. It is sent as base64 text and decoded by the
   * server: PGlite serializes a bytea parameter byte by byte, which capped the indexer at ~4,500 rows/s.
   * A row deleted meanwhile is skipped (the join).
   */
  private async write(
    tx: Queryable,
    kind: EmbedKind,
    rows: { id: string; hash: string }[],
    vectors: Float32Array[],
  ): Promise<void> {
    const t = TABLES[kind];
    const dims = vectors[0]?.length ?? 0;
    const packed = new Uint8Array(rows.length * dims * 4);
    vectors.forEach((v, i) => {
      if (v.length !== dims) throw new Error(`embedder returned ${v.length} dimensions, expected ${dims}`);
      packed.set(vectorToBytes(v), i * dims * 4);
    });
    const parent = kind === 'job' ? 'jobs' : 'companies';
    await tx.query(
      `INSERT INTO ${t.table} (${t.key}, model, text_hash, dims, vector)
       SELECT u.id, $3, u.hash, $4::int,
              substring(v.bytes FROM ((u.n::int - 1) * $4::int * 4 + 1) FOR ($4::int * 4))
         FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS u(id, hash, n)
         CROSS JOIN (SELECT decode($5::text, 'base64') AS bytes) v
         JOIN ${parent} p ON p.id = u.id
       ON CONFLICT (${t.key}) DO UPDATE SET model = EXCLUDED.model, text_hash = EXCLUDED.text_hash,
         dims = EXCLUDED.dims, vector = EXCLUDED.vector, search_seq = nextval('search_change_seq'),
         embedded_at = now()`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.hash),
        this.embedder.id,
        dims,
        Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength).toString('base64'),
      ],
    );
    // New vectors change search results: other processes' response caches must see a new catalog version.
    await bumpCatalogVersion(tx, this.now());
  }
}
