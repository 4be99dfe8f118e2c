import type { TSchema } from 'typebox';
import type { EqualColumn, JobAttrs, RangeColumn, SetColumn } from './job-record.js';

/**
 * The shape of a filter declaration. A filter of GET /jobs or GET /companies is declared once, as one of these
 * descriptors (job-filters.ts, company-filters.ts); the query schemas, the filter types, the SQL WHERE clause,
 * the counts, the replica's masks and predicates and its memo keys are derived from the lists (../filters.ts).
 */

/** A validated query string (TypeBox has coerced booleans and checked enums and lengths). */
export type Query = Readonly<Record<string, unknown>>;

/** Where a declaration's SQL goes: `param` adds a value and returns its placeholder; `alias` names the table. */
export interface SqlTarget {
  param(value: unknown): string;
  readonly alias: string;
}

/**
 * The replica's coded columns (JOB_CODED in job-record.ts) as a filter restricts them. Restrictions of one column
 * intersect: a set with a set, an equality with an equality (two different keys admit nothing), ranges by overlap.
 */
export interface MaskBuilder {
  /** Rows whose key in `column` is one of `keys` (an empty list admits nothing). */
  oneOf(column: SetColumn, keys: readonly string[]): void;
  /** Rows whose key in `column` passes `test` (asked once per distinct key; null keys never pass). */
  where(column: SetColumn, test: (key: string) => boolean): void;
  /** Rows whose key in `column` is `key` (undefined: no row). */
  equals(column: EqualColumn, key: string | undefined): void;
  /** Rows whose value in `column` is in [lo, hi) (infinite for an open end). */
  within(column: RangeColumn, lo: number, hi: number): void;
  /** The id of the company with this slug, undefined when none has it. */
  companyId(slug: string): string | undefined;
}

/** How the in-memory replica applies a filter: a coded-column mask, or a predicate over the row's attributes. */
export type ReplicaFilter<V> =
  | { readonly mask: (value: V, masks: MaskBuilder) => void }
  | { readonly test: (value: V) => (a: JobAttrs) => boolean };

/** Names the replica's facet counting needs to report a group key (as a facet's SQL `label` looks them up). */
export interface FacetNames {
  /** A company's slug by id (undefined: the replica does not know the company; SQL then answers). */
  companySlug(id: string): string | undefined;
}

/**
 * How a facetable filter's counts are computed: the rows the other filters select are grouped by `value` (after
 * `join`, which may give a row several values), each group counted, and the group keys shown through `label`.
 * The counts are disjunctive: they are taken with every filter given except this facet's own restriction
 * (`without`), so each count is what the listing would total with this value chosen instead (see ../sql/facets.ts).
 * The in-memory replica counts the same groups from its own attributes (`key`, `keys`; see replica/listings/facet-counts.ts).
 */
export interface FacetDecl<V> {
  /** The name in `facets=` and in `meta.facets`. */
  readonly name: string;
  /** The SQL value grouped over the filtered rows of `to.alias` (rows where it is NULL are not counted). */
  value(to: SqlTarget): string;
  /** JOIN clauses that bring in `value`'s columns (a row then counts once under each of its values). */
  join?(to: SqlTarget): string;
  /** The reported value of a group key `k` (default: the key itself, as text). */
  label?(k: string): string;
  /** The filter's value without this facet's restriction (default: the filter dropped altogether). */
  without?(value: V): V | undefined;
  /** The replica's `label`: the reported value of a group key (default: the key itself). */
  labelOf?(key: string, names: FacetNames): string | undefined;
}

/** A facet of GET /jobs: in the replica, one group key per job, kept as a coded column over the /jobs order. */
export interface JobFacetDecl<V> extends FacetDecl<V> {
  /** `value` over the replica's attributes of a job, as the database computes it (null: not counted). */
  key(a: JobAttrs): string | null;
}

/** A company's attributes as the replica's company facets read them (tags as "dimension:slug"). */
export interface CompanyFacetRow {
  readonly category: string;
  readonly tags: ReadonlySet<string>;
}

/** A facet of GET /companies: in the replica, the company's group keys (it counts once under each). */
export interface CompanyFacetDecl<V> extends FacetDecl<V> {
  /** `value` (after `join`) over the replica's attributes of a company. */
  keys(a: CompanyFacetRow): readonly string[];
}

export interface JobFilterDecl<K extends string, V> {
  /** The property of JobFilters that holds the parsed value. */
  readonly key: K;
  /** Query parameters this filter reads: each an optional TypeBox schema with description and example. */
  readonly params: Readonly<Record<string, TSchema>>;
  /**
   * The validated query -> the filter's value (undefined: not filtering). Bad input throws badRequest. `nowMs`:
   * the injected clock, for filters relative to the present.
   */
  parse(q: Query, nowMs: number): V | undefined;
  /** A boolean SQL condition over `jobs` aliased `to.alias`. */
  sql(value: V, to: SqlTarget): string;
  /** How the replica applies it; null: the replica cannot, and listings and searches with it go to SQL. */
  readonly replica: ReplicaFilter<V> | null;
  /**
   * A condition over the trigger-maintained count tables, whose rows are (role_category, remote) plus the key of
   * `countTable`. Absent: totals with this filter are counted over jobs.
   */
  counts?(value: V, to: SqlTarget): string;
  /**
   * The count table with this filter's key (job_place_counts, job_department_counts, job_pay_counts,
   * job_day_counts); absent: job_counts, whose columns every count table has. A total can sum one keyed table, so
   * two filters that name one are counted over jobs.
   */
  readonly countTable?: string;
  /**
   * Conditions over `jobs` aliased `to.alias` for the matching rows the count table leaves out (the part of a day
   * a date-time bound cuts), each counted over jobs with every filter given and added to the sum.
   */
  countRest?(value: V, to: SqlTarget): string[];
  /** The value as it enters the replica's memo key (default: the value itself). */
  memoKey?(value: V): unknown;
  /** The name under which a facet of this field would be reported (the query parameter it narrows). */
  readonly facet: string;
  /** The facets counted over this filter's field (GET /jobs?facets=); absent: not facetable. */
  readonly facets?: readonly JobFacetDecl<V>[];
  /**
   * Changes what is listed rather than narrowing it: closed jobs are included (with `active: false`) and the
   * order is by last change. Such a filter cannot be combined with search.
   */
  readonly delta?: boolean;
}

export interface CompanyFilterDecl<K extends string, V> {
  readonly key: K;
  readonly params: Readonly<Record<string, TSchema>>;
  parse(q: Query): V | undefined;
  /** A boolean SQL condition over `companies` aliased `to.alias`. */
  sql(value: V, to: SqlTarget): string;
  /** The same condition over the replica's company attributes. */
  test(value: V): (a: CompanyFacetRow) => boolean;
  readonly facet: string;
  /** The facets counted over this filter's field (GET /companies?facets=); absent: not facetable. */
  readonly facets?: readonly CompanyFacetDecl<V>[];
}

/** Declares a job filter, keeping its key and value types for JobFilters. */
export const jobFilter = <K extends string, V>(d: JobFilterDecl<K, V>): JobFilterDecl<K, V> => d;
export const companyFilter = <K extends string, V>(d: CompanyFilterDecl<K, V>): CompanyFilterDecl<K, V> => d;

/** The filters object a list of declarations describes: each key optional, holding its parsed value. */
export type FiltersOf<L extends readonly { key: string; parse(q: Query, nowMs: number): unknown }[]> = {
  [D in L[number] as D['key']]?: Exclude<ReturnType<D['parse']>, undefined>;
};
