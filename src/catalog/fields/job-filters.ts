import { Type } from 'typebox';
import { badRequest } from '../../errors.js';
import { WORKPLACES } from '../../sources/normalize/workplace.js';
import { CLIENT_FACING_CATEGORIES, type RoleCategory } from '../vocabulary.js';
import { type FiltersOf, jobFilter } from './define.js';
import { DAY_US, type Instant, instantParam, midnight, wholeDays } from './instants.js';
import { ANNUAL_PAY_SQL } from './job-record.js';
import {
  escapeLike,
  listParam,
  optionalText,
  QueryBoolean,
  QueryText,
  RoleCategorySchema,
  slugParam,
} from './params.js';
import { country, region, remoteScope } from './place-filters.js';

/**
 * The filters of GET /jobs, each declared once (see define.ts for what a declaration carries). To add a filter,
 * add a declaration to JOB_FILTERS; if it reads a job field the replica does not keep yet, add that field to
 * JOB_RECORD (job-record.ts).
 */

const CLIENT_FACING: readonly string[] = CLIENT_FACING_CATEGORIES;
const MAX_DEPARTMENTS = 50;

/** role_category and client_facing: one set of categories (client_facing=true intersects role_category). */
const roleCategories = jobFilter({
  key: 'roleCategories',
  facet: 'role_category',
  params: {
    role_category: Type.Optional(RoleCategorySchema),
    client_facing: QueryBoolean(
      'true: only the seven client-facing categories (intersected with role_category when both are given); ' +
        'false or absent: no category restriction',
    ),
  },
  parse(q): RoleCategory[] | undefined {
    let categories = q.role_category ? [q.role_category as RoleCategory] : undefined;
    if (q.client_facing === true) {
      categories = (categories ?? [...CLIENT_FACING_CATEGORIES]).filter((c) => CLIENT_FACING.includes(c));
    }
    return categories;
  },
  // An empty list matches nothing (role_category=engineering with client_facing=true).
  sql: (v, to) =>
    v.length === 1
      ? `${to.alias}.role_category = ${to.param(v[0])}`
      : `${to.alias}.role_category = ANY(${to.param(v)}::text[])`,
  replica: { mask: (v, m) => m.oneOf('role', v) },
  // Counted without role_category and client_facing both (they make one set of categories).
  facets: [{ name: 'role_category', value: (to) => `${to.alias}.role_category`, key: (a) => a.role }],
  counts: (v, to) => `role_category = ANY(${to.param(v)}::text[])`,
  // Stryker disable next-line MethodExpression: equivalent, an unsorted key only keeps two memo entries of the same jobs
  memoKey: (v) => [...v].sort(),
});

const companySlug = jobFilter({
  key: 'companySlug',
  facet: 'company',
  params: { company: QueryText('Company slug (case-insensitive)', 'anthropic') },
  parse: (q) => slugParam('company', q.company),
  sql: (v, to) => `${to.alias}.company_id = (SELECT fc.id FROM companies fc WHERE fc.slug = ${to.param(v)})`,
  replica: { mask: (v, m) => m.equals('company', m.companyId(v)) },
  // Grouped by company id (jobs_company_idx), each group then named by its slug.
  facets: [
    {
      name: 'company',
      value: (to) => `${to.alias}.company_id`,
      label: (k) => `(SELECT lc.slug FROM companies lc WHERE lc.id = ${k})`,
      key: (a) => a.companyId,
      labelOf: (k, names) => names.companySlug(k),
    },
  ],
  // No count table by company: the total is counted over the company's rows through jobs_company_idx.
});

/** Whether a lower-case location passes location=v: it holds v, case-insensitively (the SQL's LIKE %v%). */
export const locationHolds = (v: string, place: string): boolean => place.includes(v.toLowerCase());

