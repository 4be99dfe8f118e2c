import { createHash } from 'node:crypto';
import type { SalaryRange } from '../../sources/normalize/salary.js';
import { micros } from '../micros.js';
import { TSV_FIELD, TSV_NULL, untsv } from './tsv.js';

/**
 * What the in-memory replica keeps of each active job: the fields its list items show, its order reads and its
 * filters test. Declared once here; the replica's database reads (change feed and bulk load), its equality test,
 * its snapshot columns and the snapshot format's fingerprint are derived from this list. A field added here is
 * read, compared, saved and restored everywhere, and an older snapshot is refused.
 */

/**
 * The top of a job's stated pay range as a yearly amount, in the range's currency: per hour × 2,080, per day × 260,
 * per week × 52, per month × 12 (full-time conventions). NULL when the job states no range.
 */
export const ANNUAL_PAY_SQL =
  "(j.salary_max * CASE j.salary_period WHEN 'hour' THEN 2080 WHEN 'day' THEN 260 WHEN 'week' THEN 52 " +
  "WHEN 'month' THEN 12 ELSE 1 END)::float8";

/**
 * A job's stated pay range as one text, "min max period source" (the amounts as the database writes its numeric,
 * e.g. "200000.00"), NULL when the job states none; its currency is the record's payCurrency. The columns are all
 * set or all NULL (jobs_salary_range_check, migration 0030). payRangeOf reads it back.
 */
const PAY_RANGE_SQL =
  "CASE WHEN j.salary_min IS NULL THEN NULL ELSE concat_ws(' ', j.salary_min::text, j.salary_max::text, " +
  'j.salary_period, j.salary_source) END';

type FieldType = 'text' | 'nullable-text' | 'bool' | 'number';

interface RecordField {
  readonly name: string;
  /** Its value over `jobs j`. */
  readonly sql: string;
  readonly type: FieldType;
  /** Many jobs share few values (ids, categories, places): each distinct value is kept once in memory. */
  readonly shared?: boolean;
}

export const JOB_RECORD = [
  { name: 'companyId', sql: 'j.company_id', type: 'text', shared: true },
  { name: 'role', sql: 'j.role_category', type: 'text', shared: true },
  /** The location as written (list items show it). */
  { name: 'place', sql: 'j.location', type: 'text', shared: true },
  { name: 'remote', sql: 'j.remote', type: 'bool' },
  { name: 'title', sql: 'j.title', type: 'text' },
  { name: 'url', sql: 'j.url', type: 'text' },
  /** posted_at in microseconds since the epoch: the /jobs order needs the database's full precision. */
  { name: 'postedAtUs', sql: micros('j.posted_at'), type: 'number' },
  /** Department or team as the posting names it (the department filter compares it case-insensitively). */
  { name: 'department', sql: 'j.department', type: 'nullable-text', shared: true },
  /**
   * lower(department) as the database computes it: the department filter and facet compare it, and the database's
   * case mapping differs from JavaScript's on a few letters ('İ').
   */
  { name: 'departmentKey', sql: 'lower(j.department)', type: 'nullable-text', shared: true },
  /** The top of the stated pay range per year, in its currency (ANNUAL_PAY_SQL); -1 when the job states none. */
  { name: 'payYearMax', sql: `coalesce(${ANNUAL_PAY_SQL}, -1)`, type: 'number' },
  { name: 'payCurrency', sql: 'j.salary_currency', type: 'nullable-text', shared: true },
  /** The stated pay range (PAY_RANGE_SQL), which a listing page shows; null when the job states none. */
  { name: 'payRange', sql: PAY_RANGE_SQL, type: 'nullable-text' },
  /** first_seen_at in microseconds since the epoch (a listing page marks recently seen jobs new). */
  { name: 'firstSeenAtUs', sql: micros('j.first_seen_at'), type: 'number' },
  /** remote, hybrid, onsite or unknown (the remote flag is workplace = 'remote'). */
  { name: 'workplace', sql: 'j.workplace', type: 'text', shared: true },
  /** The job's places (migration 0170) as comma-joined sorted codes; '' for none or not yet derived. */
  { name: 'countries', sql: "coalesce(array_to_string(j.countries, ','), '')", type: 'text', shared: true },
  { name: 'regions', sql: "coalesce(array_to_string(j.regions, ','), '')", type: 'text', shared: true },
  {
    name: 'remoteScopes',
    sql: "coalesce(array_to_string(j.remote_scopes, ','), '')",
    type: 'text',
    shared: true,
  },
] as const satisfies readonly RecordField[];

