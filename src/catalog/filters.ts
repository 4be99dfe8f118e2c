import type { TSchema } from 'typebox';
import { COMPANY_FILTERS, type CompanyFilters } from './fields/company-filters.js';
import type { MaskBuilder, Query, ReplicaFilter, SqlTarget } from './fields/define.js';
import { JOB_FILTERS, type JobFilters } from './fields/job-filters.js';
import type { JobAttrs } from './fields/job-record.js';

/**
 * What the filter declarations (fields/job-filters.ts, fields/company-filters.ts) derive to: query parsing, the
 * SQL WHERE clauses, count-table conditions and memo keys. The list queries, keyword search and any other
 * candidate retrieval (hybrid search) append these fragments, so a filter means the same thing everywhere and is
 * applied inside retrieval, never after it.
 */
export interface SqlFragment {
  /** A boolean SQL expression (never empty: at least the active-row condition). */
  sql: string;
  /** Values for the placeholders, numbered from the firstParamIndex given. */
  params: unknown[];
}

export { escapeLike } from './fields/params.js';

class Builder implements SqlTarget {
  readonly conditions: string[] = [];
  readonly params: unknown[] = [];
  constructor(
    private readonly first: number,
    readonly alias: string,
  ) {}

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.first + this.params.length - 1}`;
  }

  done(): SqlFragment {
    return { sql: this.conditions.join(' AND '), params: this.params };
  }
}

/** A declaration with its value type erased, for code that walks the list. */
interface Declared<V = unknown> {
  readonly key: string;
  readonly params: Readonly<Record<string, TSchema>>;
  parse(q: Query, nowMs: number): V | undefined;
  sql(value: V, to: SqlTarget): string;
}

/** Each declaration whose filter is set, with its value. */
export function* activeFilters<D extends Declared>(
  list: readonly D[],
  filters: object,
): Generator<[D, unknown]> {
  const values = filters as Record<string, unknown>;
  for (const d of list) {
    const v = values[d.key];
    if (v !== undefined) yield [d, v];
  }
}

const JOBS = JOB_FILTERS as unknown as readonly (Declared & (typeof JOB_FILTERS)[number])[];
const COMPANIES = COMPANY_FILTERS as unknown as readonly (Declared & (typeof COMPANY_FILTERS)[number])[];

function parseWith<F>(list: readonly Declared[], q: Query, nowMs: number): F {
  const out: Record<string, unknown> = {};
  for (const d of list) {
    const v = d.parse(q, nowMs);
    if (v !== undefined) out[d.key] = v;
  }
  return out as F;
}

/** Every query parameter the declarations read, with its schema (the query schema of the list route). */
function paramsOf(list: readonly Declared[]): Record<string, TSchema> {
  return Object.assign({}, ...list.map((d) => d.params));
}

export const jobFilterParams = () => paramsOf(JOBS);
export const companyFilterParams = () => paramsOf(COMPANIES);
/** The parameters of the filters that narrow the listing (delta sync, which changes what is listed, left out). */
export const jobNarrowingParams = () => paramsOf(JOBS.filter((d) => d.delta !== true));

/**
 * A validated GET /jobs query -> its filters, at `nowMs` (the injected clock: max_age_days counts back from its
 * day). Bad values throw badRequest naming the parameter.
 */
export const parseJobFilters = (q: Query, nowMs: number): JobFilters => parseWith<JobFilters>(JOBS, q, nowMs);
export const parseCompanyFilters = (q: Query): CompanyFilters => parseWith<CompanyFilters>(COMPANIES, q, 0);

/** Whether a declared filter that changes what is listed (closed jobs, change order) is set. */
export function isDelta(filters: JobFilters): boolean {
  // Stryker disable next-line LogicalOperator: equivalent, only a delta declaration has a 'delta' key
  for (const [d] of activeFilters(JOBS, filters)) if ('delta' in d && d.delta) return true;
  return false;
}

/**
 * WHERE conditions for GET /jobs over `jobs` aliased as `alias` (default `j`): active rows only (unless a delta
 * filter lists closed ones too), plus each given filter.
 */
export function jobFilterSql(filters: JobFilters, firstParamIndex: number, alias = 'j'): SqlFragment {
  const b = new Builder(firstParamIndex, alias);
  if (!isDelta(filters)) b.conditions.push(`${alias}.active`);
  for (const [d, v] of activeFilters(JOBS, filters)) b.conditions.push(d.sql(v as never, b));
  // Stryker disable next-line StringLiteral: equivalent, unreachable: a delta filter adds its own condition
  if (b.conditions.length === 0) b.conditions.push('true');
  return b.done();
}

/**
 * The total of a job listing from the trigger-maintained count tables, or undefined when some filter given
 * declares no count condition, or two name keyed tables (the caller then counts the matching jobs). A filter's
 * `countRest` rows, which its table leaves out, are counted over jobs and added.
 */
export function jobCountSql(filters: JobFilters): SqlFragment | undefined {
  const b = new Builder(1, 'j');
  let table: string | undefined;
  const rest: string[] = [];
  for (const [d, v] of activeFilters(JOBS, filters)) {
    if (!('counts' in d) || d.counts === undefined) return undefined;
    b.conditions.push(d.counts(v as never, b));
    if ('countTable' in d && d.countTable !== undefined) {
      if (table !== undefined) return undefined;
      table = d.countTable;
    }
    if ('countRest' in d && d.countRest) rest.push(...d.countRest(v as never, b));
  }
  const where = b.conditions.length ? ` WHERE ${b.conditions.join(' AND ')}` : '';
  const sum = `(SELECT coalesce(sum(n), 0) FROM ${table ?? 'job_counts'}${where})`;
  if (rest.length === 0) return { sql: `SELECT ${sum}::int AS n`, params: b.params };
  const jobs = jobFilterSql(filters, b.params.length + 1);
  const parts = rest.map((r) => `(SELECT count(*) FROM jobs j WHERE ${jobs.sql} AND ${r})`);
  return { sql: `SELECT (${[sum, ...parts].join(' + ')})::int AS n`, params: [...b.params, ...jobs.params] };
}

/** The replica's memo key of a filter combination: equal for filters that select the same jobs. */
export function jobMemoKey(filters: JobFilters): string {
  const values = filters as Record<string, unknown>;
  return JSON.stringify(
    JOBS.map((d) => {
      const v = values[d.key];
      if (v === undefined) return null;
      // Stryker disable next-line LogicalOperator,StringLiteral: equivalent, the raw value is a key as well, only less shared
      return 'memoKey' in d && d.memoKey ? d.memoKey(v as never) : v;
    }),
  );
}

/**
 * WHERE conditions for GET /companies over `companies` aliased as `alias` (default `c`): active rows only, plus
 * each given filter.
 */
export function companyFilterSql(filters: CompanyFilters, firstParamIndex: number, alias = 'c'): SqlFragment {
  const b = new Builder(firstParamIndex, alias);
  b.conditions.push(`${alias}.active`);
  for (const [d, v] of activeFilters(COMPANIES, filters)) b.conditions.push(d.sql(v as never, b));
  return b.done();
}

/** companyFilterSql as a predicate over the replica's company attributes. */
export function companyPredicate(
  filters: CompanyFilters,
): (a: { active: boolean; category: string; tags: ReadonlySet<string> }) => boolean {
  const tests = [...activeFilters(COMPANIES, filters)].map(([d, v]) => d.test(v as never));
  return (a) => a.active && tests.every((t) => t(a));
}

/** Whether the in-memory replica can apply every filter given (else listings and searches go to SQL). */
export function replicaServes(filters: JobFilters): boolean {
  for (const [d] of activeFilters(JOBS, filters)) if (d.replica === null) return false;
  return true;
}

/**
 * Applies the filters given to the replica: coded-column masks through `masks`, and returns the predicates over
 * row attributes of the rest. Throws for a filter the replica cannot apply (check replicaServes first).
 */
export function replicaFilters(filters: JobFilters, masks: MaskBuilder): ((a: JobAttrs) => boolean)[] {
  const tests: ((a: JobAttrs) => boolean)[] = [];
  for (const [d, v] of activeFilters(JOBS, filters)) {
    const r = d.replica as ReplicaFilter<unknown> | null;
    // Stryker disable next-line StringLiteral: equivalent, unreachable: listings ask replicaServes first
    if (r === null) throw new Error(`the replica cannot apply the ${d.key} filter`);
    if ('mask' in r) r.mask(v, masks);
    else tests.push(r.test(v));
  }
  return tests;
}