/** lower(location) LIKE %x%, which the trigram index jobs_location_trgm_idx serves. */
const location = jobFilter({
  key: 'location',
  facet: 'location',
  params: {
    location: QueryText('Case-insensitive partial match on the location; blank = no filter', 'san francisco'),
  },
  parse: (q) => optionalText(q.location),
  sql: (v, to) => `lower(${to.alias}.location) LIKE ${to.param(`%${escapeLike(v.toLowerCase())}%`)}`,
  replica: {
    mask: (v, m) => m.where('place', (key) => locationHolds(v, key)),
  },
  // Whole locations as the jobs state them (a value given back as location= matches it and any containing it).
  facets: [
    {
      name: 'location',
      value: (to) => `nullif(${to.alias}.location, '')`,
      key: (a) => (a.place === '' ? null : a.place),
    },
  ],
  counts: (v, to) => `place LIKE ${to.param(`%${escapeLike(v.toLowerCase())}%`)}`,
  countTable: 'job_place_counts',
  memoKey: (v) => v.toLowerCase(),
});

const remoteOnly = jobFilter({
  key: 'remoteOnly',
  facet: 'remote_only',
  params: {
    remote_only: QueryBoolean('true: only remote jobs (never hybrid: see workplace); false or absent: all'),
  },
  parse: (q) => (q.remote_only === true ? true : undefined),
  sql: (_v, to) => `${to.alias}.remote`,
  replica: { mask: (_v, m) => m.equals('remote', 'remote') },
  facets: [{ name: 'remote', value: (to) => `${to.alias}.remote::text`, key: (a) => String(a.remote) }],
  counts: () => 'remote',
});

/** Comma-separated workplaces, any of them: remote, hybrid, on site or not stated. */
const workplace = jobFilter({
  key: 'workplace',
  facet: 'workplace',
  params: {
    workplace: QueryText(
      `Comma-separated workplaces, any of them: ${WORKPLACES.join(', ')} (not stated); blank = no filter`,
      undefined,
      100,
    ),
  },
  parse: (q) =>
    listParam(
      'workplace',
      q.workplace,
      (e) => WORKPLACES.find((w) => w === e.toLowerCase()),
      WORKPLACES.join(', '),
    ),
  sql: (v, to) => `${to.alias}.workplace = ANY(${to.param(v)}::text[])`,
  replica: { mask: (v, m) => m.oneOf('workplace', v) },
  facets: [{ name: 'workplace', value: (to) => `${to.alias}.workplace`, key: (a) => a.workplace }],
  // Stryker disable next-line MethodExpression: equivalent, an unsorted key only keeps two memo entries of the same jobs
  memoKey: (v) => [...v].sort(),
});

/** Comma-separated departments, each matched whole and case-insensitively; blank entries are ignored. */
const department = jobFilter({
  key: 'department',
  facet: 'department',
  params: {
    department: QueryText(
      'Comma-separated departments (see a job detail); case-insensitive exact match of any of them; blank = no filter',
      'Forward Deployed Engineering,Solutions',
      2000,
    ),
  },
  parse(q): string[] | undefined {
    const names = (optionalText(q.department) ?? '')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter((d) => d !== '');
    if (names.length > MAX_DEPARTMENTS) {
      throw badRequest(`Invalid query parameter 'department': at most ${MAX_DEPARTMENTS} departments`);
    }
    return names.length > 0 ? [...new Set(names)] : undefined;
  },
  // One name as an equality, which walks jobs_department_idx in the /jobs order (= ANY cannot, before PG 17).
  sql: (v, to) =>
    v.length === 1
      ? `lower(${to.alias}.department) = ${to.param(v[0])}`
      : `lower(${to.alias}.department) = ANY(${to.param(v)}::text[])`,
  // Lower case, as the filter compares; jobs naming no department are not counted.
  facets: [
    { name: 'department', value: (to) => `lower(${to.alias}.department)`, key: (a) => a.departmentKey },
  ],
  counts: (v, to) => `department = ANY(${to.param(v)}::text[])`,
  countTable: 'job_department_counts',
  replica: { mask: (v, m) => m.oneOf('department', v) },
  // Stryker disable next-line MethodExpression: equivalent, an unsorted key only keeps two memo entries of the same jobs
  memoKey: (v) => [...v].sort(),
});

