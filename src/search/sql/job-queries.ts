import { jobFilterSql } from '../../catalog/filters.js';
import type { JobFilters } from '../../catalog/types.js';
import type { Queryable } from '../../db/port.js';
import { JOB_MATCH_WINDOW } from '../keyword.js';
import type { AllWordsQuery } from '../keyword-index/lexemes.js';
import type { NameMatch } from '../query/trigram.js';

/**
 * The job lists of search ranked in the database, each with every filter of the request in its WHERE. Query
 * lexemes come from the same analysis as the in-memory index (keyword-index/lexemes.ts) and are matched as they
 * are (`to_tsquery('simple', …)`) against jobs.search_tsv (title A, company name B); ranks are ts_rank with the
 * default weights, like the in-memory ranks. A common word would make PostgreSQL rank every job holding it, so
 * the JOB_MATCH_WINDOW newest matches are ranked, found through the GIN index.
 */

/** Where a list looks beyond the request's filters: some role categories, some locations (lower case). */
export interface Within {
  roles?: readonly string[];
  locations?: readonly string[];
  companyId?: string;
}

/** The tsquery text of an all-words query: every lexeme, and the last word as a prefix; null: nothing to match. */
export function allWordsTsQuery(q: AllWordsQuery): string | null {
  const terms = [...new Set(q.exact)].map((l) => `'${l}'`);
  if (q.prefix !== null && !q.exact.includes(q.prefix)) terms.push(`'${q.prefix}':*`);
  return terms.length > 0 ? terms.join(' & ') : null;
}

/** The tsquery text matching any of the lexemes. */
export function anyWordTsQuery(lexemes: readonly string[]): string | null {
  return lexemes.length > 0 ? lexemes.map((l) => `'${l}'`).join(' | ') : null;
}

/** The filters and `within` as one WHERE fragment over jobs `j`, its parameters numbered from `first`. */
export function jobWhere(
  filters: JobFilters,
  within: Within,
  first: number,
): { sql: string; params: unknown[] } {
  const where = jobFilterSql(filters, first);
  const parts = [where.sql];
  const params = [...where.params];
  /** Adds a parameter, returning its placeholder. */
  const param = (v: unknown) => `$${first + params.push(v) - 1}`;
  if (within.roles) {
    parts.push(`j.role_category = ANY(${param(within.roles)}::text[])`);
  }
  if (within.locations) {
    parts.push(`lower(j.location) = ANY(${param(within.locations)}::text[])`);
  }
  if (within.companyId !== undefined) {
    parts.push(`j.company_id = ${param(within.companyId)}::uuid`);
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * How a list finds its window of newest matches: `walk`, the matches are known to be many (SqlVocabulary.dense),
 * so the newest jobs are walked and tested until the window is full, whatever PostgreSQL estimates; `sort`, they
 * are known to be few (SqlVocabulary.sparse), so every match is fetched through the full-text index and sorted;
 * `plan`, PostgreSQL chooses. Each way the window holds the newest matches: the same jobs.
 */
export type ListPlan = 'walk' | 'sort' | 'plan';

/** Jobs matching the tsquery text, best ts_rank first, then newest. */
export async function rankedJobs(
  db: Queryable,
  tsquery: string | null,
  filters: JobFilters,
  within: Within,
  n: number,
  how: ListPlan = 'plan',
): Promise<string[]> {
  // No place left to look in (a place list whose places the location filter all excludes): nothing matches.
  if (tsquery === null || within.locations?.length === 0) return [];
  const where = jobWhere(filters, within, 4);
  // The tsquery is written where it is compared, not read from a CTE: the planner then estimates its matches
  // from the column's statistics, and walks the newest jobs for a common word instead of fetching all its matches.
  // Words that come together (a title's "customer success") are estimated as if independent, far too few, and the
  // full-text index then fetches every match's row; ts_match_vq, the function behind @@, is the same test that
  // no index answers, estimated at a third of the rows, so the planner walks an index in posting order instead.
  const match =
    how === 'walk'
      ? `ts_match_vq(j.search_tsv, to_tsquery('simple', $1::text))`
      : `j.search_tsv @@ to_tsquery('simple', $1::text)`;
  // Sorted by an expression no index holds in order, PostgreSQL cannot walk one: for words it thinks common that
  // are rare ('privaci' | 'counsel', 733 matches estimated at 4,194 of 100,000 jobs), its walk tested every job.
  const newest = how === 'sort' ? `j.posted_at + interval '0 s'` : 'j.posted_at';
  const rows = await db.query<{ id: string }>(
    `WITH m AS (SELECT j.id, j.posted_at, j.search_tsv FROM jobs j
            WHERE ${match} AND ${where.sql}
            ORDER BY ${newest} DESC, j.id DESC LIMIT $3)
     SELECT m.id FROM m
      ORDER BY ts_rank(m.search_tsv, to_tsquery('simple', $1::text)) DESC, m.posted_at DESC, m.id DESC LIMIT $2`,
    [tsquery, n, JOB_MATCH_WINDOW, ...where.params],
  );
  return rows.map((r) => r.id);
}

/** Jobs of the companies matched by name, best match first, then newest. */
export async function jobsOfCompanies(
  db: Queryable,
  named: readonly NameMatch[],
  filters: JobFilters,
  n: number,
): Promise<string[]> {
  if (named.length === 0) return [];
  const where = jobWhere(filters, {}, 4);
  const rows = await db.query<{ id: string }>(
    `SELECT j.id FROM jobs j JOIN unnest($1::uuid[], $2::float8[]) AS m(id, s) ON j.company_id = m.id
      WHERE ${where.sql} ORDER BY m.s DESC, j.posted_at DESC, j.id DESC LIMIT $3`,
    [named.map((m) => m.id), named.map((m) => m.similarity), n, ...where.params],
  );
  return rows.map((r) => r.id);
}

/** What the boosts read of a fused job. */
export interface JobFacts {
  title: string;
  role: string;
  companyId: string;
  location: string;
  remote: boolean;
}

/** The facts of the jobs, by id (ids not found are left out). */
export async function jobFacts(db: Queryable, ids: readonly string[]): Promise<Map<string, JobFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<JobFacts & { id: string }>(
    `SELECT id, title, role_category AS role, company_id AS "companyId", lower(location) AS location, remote
       FROM jobs WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}

/** Active jobs of a company, and the company's name when it is active: what a company + role query reads. */
export async function companyJobCounts(
  db: Queryable,
  ids: readonly string[],
): Promise<Map<string, { name: string; jobs: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; name: string; jobs: number }>(
    `SELECT c.id, c.name, (SELECT count(*)::int FROM jobs j WHERE j.company_id = c.id AND j.active) AS jobs
       FROM companies c WHERE c.id = ANY($1::uuid[]) AND c.active`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, { name: r.name, jobs: r.jobs }]));
}