type ValueOf<T extends FieldType> = T extends 'text'
  ? string
  : T extends 'nullable-text'
    ? string | null
    : T extends 'bool'
      ? boolean
      : number;

/** A job as the replica's record declares it. */
export type JobRecord = {
  -readonly [F in (typeof JOB_RECORD)[number] as F['name']]: ValueOf<F['type']>;
};

/** A job's attributes in the replica: its record plus what is derived from it. */
export type JobAttrs = JobRecord & {
  /** lower(place), for the case-insensitive location filter. */
  location: string;
};

/**
 * The coded columns of the replica: what the job filters narrow by, kept per row in a typed array. A `set` or an
 * `equal` column holds the code of the row's `key` (keys are coded on first sight; code 0 is the null key); a
 * filter admits a set of codes or one code. A `range` column holds the row's `value`; a filter admits [lo, hi). The
 * listing order, search and facets allocate their columns from this list and test them with one function
 * (replica/job-columns.ts admitsAt); a filter restricts them by name through MaskBuilder (define.ts).
 */
export const JOB_CODED = [
  { name: 'role', test: 'set', key: (a) => a.role },
  { name: 'company', test: 'equal', key: (a) => a.companyId },
  { name: 'place', test: 'set', key: (a) => a.location },
  { name: 'remote', test: 'equal', key: (a) => (a.remote ? 'remote' : null) },
  { name: 'department', test: 'set', key: (a) => a.departmentKey },
  { name: 'currency', test: 'equal', key: (a) => a.payCurrency },
  { name: 'posted', test: 'range', value: (a) => a.postedAtUs },
  { name: 'pay', test: 'range', value: (a) => a.payYearMax },
  { name: 'workplace', test: 'set', key: (a) => a.workplace },
  // Several codes per job: a filter tests each distinct combination once (MaskBuilder.where).
  { name: 'countries', test: 'set', key: (a) => a.countries || null },
  { name: 'regions', test: 'set', key: (a) => a.regions || null },
  { name: 'remoteScopes', test: 'set', key: (a) => a.remoteScopes || null },
] as const satisfies readonly CodedColumn[];

type CodedColumn =
  | { readonly name: string; readonly test: 'set' | 'equal'; key(a: JobAttrs): string | null }
  | { readonly name: string; readonly test: 'range'; value(a: JobAttrs): number };

type Coded = (typeof JOB_CODED)[number];
/** The names of the coded columns by their test. */
export type SetColumn = Extract<Coded, { test: 'set' }>['name'];
export type EqualColumn = Extract<Coded, { test: 'equal' }>['name'];
export type RangeColumn = Extract<Coded, { test: 'range' }>['name'];
export type CodedName = Coded['name'];
/** The list with its entries' types widened, for code that walks it. */
export const CODED: readonly CodedColumn[] = JOB_CODED;

const FIELDS: readonly RecordField[] = JOB_RECORD;

/** The record's columns for a SELECT over `jobs j`, named as the record's fields. */
export const JOB_RECORD_COLUMNS = FIELDS.map((f) => `${f.sql} AS "${f.name}"`).join(', ');

/** The record's fields of a subquery `x` (selected with JOB_RECORD_COLUMNS) as tab-separated text fields. */
export const JOB_RECORD_TSV = FIELDS.map((f) => tsvOf(f.type, `x."${f.name}"`)).join(', ');

