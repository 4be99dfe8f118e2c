import type { Queryable } from '../../db/port.js';
import { badRequest } from '../../errors.js';
import { COMPANY_FILTERS, type CompanyFilters } from '../fields/company-filters.js';
import type { CompanyFacetDecl, FacetDecl, JobFacetDecl, SqlTarget } from '../fields/define.js';
import { JOB_FILTERS, type JobFilters } from '../fields/job-filters.js';
import { companyFilterSql, jobFilterSql, type SqlFragment } from '../filters.js';

/**
 * Facet counts of GET /jobs and GET /companies, derived from the facets the filter declarations carry
 * (fields/job-filters.ts, fields/company-filters.ts). Disjunctive: each facet is counted over the rows every
 * filter given selects except its own restriction, so a count is the total the listing would have with that value
 * chosen in place of the one given. With a search, the counts are over the shortlist (which every filter given
 * narrowed): the facet's own filter is not lifted there.
 */

/** Values kept per facet: the most frequent, ties by value (byte order). */
export const FACET_TOP = 20;

export interface FacetCount {
  value: string;
  count: number;
}

/** Facet name -> its top values, most frequent first. */
export type FacetCounts = Record<string, FacetCount[]>;

/** A facet with the filter it belongs to. */
export interface Declared<D extends FacetDecl<unknown> = FacetDecl<unknown>> {
  readonly key: string;
  readonly facet: D;
}

const declared = <D extends FacetDecl<unknown>>(
  list: readonly { key: string; facets?: readonly object[] }[],
): Declared<D>[] => list.flatMap((d) => (d.facets ?? []).map((facet) => ({ key: d.key, facet: facet as D })));

/** Every facet of GET /jobs and of GET /companies, in declaration order (the SQL and the replica count these). */
export const JOB_FACETS = declared<JobFacetDecl<unknown>>(JOB_FILTERS);
export const COMPANY_FACETS = declared<CompanyFacetDecl<unknown>>(COMPANY_FILTERS);

/** The filters a facet is counted under: every one given, its own restriction lifted (the disjunctive rule). */
export function lifted<F extends object>(d: Declared, filters: F): F {
  const values = filters as Record<string, unknown>;
  const own = values[d.key];
  if (own === undefined) return filters;
  return { ...values, [d.key]: d.facet.without?.(own) } as F;
}

/** The facet names GET /jobs and GET /companies take, in declaration order. */
export const jobFacetNames = (): string[] => JOB_FACETS.map((d) => d.facet.name);
export const companyFacetNames = (): string[] => COMPANY_FACETS.map((d) => d.facet.name);

function parseNames(known: readonly string[], text: string | undefined): string[] | undefined {
  const names = [...new Set((text ?? '').split(',').map((n) => n.trim()))].filter((n) => n !== '');
  for (const n of names) {
    if (!known.includes(n)) {
      throw badRequest(
        `Invalid query parameter 'facets': unknown facet '${n}'; expected a comma-separated list of ${known.join(', ')}`,
      );
    }
  }
  return names.length > 0 ? names : undefined;
}

/** `facets=` of GET /jobs -> the facet names asked for (undefined: none); an unknown name is a 400. */
export const parseJobFacets = (text: string | undefined) => parseNames(jobFacetNames(), text);
export const parseCompanyFacets = (text: string | undefined) => parseNames(companyFacetNames(), text);

/** Placeholders numbered on after a WHERE fragment's. */
function after(where: SqlFragment, alias: string): SqlTarget & { params: unknown[] } {
  const params = [...where.params];
  return {
    alias,
    params,
    param(value: unknown) {
      params.push(value);
      return `$${params.length}`;
    },
  };
}

interface Scope<F> {
  table: string;
  alias: string;
  where(filters: F): SqlFragment;
  /** Count only these rows (a search shortlist). */
  within?: readonly string[];
}

/** One facet's counts: the filtered rows, this facet's own restriction lifted, grouped by the declared value. */
async function countFacet<F extends object>(db: Queryable, d: Declared, filters: F, scope: Scope<F>) {
  const where = scope.where(lifted(d, filters));
  const to = after(where, scope.alias);
  const join = d.facet.join?.(to) ?? '';
  const value = d.facet.value(to);
  const within = scope.within ? ` AND ${scope.alias}.id = ANY(${to.param(scope.within)}::uuid[])` : '';
  const label = d.facet.label?.('g.k') ?? 'g.k';
  return db.query<FacetCount>(
    `SELECT value, count FROM (
       SELECT (${label})::text AS value, g.n AS count FROM (
         SELECT ${value} AS k, count(*)::int AS n FROM ${scope.table} ${scope.alias} ${join}
         WHERE ${where.sql}${within} AND ${value} IS NOT NULL GROUP BY 1) g) f
     ORDER BY count DESC, value COLLATE "C" LIMIT ${FACET_TOP}`,
    to.params,
  );
}

async function countFacets<F extends object>(
  db: Queryable,
  list: readonly Declared[],
  names: readonly string[],
  filters: F,
  scope: Scope<F>,
): Promise<FacetCounts> {
  const out: FacetCounts = {};
  // One query at a time: the embedded database serves one connection.
  for (const d of list)
    if (names.includes(d.facet.name)) out[d.facet.name] = await countFacet(db, d, filters, scope);
  return out;
}

/** Facet counts of active jobs (of `within` only, when given: a search shortlist). */
export function jobFacets(
  db: Queryable,
  filters: JobFilters,
  names: readonly string[],
  within?: readonly string[],
): Promise<FacetCounts> {
  const where = (f: JobFilters) => jobFilterSql(f, 1, 'j');
  return countFacets(db, JOB_FACETS, names, filters, { table: 'jobs', alias: 'j', where, within });
}

/** Facet counts of active companies (of `within` only, when given: a search shortlist). */
export function companyFacets(
  db: Queryable,
  filters: CompanyFilters,
  names: readonly string[],
  within?: readonly string[],
): Promise<FacetCounts> {
  const where = (f: CompanyFilters) => companyFilterSql(f, 1, 'c');
  return countFacets(db, COMPANY_FACETS, names, filters, { table: 'companies', alias: 'c', where, within });
}