/** posted_since (inclusive) and posted_before (exclusive): a window on posted_at. */
const posted = jobFilter({
  key: 'posted',
  facet: 'posted_at',
  params: {
    posted_since: QueryText(
      'Only jobs posted at or after this instant: ISO 8601 date (UTC midnight) or date-time',
      '2026-11-01',
      40,
    ),
    posted_before: QueryText(
      'Only jobs posted before this instant: ISO 8601 date (UTC midnight) or date-time, e.g. 2026-11-20T00:00:00Z',
      undefined,
      40,
    ),
  },
  parse(q): { since?: Instant; before?: Instant } | undefined {
    const since = instantParam('posted_since', q.posted_since);
    const before = instantParam('posted_before', q.posted_before);
    if (!since && !before) return undefined;
    return { ...(since && { since }), ...(before && { before }) };
  },
  sql: (v, to) =>
    [
      v.since && `${to.alias}.posted_at >= ${to.param(v.since.sql)}::timestamptz`,
      v.before && `${to.alias}.posted_at < ${to.param(v.before.sql)}::timestamptz`,
    ]
      .filter(Boolean)
      .join(' AND '),
  // Whole UTC days from job_day_counts; the part of a day a date-time bound cuts is counted over jobs.
  counts(v, to) {
    const { first, end } = wholeDays(v);
    // Stryker disable next-line MethodExpression: equivalent, PostgreSQL reads the date of a whole instant as well
    const day = (us: number) => `${to.param(midnight(us).slice(0, 10))}::date`;
    const bounds = [first !== undefined && `day >= ${day(first)}`, end !== undefined && `day < ${day(end)}`];
    return bounds.filter(Boolean).join(' AND ') || 'true';
  },
  countTable: 'job_day_counts',
  countRest(v, to) {
    const { first, end } = wholeDays(v);
    const at = (us: number) => `${to.param(midnight(us))}::timestamptz`;
    return [
      first !== undefined && first !== v.since?.us && `${to.alias}.posted_at < ${at(first)}`,
      end !== undefined && end !== v.before?.us && `${to.alias}.posted_at >= ${at(end)}`,
    ].filter((c): c is string => typeof c === 'string');
  },
  replica: {
    mask: (v, m) =>
      m.within('posted', v.since?.us ?? Number.NEGATIVE_INFINITY, v.before?.us ?? Number.POSITIVE_INFINITY),
  },
  memoKey: (v) => [v.since?.us ?? null, v.before?.us ?? null],
});

/** The most days max_age_days takes (a century: any older posting is listed without it). */
const MAX_AGE_DAYS = 36_500;

/**
 * max_age_days: jobs whose postedAt (the first date of the opening, reposts included) falls on one of the last N
 * UTC days before today, or today: at or after 00:00 UTC N days before the clock's day. Whole days keep the
 * answer the same all day (one memo entry, one count over job_day_counts with no partial day).
 */
const maxAge = jobFilter({
  key: 'maxAge',
  facet: 'max_age_days',
  params: {
    max_age_days: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_AGE_DAYS,
        description:
          'Only jobs first posted at most this many days ago (whole UTC days: 0 is today, 30 is since 00:00 UTC 30 ' +
          'days before today). A repost keeps its first date. E.g. 30',
      }),
    ),
  },
  parse: (q, nowMs) =>
    q.max_age_days === undefined
      ? undefined
      : { sinceUs: (Math.floor(nowMs / 86_400_000) - (q.max_age_days as number)) * DAY_US },
  sql: (v, to) => `${to.alias}.posted_at >= ${to.param(midnight(v.sinceUs))}::timestamptz`,
  counts: (v, to) => `day >= ${to.param(midnight(v.sinceUs).slice(0, 10))}::date`,
  countTable: 'job_day_counts',
  replica: { mask: (v, m) => m.within('posted', v.sinceUs, Number.POSITIVE_INFINITY) },
  memoKey: (v) => v.sinceUs,
});

/**
 * salary_min (with salary_currency, default USD): jobs whose stated pay reaches at least this much a year, in that
 * currency. The top of the range counts, annualised (ANNUAL_PAY_SQL); jobs stating no pay, or pay in another
 * currency, do not match: amounts are never converted between currencies.
 */