function tsvOf(type: FieldType, col: string): string {
  switch (type) {
    case 'text':
      return TSV_FIELD(`${col}::text`);
    case 'nullable-text':
      return `coalesce(${TSV_FIELD(`${col}::text`)}, '${TSV_NULL}')`;
    case 'bool':
      return `CASE WHEN ${col} THEN '1' ELSE '0' END`;
    case 'number':
      return `${col}::text`;
  }
}

/**
 * The job's stated pay as the catalog's SQL reads it (jobCardsByIds in sql/jobs.ts: the numeric's text through
 * Number), from the record's payRange and payCurrency; null when it states none.
 */
export function payRangeOf(r: Pick<JobRecord, 'payRange' | 'payCurrency'>): SalaryRange | null {
  if (r.payRange === null || r.payCurrency === null) return null;
  const [min, max, period, source] = r.payRange.split(' ');
  return {
    min: Number(min),
    max: Number(max),
    currency: r.payCurrency,
    period: period as SalaryRange['period'],
    source: source as SalaryRange['source'],
  };
}

/** Keeps one copy of each distinct string. */
export type Intern = (value: string) => string;

function decode(f: RecordField, field: string, intern: Intern): unknown {
  switch (f.type) {
    case 'bool':
      return field === '1';
    case 'number':
      return Number(field);
    case 'nullable-text':
      if (field === TSV_NULL) return null;
      return f.shared ? intern(untsv(field)) : untsv(field);
    case 'text':
      return f.shared ? intern(untsv(field)) : untsv(field);
  }
}

/** The record in tab-separated fields from `at` on (see JOB_RECORD_TSV). */
export function recordFromTsv(fields: readonly string[], at: number, intern: Intern): JobRecord {
  const out: Record<string, unknown> = {};
  FIELDS.forEach((f, i) => {
    out[f.name] = decode(f, fields[at + i] ?? '', intern);
  });
  return out as JobRecord;
}

/** A record as the database driver returned it (numbers and booleans already typed), its shared strings interned. */
export function recordFromRow(row: Readonly<Record<string, unknown>>, intern: Intern): JobRecord {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const v = row[f.name];
    out[f.name] = f.shared && typeof v === 'string' ? intern(v) : f.type === 'number' ? Number(v) : v;
  }
  return out as JobRecord;
}

/**
 * A job's replica attributes: its record's fields copied one by one, then `location`. Built this way, every job's
 * object shares one hidden class; an object spread (`{ ...record, location }`) would give each job its own, and
 * V8's maps and descriptor arrays would grow with the catalog.
 */
export function attrsOf(record: JobRecord, location: string): JobAttrs {
  const from = record as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f.name] = from[f.name];
  out.location = location;
  return out as JobAttrs;
}

/** Whether two records hold the same values in every declared field. */
export function sameRecord(a: JobRecord, b: JobRecord): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return FIELDS.every((f) => x[f.name] === y[f.name]);
}

/** Records as columns (one array per field): the snapshot's chunk layout. */
export function recordColumns(records: readonly JobRecord[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const f of FIELDS) out[f.name] = records.map((r) => (r as Record<string, unknown>)[f.name]);
  return out;
}

/** The i-th record of such columns; throws when a column is missing or short (a foreign or damaged file). */
export function recordAt(columns: Readonly<Record<string, unknown[]>>, i: number): JobRecord {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const column = columns[f.name];
    if (!column || i >= column.length) throw new Error(`snapshot chunk lacks field ${f.name}`);
    out[f.name] = column[i];
  }
  return out as JobRecord;
}

/**
 * A digest of the record's declaration (names, types, SQL) and of the company record's keys: the snapshot
 * header carries it, and a snapshot written under another declaration is refused and rebuilt from the database.
 */
export function recordFingerprint(companyKeys: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify({ jobs: FIELDS, companies: companyKeys }))
    .digest('hex')
    .slice(0, 16);
}
