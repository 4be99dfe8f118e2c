import type { Queryable } from '../db/port.js';
import { badRequest } from '../errors.js';
import { COMPANY_FILTERS, type CompanyFilters } from './fields/company-filters.js';
import type { CompanyFacetDecl, FacetDecl, JobFacetDecl, SqlTarget } from './fields/define.js';
import { JOB_FILTERS, type JobFilters } from './fields/job-filters.js';
import { companyFilterSql, jobFilterSql, type SqlFragment } from './filters.js';

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
  /** The WHERE fragment of these filters, its placeholders numbered from `first`. */
  where(filters: F, first: number): SqlFragment;
  /** Count only these rows (a search shortlist). */
  within?: readonly string[];
}

/** One facet's counts: the filtered rows, this facet's own restriction lifted, grouped by the declared value. */
async function countFacet<F extends object>(db: Queryable, d: Declared, filters: F, scope: Scope<F>) {
  const where = scope.where(lifted(d, filters), 1);
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

/**
 * The counts of several facets in one statement, one pass over the rows: each row carries one boolean per facet
 * (whether the filters with that facet's restriction lifted admit it) and its key per facet; GROUPING SETS groups
 * the rows once per facet and each group counts the rows its facet's boolean admits; a window keeps the top
 * FACET_TOP of each facet. Facets declaring a `join` (which multiplies rows) are counted one query each.
 */
async function countTogether<F extends object>(
  db: Queryable,
  list: readonly Declared[],
  filters: F,
  scope: Scope<F>,
): Promise<FacetCounts> {
  const params: unknown[] = [];
  const to: SqlTarget = {
    alias: scope.alias,
    param(value) {
      params.push(value);
      return `$${params.length}`;
    },
  };
  const columns: string[] = [];
  const admits: string[] = [];
  for (const [i, d] of list.entries()) {
    const where = scope.where(lifted(d, filters), params.length + 1);
    params.push(...where.params);
    admits.push(`(${where.sql})`);
    columns.push(`${d.facet.value(to)} AS k${i}, ${admits[i]} AS r${i}`);
  }
  const within = scope.within ? ` AND ${scope.alias}.id = ANY(${to.param(scope.within)}::uuid[])` : '';
  const each = (f: (i: number, k: string) => string) =>
    `CASE ${list.map((_d, i) => `WHEN GROUPING(x.k${i}) = 0 THEN ${f(i, `x.k${i}`)}`).join(' ')} END`;
  const rows = await db.query<{ s: number; value: string; count: number }>(
    `SELECT s, value, count FROM (
       SELECT s, value, count, row_number() OVER (PARTITION BY s ORDER BY count DESC, value COLLATE "C") AS rank
       FROM (
         SELECT ${each((i) => String(i))} AS s,
           ${each((i, k) => `(${list[i]!.facet.label?.(k) ?? k})::text`)} AS value,
           ${each((i) => `count(*) FILTER (WHERE x.r${i})`)}::int AS count
         FROM (SELECT ${columns.join(', ')} FROM ${scope.table} ${scope.alias}
               WHERE (${admits.join(' OR ')})${within}) x
         GROUP BY GROUPING SETS (${list.map((_d, i) => `(x.k${i})`).join(', ')})
         HAVING ${each((_i, k) => `${k} IS NOT NULL`)}) g
       WHERE count > 0) r
     WHERE rank <= ${FACET_TOP} ORDER BY s, rank`,
    params,
  );
  const out: FacetCounts = {};
  for (const d of list) out[d.facet.name] = [];
  for (const r of rows) out[list[r.s]!.facet.name]!.push({ value: r.value, count: r.count });
  return out;
}

async function countFacets<F extends object>(
  db: Queryable,
  list: readonly Declared[],
  names: readonly string[],
  filters: F,
  scope: Scope<F>,
): Promise<FacetCounts> {
  const asked = list.filter((d) => names.includes(d.facet.name));
  const together = asked.filter((d) => d.facet.join === undefined);
  const out: FacetCounts = together.length > 0 ? await countTogether(db, together, filters, scope) : {};
  // One query at a time: the embedded database serves one connection.
  for (const d of asked) if (d.facet.join) out[d.facet.name] = await countFacet(db, d, filters, scope);
  // In declaration order, as the replica reports them.
  return Object.fromEntries(asked.map((d) => [d.facet.name, out[d.facet.name]!]));
}

/** Facet counts of active jobs (of `within` only, when given: a search shortlist). */
export function jobFacets(
  db: Queryable,
  filters: JobFilters,
  names: readonly string[],
  within?: readonly string[],
): Promise<FacetCounts> {
  const where = (f: JobFilters, first: number) => jobFilterSql(f, first, 'j');
  return countFacets(db, JOB_FACETS, names, filters, { table: 'jobs', alias: 'j', where, within });
}

/** Facet counts of active companies (of `within` only, when given: a search shortlist). */
export function companyFacets(
  db: Queryable,
  filters: CompanyFilters,
  names: readonly string[],
  within?: readonly string[],
): Promise<FacetCounts> {
  const where = (f: CompanyFilters, first: number) => companyFilterSql(f, first, 'c');
  return countFacets(db, COMPANY_FACETS, names, filters, { table: 'companies', alias: 'c', where, within });
}
