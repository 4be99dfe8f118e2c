import type { CompanyFilters } from '../catalog/fields/company-filters.js';
import { ROLE_CATEGORIES } from '../catalog/vocabulary.js';
import type { Queryable } from '../db/port.js';
import { bucket, DAY_MS, type DayCounts, dayOf, dayString, type Point, type Range } from './periods.js';
import {
  type CategoryDayRow,
  type CompanyRef,
  type CompanyRollup,
  firstDayOf,
  type ScopeRollup,
  type SignalReads,
  type TimeToClose,
} from './reads.js';
import { SqlSignalReads } from './sql-reads.js';
import { type CloseTimes, closeTimes, type DayRow, firstOpenings, openedJobs, scopeOf } from './store.js';

export type { CompanyRef, TimeToClose } from './reads.js';

/** Hiring signals over the rollups: company and catalog series, newly hiring companies, time to close. */

export interface SeriesMeta {
  interval: Range['interval'];
  from: string;
  to: string;
  /** First day on record for the scope; periods before it are absent. */
  trackedSince: string | null;
  roleCategories: string[];
}

/** One category's series, in the answers that ask for them (by=role_category). */
export interface CategorySeries {
  roleCategory: string;
  series: Point[];
}

export interface CompanyHiring extends SeriesMeta {
  company: CompanyRef;
  series: Point[];
  /** Present when asked for: the series of each category on record. */
  byRoleCategory?: CategorySeries[];
  timeToClose: TimeToClose;
}

export interface TrendPoint extends Point {
  /** Opened in the client-facing categories (whatever the role filter), the numerator of the mix. */
  clientFacingOpened: number;
  /** clientFacingOpened over opened in every category; null when nothing opened. */
  clientFacingShare: number | null;
}

export interface Trends extends SeriesMeta {
  series: TrendPoint[];
}

/** A trend's series alone (the answer without share=client_facing). */
export interface TrendTotals extends SeriesMeta {
  series: Point[];
}

/** A trend's series of each category counted that has anything on record in the scope. */
export interface TrendsByCategory extends SeriesMeta {
  byRoleCategory: CategorySeries[];
}

export interface NewlyHiring {
  since: string;
  roleCategories: string[];
  companies: {
    company: CompanyRef;
    firstOpenedOn: string;
    jobs: { id: string; title: string; roleCategory: string; openedAt: string; active: boolean }[];
  }[];
}

export interface TimeToCloseReport {
  from: string;
  to: string;
  roleCategories: string[];
  overall: TimeToClose;
  byRoleCategory: (TimeToClose & { roleCategory: string })[];
}

const JOBS_PER_COMPANY = 5;

const meta = (range: Range, since: number | null, categories: readonly string[]): SeriesMeta => ({
  interval: range.interval,
  from: dayString(range.fromMs),
  to: dayString(range.toMs),
  trackedSince: since === null ? null : dayString(since),
  roleCategories: [...categories],
});

const splitCloseTimes = (rows: CloseTimes[]) => {
  const overall = rows.find((r) => r.roleCategory === null);
  return {
    overall: { medianDays: overall?.medianDays ?? null, closedJobs: overall?.closedJobs ?? 0 },
    byRoleCategory: rows.flatMap((r) =>
      r.roleCategory === null
        ? []
        : [{ roleCategory: r.roleCategory, medianDays: r.medianDays, closedJobs: r.closedJobs }],
    ),
  };
};

/** A company's series from its rollup: the total and, when asked for, each category on record up to `to`. */
function companySeries(
  r: CompanyRollup,
  range: Range,
  categories: readonly string[],
  byCategory: boolean,
): CompanyHiring {
  const fromDay = firstDayOf(range, r.since);
  // The rows come by day: a day's categories are summed as they pass, and the days before the first period only
  // count toward active.
  const totals: DayCounts[] = [];
  let startActive = 0;
  for (const d of r.rows) {
    if (d.day < fromDay) {
      startActive += d.net;
      continue;
    }
    const t = totals[totals.length - 1];
    if (t && t.day === d.day) {
      t.opened += d.opened;
      t.reopened += d.reopened;
      t.closed += d.closed;
      t.net += d.net;
    } else totals.push({ day: d.day, opened: d.opened, reopened: d.reopened, closed: d.closed, net: d.net });
  }
  return {
    company: r.company,
    ...meta(range, r.since, categories),
    series: bucket(totals, range, r.since, startActive),
    ...(byCategory ? { byRoleCategory: perCategory(r, range, fromDay) } : {}),
    timeToClose: r.timeToClose,
  };
}

/** The series of each category on record in a company's rollup; rows before `fromDay` count toward active only. */
function perCategory(r: CompanyRollup, range: Range, fromDay: string): CategorySeries[] {
  const before = new Map<string, number>();
  const days: CategoryDayRow[] = [];
  for (const d of r.rows) {
    if (d.day < fromDay) before.set(d.roleCategory, (before.get(d.roleCategory) ?? 0) + d.net);
    else days.push(d);
  }
  return [...new Set([...before.keys(), ...days.map((d) => d.roleCategory)])].sort().map((roleCategory) => ({
    roleCategory,
    series: bucket(
      days.filter((d) => d.roleCategory === roleCategory),
      range,
      r.since,
      before.get(roleCategory) ?? 0,
    ),
  }));
}

