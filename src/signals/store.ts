import type { CompanyFilters } from '../catalog/fields/company-filters.js';
import { companyFilterSql } from '../catalog/filters.js';
import { CLIENT_FACING_CATEGORIES, ROLE_CATEGORIES, type TagDimension } from '../catalog/vocabulary.js';
import type { Queryable } from '../db/port.js';
import { type DayCounts, dailyFrom, dayString, GRAIN_TABLES, type Interval } from './periods.js';

/**
 * Reads of the hiring rollups (migrations/0080, 0120, 0156): hiring_daily per company, hiring_daily_tag per tag and
 * hiring_daily_tag_pair per pair of tags of one dimension (their listed companies), hiring_daily_all catalog-wide,
 * their week and month twins (hiring_weekly*, hiring_monthly*, migrations/0169), and the job_events they are made
 * of. Categories are always a list (one for role_category, seven for client_facing). A rollup's tables are named by
 * a prefix: `hiring_daily`, `hiring_weekly` or `hiring_monthly`.
 */

/**
 * Which rows a series sums: one company; the listed companies carrying any of some tags of one dimension (read from
 * hiring_daily_tag and hiring_daily_tag_pair); the companies any other company filter matches (their hiring_daily
 * rows); or every company.
 */
export type Scope =
  | { kind: 'company'; companyId: string }
  | { kind: 'tagged'; dimension: TagDimension; slugs: string[] }
  | { kind: 'filtered'; filters: CompanyFilters }
  | { kind: 'all' };

/** The scope of a company filter: tags of a single dimension read the per-tag rollup. */
export function scopeOf(filters: CompanyFilters): Scope {
  const keys = Object.keys(filters);
  if (keys.length === 0) return { kind: 'all' };
  const dims = Object.entries(filters.tags ?? {});
  if (keys.length === 1 && dims.length === 1) {
    const [dimension, slugs] = dims[0] as [TagDimension, string[]];
    return { kind: 'tagged', dimension, slugs };
  }
  return { kind: 'filtered', filters };
}

/** The tags a tagged scope names, as SQL over its two parameters (dimension, slugs). */
const taggedIds = (first: number) =>
  `SELECT tg.id FROM tags tg WHERE tg.dimension = $${first} AND tg.slug = ANY($${first + 1}::text[])`;

/**
 * The rows of a tagged scope, each listed company carrying any of the tags counted once (inclusion-exclusion): the
 * tags' rollups summed, less the rollups of the pairs among them (migrations/0156); a company carrying k >= 3 of
 * the tags is then counted 1 - (k - 1)(k - 2)/2 times, so with three slugs or more those companies' own days make
 * up the difference (companies carry about two tags of a dimension, so they are few).
 */
const taggedRows = (first: number, slugs: number, rollup: string) => `(
  SELECT t.day, t.role_category, t.opened, t.reopened, t.closed, t.net, t.events
  FROM ${rollup}_tag t WHERE t.tag_id IN (${taggedIds(first)})${
    slugs === 1
      ? ''
      : `
  UNION ALL
  SELECT p.day, p.role_category, -p.opened, -p.reopened, -p.closed, -p.net, -p.events
  FROM ${rollup}_tag_pair p
  WHERE p.tag_id IN (${taggedIds(first)}) AND p.other_tag_id IN (${taggedIds(first)})`
  }${
    slugs < 3
      ? ''
      : `
  UNION ALL
  SELECT d.day, k, o.extra * d.opened, o.extra * d.reopened, o.extra * d.closed, o.extra * d.net,
    o.extra * d.events
  FROM (SELECT ct.company_id, ((count(*) - 1) * (count(*) - 2) / 2)::int AS extra
        FROM company_tags ct JOIN companies c ON c.id = ct.company_id AND c.active
        WHERE ct.tag_id IN (${taggedIds(first)}) GROUP BY ct.company_id HAVING count(*) > 2) o
  JOIN ${rollup} d ON d.company_id = o.company_id
  CROSS JOIN LATERAL hiring_category_keys(d.role_category) k`
  }) h`;

