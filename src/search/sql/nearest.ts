import { companyFilterSql } from '../../catalog/filters.js';
import type { CompanyFilters, JobFilters } from '../../catalog/types.js';
import type { Db } from '../../db/port.js';
import { jobWhere, type Within } from './job-queries.js';
import { ensureVectorColumns } from './vector-columns.js';

/**
 * Nearest neighbours in the database, with pgvector: the embeddings' `vec` column and its HNSW indexes exist
 * only where the database offers the extension (migration 0163, or vector-columns.ts when a search starts). Without it search ranked in the database has no semantic
 * list (keyword lists only; docs/deployment.md says what that costs). The bundled embedder's 100 dimensions are
 * served by the HNSW index (the query names the indexed expression and its partial predicate literally);
 * embeddings of other dimensions are compared exactly.
 *
 * An HNSW scan yields at most `hnsw.ef_search` rows (40 by default) before the filters apply, so each query
 * raises it to the list's length and, on pgvector 0.8 and later, lets the scan go on while filters reject rows
 * (`hnsw.iterative_scan`): a list filled as the exact scan of the in-memory search fills it. The iterative scan
 * may yield rows slightly out of order; the outer ORDER BY puts them back.
 */
export class NearestRows {
  private support: Promise<Support> | undefined;

  constructor(
    private readonly db: Db,
    private readonly model: () => string,
    /**
     * Where missing vector columns are made: a writable database (a read replica's columns arrive from its primary
     * by replication). A replica that has not received them yet is read as offering none until the next start.
     */
    private readonly schemaDb: Db = db,
  ) {}

  /** Whether the database can answer nearest-neighbour queries (checked once per process). */
  async enabled(): Promise<boolean> {
    return (await this.supported()).vectors;
  }

  /** Active jobs passing the filters (and `within`) nearest to the vector, at least `minScore` cosine. */
  async jobs(
    v: Float32Array,
    filters: JobFilters,
    within: Within,
    n: number,
    minScore: number,
  ): Promise<string[]> {
    const where = jobWhere(filters, within, 4);
    const distance = distanceSql(v.length);
    return this.nearest(
      `SELECT e.job_id AS id, ${distance} AS d FROM job_embeddings e JOIN jobs j ON j.id = e.job_id
        WHERE e.model = $1 AND e.dims = ${v.length} AND ${where.sql}
        ORDER BY ${distance} LIMIT $3`,
      [this.model(), literal(v), n, ...where.params],
      minScore,
    );
  }

  /** Companies passing the filters nearest to the vector, at least `minScore` cosine. */
  async companies(v: Float32Array, filters: CompanyFilters, n: number, minScore: number): Promise<string[]> {
    const where = companyFilterSql(filters, 4);
    const distance = distanceSql(v.length);
    return this.nearest(
      `SELECT e.company_id AS id, ${distance} AS d FROM company_embeddings e JOIN companies c ON c.id = e.company_id
        WHERE e.model = $1 AND e.dims = ${v.length} AND ${where.sql}
        ORDER BY ${distance} LIMIT $3`,
      [this.model(), literal(v), n, ...where.params],
      minScore,
    );
  }

  /** Runs a nearest-rows statement ($3: how many) with the scan settings its length needs. */
  private async nearest(sql: string, params: unknown[], minScore: number): Promise<string[]> {
    const { iterative } = await this.supported();
    const rows = await this.db.transaction(async (tx) => {
      await tx.query(`SELECT set_config('hnsw.ef_search', $1, true)`, [
        String(Math.max(40, params[2] as number)),
      ]);
      if (iterative) await tx.query(`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
      return tx.query<{ id: string; d: number }>(
        `WITH nn AS MATERIALIZED (${sql}) SELECT id, d FROM nn ORDER BY d, id`,
        params,
      );
    });
    return rows.filter((r) => 1 - r.d >= minScore).map((r) => r.id);
  }

  private supported(): Promise<Support> {
    this.support ??= ensureVectorColumns(this.schemaDb)
      .then(() =>
        this.db.query<Support>(
          `SELECT EXISTS (SELECT 1 FROM information_schema.columns
                         WHERE table_name = 'job_embeddings' AND column_name = 'vec') AS vectors,
                coalesce((SELECT string_to_array(extversion, '.')::int[] >= '{0,8}'
                            FROM pg_extension WHERE extname = 'vector'), false) AS iterative`,
        ),
      )
      .then((r) => r[0] ?? { vectors: false, iterative: false });
    return this.support;
  }
}

interface Support {
  /** The embeddings have their vector column (pgvector installed). */
  vectors: boolean;
  /** pgvector 0.8 or later: HNSW scans can go on past rows the filters reject. */
  iterative: boolean;
}

/** Cosine distance to $2, over the indexed expression for 100 dimensions. */
function distanceSql(dims: number): string {
  if (!Number.isInteger(dims) || dims <= 0) throw new RangeError(`invalid vector dimensions ${dims}`);
  return dims === 100 ? '(e.vec::vector(100) <=> $2::vector(100))::float8' : '(e.vec <=> $2::vector)::float8';
}

/** pgvector's text form of a vector. */
function literal(v: Float32Array): string {
  return `[${Array.from(v).join(',')}]`;
}