export class SignalsService {
  constructor(
    private readonly db: Queryable,
    /** Where the series read their rollups (SignalReads: SQL, or the in-process copy in front of it). */
    readonly reads: SignalReads = new SqlSignalReads(db),
  ) {}

  /** A company by UUID or slug (slugs compare case-insensitively), listed or not. */
  company(idOrSlug: string): Promise<CompanyRef | undefined> {
    return this.reads.company(idOrSlug);
  }

  /**
   * A company's series by UUID or slug, with each category's when byCategory is set; undefined when there is no
   * such company.
   */
  async hiringOf(
    idOrSlug: string,
    range: Range,
    categories: readonly string[] = ROLE_CATEGORIES,
    byCategory = false,
  ): Promise<CompanyHiring | undefined> {
    const r = await this.reads.companyRollup(idOrSlug, range, categories);
    return r && companySeries(r, range, categories, byCategory);
  }

  async companyHiring(
    company: CompanyRef,
    range: Range,
    categories: readonly string[] = ROLE_CATEGORIES,
  ): Promise<CompanyHiring> {
    const r = await this.reads.companyRollup(company.id, range, categories);
    // A company deleted since it was read has nothing on record.
    const rollup = r ?? { company, since: null, rows: [], timeToClose: { medianDays: null, closedJobs: 0 } };
    return companySeries(rollup, range, categories, false);
  }

  /** The scope's series over the categories asked for, without the role mix. */
  async trendTotals(
    range: Range,
    categories: readonly string[] = ROLE_CATEGORIES,
    filters: CompanyFilters = {},
  ): Promise<TrendTotals> {
    const { since, start, days } = await this.reads.scopeRollup(scopeOf(filters), range, categories);
    return { ...meta(range, since, categories), series: bucket(days, range, since, start) };
  }

  /** The scope's series with the role mix of each period. */
  async trends(
    range: Range,
    categories: readonly string[] = ROLE_CATEGORIES,
    filters: CompanyFilters = {},
  ): Promise<Trends> {
    const { since, start, days } = await this.reads.scopeRollup(scopeOf(filters), range, categories);
    const points = bucket(days, range, since, start);
    // The mix per period, over the same periods (the days are sorted; each point covers [period, next period)).
    let i = 0;
    const series = points.map((p, k) => {
      const end = points[k + 1]?.period ?? '9999-12-31';
      let all = 0;
      let cf = 0;
      for (; i < days.length && (days[i] as DayRow).day < end; i++) {
        const d = days[i] as DayRow;
        if (d.day >= p.period) {
          all += d.openedAll;
          cf += d.openedClientFacing;
        }
      }
      // The mix is added to the point bucket() made: an object spread per point cost several times the rest.
      const point = p as Point & { clientFacingOpened: number; clientFacingShare: number | null };
      point.clientFacingOpened = cf;
      point.clientFacingShare = all === 0 ? null : Math.round((cf / all) * 1000) / 1000;
      return point;
    });
    return { ...meta(range, since, categories), series };
  }

  /** The series of each category counted with active jobs or events in the scope over the range. */
  async trendsByCategory(
    range: Range,
    categories: readonly string[] = ROLE_CATEGORIES,
    filters: CompanyFilters = {},
  ): Promise<TrendsByCategory> {
    const scope = scopeOf(filters);
    const reads = await Promise.all(categories.map((c) => this.reads.scopeRollup(scope, range, [c])));
    const since = reads.find((r) => r.since !== null)?.since ?? null;
    const byRoleCategory = categories
      .map((roleCategory, k) => ({ roleCategory, r: reads[k] as ScopeRollup }))
      .filter(({ r }) => r.start !== 0 || r.days.some((d) => d.events > 0))
      .map(({ roleCategory, r }) => ({ roleCategory, series: bucket(r.days, range, r.since, r.start) }))
      .sort((a, b) => a.roleCategory.localeCompare(b.roleCategory));
    return { ...meta(range, since, categories), byRoleCategory };
  }

  async newlyHiring(
    categories: readonly string[],
    days: number,
    nowMs: number,
    limit: number,
  ): Promise<NewlyHiring> {
    const since = dayString(dayOf(nowMs) - (days - 1) * DAY_MS);
    const firsts = await firstOpenings(this.db, categories, since, limit);
    const jobs = await openedJobs(this.db, firsts, categories, JOBS_PER_COMPANY);
    return {
      since,
      roleCategories: [...categories],
      companies: firsts.map((f) => ({
        company: { id: f.companyId, slug: f.slug, name: f.name },
        firstOpenedOn: f.firstDay,
        jobs: jobs
          .filter((j) => j.companyId === f.companyId)
          .map((j) => ({
            id: j.id,
            title: j.title,
            roleCategory: j.roleCategory,
            openedAt: j.openedAt.toISOString(),
            active: j.active,
          })),
      })),
    };
  }

  /** Time to close over the range, of one company (by slug) or all. */
  async timeToClose(
    range: Range,
    categories: readonly string[],
    companySlug?: string,
  ): Promise<TimeToCloseReport> {
    const from = dayString(range.fromMs);
    const to = dayString(range.toMs);
    const rows = await closeTimes(
      this.db,
      categories,
      from,
      to,
      companySlug ? { slug: companySlug } : undefined,
    );
    return { from, to, roleCategories: [...categories], ...splitCloseTimes(rows) };
  }
}
