import { companyFilterSql } from '../../catalog/filters.js';
import type { CompanyFilters, JobFilters } from '../../catalog/types.js';
import type { Queryable } from '../../db/port.js';
import { jobWhere, type Within } from './job-queries.js';

/**
 * Nearest neighbours in the database, with pgvector: the embeddings' `vec` column and its HNSW indexes exist
 * only where migration 0163 found the extension. Without it search ranked in the database has no semantic list
 * (keyword lists only; docs/deployment.md says what that costs). The bundled embedder's 100 dimensions are
 * served by the HNSW index (the query names the indexed expression and its partial predicate literally);
 * embeddings of other dimensions are compared exactly.
 */
export class NearestRows {
  private available: Promise<boolean> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly model: () => string,
  ) {}

  /** Whether the database can answer nearest-neighbour queries (checked once per process). */
  enabled(): Promise<boolean> {
    this.available ??= this.db
      .query<{ ok: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM information_schema.columns
                         WHERE table_name = 'job_embeddings' AND column_name = 'vec') AS ok`,
      )
      .then((r) => r[0]?.ok === true);
    return this.available;
  }

  /** Active jobs passing the filters (and `within`) nearest to the vector, at least `minScore` cosine. */
  async jobs(
    v: Float32Array,
    filters: JobFilters,
    within: Within,
    n: number,
    minScore: number,
  ): Promise<string[]> {
    const from = 'job_embeddings e JOIN jobs j ON j.id = e.job_id';
    return this.nearest(from, 'e.job_id', jobWhere(filters, within, 4), v, n, minScore);
  }

  /** Companies passing the filters nearest to the vector, at least `minScore` cosine. */
  async companies(v: Float32Array, filters: CompanyFilters, n: number, minScore: number): Promise<string[]> {
    const from = 'company_embeddings e JOIN companies c ON c.id = e.company_id';
    return this.nearest(from, 'e.company_id', companyFilterSql(filters, 4), v, n, minScore);
  }

  /** The ids (`id` over `from`, embeddings `e`) passing `where` ($4 on), nearest to `v` first. */
  private async nearest(
    from: string,
    id: string,
    where: { sql: string; params: unknown[] },
    v: Float32Array,
    n: number,
    minScore: number,
  ): Promise<string[]> {
    const distance = distanceSql(v.length);
    const rows = await this.db.query<{ id: string; d: number }>(
      `SELECT ${id} AS id, ${distance} AS d FROM ${from}
        WHERE e.model = $1 AND e.dims = ${v.length} AND ${where.sql}
        ORDER BY ${distance} LIMIT $3`,
      [this.model(), literal(v), n, ...where.params],
    );
    return rows.filter((r) => 1 - r.d >= minScore).map((r) => r.id);
  }
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