const salary = jobFilter({
  key: 'salary',
  facet: 'salary',
  params: {
    salary_min: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100_000_000,
        description:
          'Only jobs whose stated pay range reaches at least this much per year (hourly × 2,080, daily × 260, ' +
          'weekly × 52, monthly × 12), in salary_currency; jobs that state no pay are left out. E.g. 150000',
      }),
    ),
    salary_currency: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{3}$',
        description:
          'ISO 4217 currency of salary_min (default USD); pay in other currencies is not converted. E.g. EUR',
      }),
    ),
  },
  parse(q): { min: number; currency: string } | undefined {
    const currency = optionalText(q.salary_currency)?.toUpperCase();
    if (q.salary_min === undefined) {
      if (currency) throw badRequest(`Invalid query parameter 'salary_currency': only with 'salary_min'`);
      return undefined;
    }
    return { min: q.salary_min as number, currency: currency ?? 'USD' };
  },
  sql: (v, to) =>
    `${to.alias}.salary_currency = ${to.param(v.currency)} AND ` +
    `${ANNUAL_PAY_SQL.replaceAll('j.', `${to.alias}.`)} >= ${to.param(v.min)}`,
  replica: {
    mask: (v, m) => [m.equals('currency', v.currency), m.within('pay', v.min, Number.POSITIVE_INFINITY)],
  },
  counts: (v, to) => `currency = ${to.param(v.currency)} AND pay >= ${to.param(v.min)}`,
  countTable: 'job_pay_counts',
  memoKey: (v) => [v.min, v.currency],
});

/**
 * When a job last changed as a list item shows it, to the millisecond its updatedAt shows: its row's updated_at
 * (the writers set it when a listed field changes or the job closes) or its company's (a rename changes the
 * job's item too), whichever is later.
 */
export const jobChangedAt = (alias: string) =>
  `date_trunc('milliseconds', greatest(${alias}.updated_at, ` +
  `(SELECT uc.updated_at FROM companies uc WHERE uc.id = ${alias}.company_id)))`;

/**
 * updated_since (exclusive) and after_id: delta sync. Lists the jobs changed after the instant, closed ones
 * included, in order of change then id; after_id continues after that job among those changed at the very
 * instant (keyset paging: pass the last item's updatedAt and id). Served by SQL only.
 */
const updatedSince = jobFilter({
  key: 'updatedSince',
  facet: 'updated_since',
  delta: true,
  params: {
    updated_since: QueryText(
      'Delta sync: jobs whose listed fields changed, or that closed, after this instant (ISO 8601, compared to ' +
        'the millisecond), closed ones included with active: false; ordered by updatedAt, then id. Not with ' +
        'search. E.g. 2026-11-20T09:30:00.000Z',
      undefined,
      40,
    ),
    after_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'With updated_since: continue after this job among those changed at exactly updated_since (pass the ' +
          'last item’s updatedAt and id to read the next page)',
      }),
    ),
  },
  parse(q): { since: string; afterId?: string } | undefined {
    const since = instantParam('updated_since', q.updated_since);
    const afterId = optionalText(q.after_id)?.toLowerCase();
    if (!since) {
      if (afterId) throw badRequest(`Invalid query parameter 'after_id': only with 'updated_since'`);
      return undefined;
    }
    if (optionalText(q.search)) {
      throw badRequest(`Invalid query parameter 'updated_since': cannot be combined with 'search'`);
    }
    // Compared at the millisecond precision of updatedAt, so a page's last item is a cursor that loses nothing.
    const ms = new Date(Math.floor(since.us / 1000)).toISOString();
    return afterId ? { since: ms, afterId } : { since: ms };
  },
  sql: (v, to) => {
    const since = `${to.param(v.since)}::timestamptz`;
    // Implied by the exact condition after it, and answered from the updated_at indexes (migration 0110): the
    // exact one reads each job's company, so alone it reads every row of the table.
    const recent =
      `(${to.alias}.updated_at >= ${since} OR ${to.alias}.company_id = ANY(ARRAY(` +
      `SELECT rc.id FROM companies rc WHERE rc.updated_at >= ${since})))`;
    return v.afterId === undefined
      ? `${recent} AND ${jobChangedAt(to.alias)} > ${since}`
      : `${recent} AND (${jobChangedAt(to.alias)}, ${to.alias}.id) > (${since}, ${to.param(v.afterId)}::uuid)`;
  },
  replica: null,
});

export const JOB_FILTERS = [
  roleCategories,
  companySlug,
  location,
  remoteOnly,
  workplace,
  country,
  region,
  remoteScope,
  department,
  posted,
  maxAge,
  salary,
  updatedSince,
] as const;

/** Filters of GET /jobs, already validated. Search candidates must apply them too (never post-filter). */
export type JobFilters = FiltersOf<typeof JOB_FILTERS>;