/** A day's rows: the asked categories summed, and the opened counts behind the role mix. */
export interface DayRow extends DayCounts {
  /** Opened (any category) that day. */
  openedAll: number;
  /** Opened in the seven client-facing categories that day. */
  openedClientFacing: number;
  /** Events behind the asked categories' rows: a week whose counts cancel out still had them. */
  events: number;
}

/** The rollup keys a read sums: the categories asked for, every category, the client-facing ones. */
interface Keys {
  asked: readonly string[];
  all: readonly string[];
  clientFacing: readonly string[];
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && b.every((x) => a.includes(x));

/**
 * The keys of a scope's rows: hiring_daily_all and hiring_daily_tag also hold the groups '(all)' and
 * '(client_facing)' (migrations/0120), one row a day for what would otherwise be eighteen or seven.
 */
function keysOf(scope: Scope, categories: readonly string[]): Keys {
  if (scope.kind === 'company' || scope.kind === 'filtered')
    return { asked: categories, all: ROLE_CATEGORIES, clientFacing: CLIENT_FACING_CATEGORIES };
  const asked = sameSet(categories, ROLE_CATEGORIES)
    ? ['(all)']
    : sameSet(categories, CLIENT_FACING_CATEGORIES)
      ? ['(client_facing)']
      : categories;
  return { asked, all: ['(all)'], clientFacing: ['(client_facing)'] };
}

/** FROM clause, condition and parameters of a scope in a rollup's tables, its placeholders numbered from `first`. */
function source(
  scope: Scope,
  first: number,
  rollup = 'hiring_daily',
): { from: string; where: string; params: unknown[] } {
  if (scope.kind === 'all') return { from: `${rollup}_all h`, where: 'true', params: [] };
  if (scope.kind === 'company')
    return { from: `${rollup} h`, where: `h.company_id = $${first}::uuid`, params: [scope.companyId] };
  if (scope.kind === 'tagged')
    return {
      from: taggedRows(first, scope.slugs.length, rollup),
      where: 'true',
      params: [scope.dimension, scope.slugs],
    };
  // The matching companies as an array, so the primary key's range (company, then day) is read for each in turn.
  // Joined instead, the planner expects few companies and hashes a scan of every company's rows (slow on PGlite
  // for stage x industry).
  const f = companyFilterSql(scope.filters, first, 'c');
  return {
    from: `${rollup} h`,
    where: `h.company_id = ANY(ARRAY(SELECT c.id FROM companies c WHERE ${f.sql}))`,
    params: f.params,
  };
}

/** The first day on record in the scope (any category): when its tracking began. */
export async function trackedSince(db: Queryable, scope: Scope): Promise<number | null> {
  const s = source(scope, 1);
  // Over matching companies or tags: one primary-key probe each, not a scan of their rows.
  const sql =
    scope.kind === 'filtered'
      ? `SELECT min((SELECT min(h.day) FROM hiring_daily h WHERE h.company_id = c.id))::text AS first
         FROM companies c WHERE ${companyFilterSql(scope.filters, 1, 'c').sql}`
      : scope.kind === 'tagged'
        ? `SELECT min((SELECT min(t.day) FROM hiring_daily_tag t WHERE t.tag_id = x.id))::text AS first
           FROM (${taggedIds(1)}) x`
        : scope.kind === 'all'
          ? `SELECT min(h.day)::text AS first FROM hiring_daily_all h WHERE h.role_category = '(all)'`
          : `SELECT min(h.day)::text AS first FROM ${s.from} WHERE ${s.where}`;
  const rows = await db.query<{ first: string | null }>(sql, s.params);
  const first = rows[0]?.first;
  return first ? Date.parse(first) : null;
}

/**
 * Net change in active jobs of the categories before `beforeDay`: active at the start of the series. `beforeDay`
 * starts a period of `interval`, whose rollups are read.
 */
export async function activeBefore(
  db: Queryable,
  scope: Scope,
  categories: readonly string[],
  beforeDay: string,
  interval: Interval = 'day',
): Promise<number> {
  const s = source(scope, 3, GRAIN_TABLES[interval]);
  const rows = await db.query<{ n: number }>(
    `SELECT coalesce(sum(h.net), 0)::int AS n FROM ${s.from}
     WHERE ${s.where} AND h.role_category = ANY($1::text[]) AND h.day < $2::date`,
    [keysOf(scope, categories).asked, beforeDay, ...s.params],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Days from `fromDay` to `toDay` (inclusive), ascending, summed over the categories. By week or month (`fromDay`
 * starting a period), each whole period is one row of its rollup, dated by its first day; the days of a last period
 * that `toDay` cuts short are read from the daily rollup (dailyFrom).
 */
export async function daysInRange(
  db: Queryable,
  scope: Scope,
  categories: readonly string[],
  fromDay: string,
  toDay: string,
  interval: Interval = 'day',
): Promise<DayRow[]> {
  const k = keysOf(scope, categories);
  const cut = dayString(dailyFrom({ interval, toMs: Date.parse(toDay) }));
  const daily = source(scope, 7);
  const parts = [
    `${sumsOf(daily)} AND h.day >= greatest($2::date, $6::date) AND h.day <= $3::date GROUP BY h.day`,
  ];
  if (interval !== 'day') {
    const grain = source(scope, 7, GRAIN_TABLES[interval]);
    parts.unshift(`${sumsOf(grain)} AND h.day >= $2::date AND h.day < $6::date GROUP BY h.day`);
  }
  return db.query<DayRow>(`${parts.join('\n     UNION ALL\n     ')}\n     ORDER BY day`, [
    k.asked,
    fromDay,
    toDay,
    k.clientFacing,
    k.all,
    interval === 'day' ? fromDay : cut,
    ...daily.params,
  ]);
}

/** A scope's rows summed per day (or period) over $1's categories, with the role mix's ($4, $5), unfiltered by day. */
function sumsOf(s: { from: string; where: string }): string {
  return `SELECT h.day::text AS day,
       coalesce(sum(h.opened) FILTER (WHERE h.role_category = ANY($1::text[])), 0)::int AS opened,
       coalesce(sum(h.reopened) FILTER (WHERE h.role_category = ANY($1::text[])), 0)::int AS reopened,
       coalesce(sum(h.closed) FILTER (WHERE h.role_category = ANY($1::text[])), 0)::int AS closed,
       coalesce(sum(h.net) FILTER (WHERE h.role_category = ANY($1::text[])), 0)::int AS net,
       coalesce(sum(h.opened) FILTER (WHERE h.role_category = ANY($5::text[])), 0)::int AS "openedAll",
       coalesce(sum(h.opened) FILTER (WHERE h.role_category = ANY($4::text[])), 0)::int AS "openedClientFacing",
       coalesce(sum(h.events) FILTER (WHERE h.role_category = ANY($1::text[])), 0)::int AS events
     FROM ${s.from}
     WHERE ${s.where} AND h.role_category = ANY($1::text[] || $4::text[] || $5::text[])`;
}

export interface CloseTimes {
  roleCategory: string | null;
  medianDays: number | null;
  closedJobs: number;
}

/**
 * Median days open of the jobs closed in [fromDay, toDay] whose opening was seen (open_days set), per category
 * and over all of them (roleCategory null).
 */
export async function closeTimes(
  db: Queryable,
  categories: readonly string[],
  fromDay: string,
  toDay: string,
  company?: { id?: string; slug?: string },
): Promise<CloseTimes[]> {
  const rows = await db.query<{ role_category: string | null; median: number | null; n: number }>(
    `SELECT role_category, percentile_cont(0.5) WITHIN GROUP (ORDER BY open_days) AS median, count(*)::int AS n
     FROM job_events
     WHERE kind = 'closed' AND open_days IS NOT NULL AND role_category = ANY($1::text[])
       AND at >= $2::date AND at < $3::date + 1 AND ($4::uuid IS NULL OR company_id = $4::uuid)
       AND ($5::text IS NULL OR company_id = (SELECT c.id FROM companies c WHERE c.slug = $5))
     GROUP BY GROUPING SETS ((role_category), ()) ORDER BY role_category NULLS FIRST`,
    [categories, fromDay, toDay, company?.id ?? null, company?.slug ?? null],
  );
  const out = rows.map((r) => ({
    roleCategory: r.role_category,
    medianDays: r.median === null ? null : Math.round(Number(r.median) * 10) / 10,
    closedJobs: r.n,
  }));
  if (!out.some((r) => r.roleCategory === null))
    out.unshift({ roleCategory: null, medianDays: null, closedJobs: 0 });
  return out;
}

export interface FirstOpening {
  companyId: string;
  slug: string;
  name: string;
  firstDay: string;
}

/**
 * Companies whose first day on record in the categories is on or after `sinceDay` and was an opening: nothing
 * found there at the start of tracking (initial), nothing before. Most recent first.
 *
 * Read per listed company through hiring_daily's primary key (company, day, category): its first row in the
 * categories ends a short walk of its days, and that day's rows are one more range. The cost grows with the
 * companies (20,000 probes at a million jobs), not with their days on record (2.2M rows there), which grouping
 * every company's days by day would read and sort.
 */
export async function firstOpenings(
  db: Queryable,
  categories: readonly string[],
  sinceDay: string,
  limit: number,
): Promise<FirstOpening[]> {
  return db.query<FirstOpening>(
    `SELECT c.id AS "companyId", c.slug, c.name, f.day::text AS "firstDay"
     FROM companies c
     CROSS JOIN LATERAL (SELECT h.day FROM hiring_daily h
       WHERE h.company_id = c.id AND h.role_category = ANY($1::text[]) ORDER BY h.day LIMIT 1) f
     CROSS JOIN LATERAL (SELECT sum(h.initial) AS initial, sum(h.opened) AS opened FROM hiring_daily h
       WHERE h.company_id = c.id AND h.day = f.day AND h.role_category = ANY($1::text[])) s
     WHERE c.active AND f.day >= $2::date AND s.initial = 0 AND s.opened > 0
     ORDER BY f.day DESC, c.slug LIMIT $3`,
    [categories, sinceDay, limit],
  );
}

export interface OpenedJob {
  companyId: string;
  id: string;
  title: string;
  roleCategory: string;
  openedAt: Date;
  active: boolean;
}

/** The jobs opened in the categories from each company's first day on (at most `perCompany` each). */
export async function openedJobs(
  db: Queryable,
  firsts: readonly FirstOpening[],
  categories: readonly string[],
  perCompany: number,
): Promise<OpenedJob[]> {
  if (firsts.length === 0) return [];
  return db.query<OpenedJob>(
    `SELECT x."companyId", x.id, x.title, x."roleCategory", x."openedAt", x.active FROM (
       SELECT e.company_id AS "companyId", j.id, j.title, e.role_category AS "roleCategory", e.at AS "openedAt",
              j.active, row_number() OVER (PARTITION BY e.company_id ORDER BY e.at, e.id) AS k
       FROM unnest($1::uuid[], $2::date[]) AS f(company_id, day)
       JOIN job_events e ON e.company_id = f.company_id AND e.at >= f.day
       JOIN jobs j ON j.id = e.job_id
       WHERE e.kind = 'opened' AND e.role_category = ANY($3::text[])) x
     WHERE x.k <= $4 ORDER BY x."companyId", x."openedAt"`,
    [firsts.map((f) => f.companyId), firsts.map((f) => f.firstDay), categories, perCompany],
  );
}

/** Recomputes the hiring rollups from job_events and company tags; returns the number of company-day rows. */
export async function rebuildRollups(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT rebuild_hiring_daily() AS n');
  return rows[0]?.n ?? 0;
}
