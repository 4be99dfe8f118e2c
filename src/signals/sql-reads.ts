import { UUID_RE } from '../catalog/types.js';
import type { Queryable } from '../db/port.js';
import { dailyFrom, dayString, GRAIN_TABLES, type Interval, type Range } from './periods.js';
import {
  type CategoryDayRow,
  type CompanyRef,
  type CompanyRollup,
  firstDayOf,
  type ScopeRollup,
  type SignalReads,
} from './reads.js';
import { activeBefore, daysInRange, type Scope, trackedSince } from './store.js';

/** The reference SignalReads: every read a statement over the rollups (store.ts). */

const companyWhere = (idOrSlug: string) => (UUID_RE.test(idOrSlug) ? 'id = $1::uuid' : 'slug = lower($1)');

/**
 * One statement for a company series: the company, its first day on record, its rows of the categories up to `to`
 * (ranges of the primary keys: whole periods from the rollup of the interval's grain before $5, the days from $5 to
 * `to` from the daily one, see dailyFrom) and the median days open of its jobs closed in the range, over every
 * category asked for (job_events_company_closed_idx, migrations/0130), told apart by `k`.
 */
const companySql = (idOrSlug: string, interval: Interval) => `
  WITH c AS MATERIALIZED (SELECT id, slug, name FROM companies WHERE ${companyWhere(idOrSlug)})
  SELECT 'c' AS k, c.id::text AS id, c.slug, c.name, NULL AS cat,
         (SELECT min(h.day) FROM hiring_daily h WHERE h.company_id = c.id)::text AS day,
         NULL::int AS opened, NULL::int AS reopened, NULL::int AS closed, NULL::int AS net, NULL::float8 AS median
  FROM c
  UNION ALL
  SELECT 'd', NULL, NULL, NULL, h.role_category, h.day::text, h.opened, h.reopened, h.closed, h.net, NULL
  FROM c JOIN ${GRAIN_TABLES[interval]} h ON h.company_id = c.id
  WHERE h.role_category = ANY($2::text[]) AND h.day < $5::date${
    interval === 'day'
      ? ''
      : `
  UNION ALL
  SELECT 'd', NULL, NULL, NULL, h.role_category, h.day::text, h.opened, h.reopened, h.closed, h.net, NULL
  FROM c JOIN hiring_daily h ON h.company_id = c.id
  WHERE h.role_category = ANY($2::text[]) AND h.day >= $5::date AND h.day <= $3::date`
  }
  UNION ALL
  SELECT 't', NULL, NULL, NULL, NULL, NULL, count(*)::int, NULL, NULL, NULL,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY e.open_days)
  FROM c JOIN job_events e ON e.company_id = c.id
  WHERE e.kind = 'closed' AND e.open_days IS NOT NULL AND e.role_category = ANY($2::text[])
    AND e.at >= $4::timestamp AT TIME ZONE 'UTC' AND e.at < ($3::date + 1)::timestamp AT TIME ZONE 'UTC'
  ORDER BY k, day, cat NULLS FIRST`;

interface CompanyPart {
  k: 'c' | 'd' | 't';
  id: string | null;
  slug: string | null;
  name: string | null;
  cat: string | null;
  day: string | null;
  opened: number | null;
  reopened: number | null;
  closed: number | null;
  net: number | null;
  median: number | null;
}

export class SqlSignalReads implements SignalReads {
  constructor(private readonly db: Queryable) {}

  async company(idOrSlug: string): Promise<CompanyRef | undefined> {
    const rows = await this.db.query<CompanyRef>(
      `SELECT id, slug, name FROM companies WHERE ${companyWhere(idOrSlug)}`,
      [idOrSlug],
    );
    return rows[0];
  }

  async companyRollup(
    idOrSlug: string,
    range: Range,
    categories: readonly string[],
  ): Promise<CompanyRollup | undefined> {
    const byId = UUID_RE.test(idOrSlug);
    const parts = await this.db.query<CompanyPart>(
      companySql(idOrSlug, range.interval),
      [idOrSlug, categories, dayString(range.toMs), dayString(range.fromMs), dayString(dailyFrom(range))],
      // Planned once per connection: planning the statement cost more than running it (EXPLAIN ANALYZE).
      { name: `signals_company_${range.interval}_by_${byId ? 'id' : 'slug'}` },
    );
    const head = parts.find((p) => p.k === 'c');
    if (!head) return undefined;
    const rows: CategoryDayRow[] = [];
    let timeToClose: CompanyRollup['timeToClose'] = { medianDays: null, closedJobs: 0 };
    for (const p of parts) {
      if (p.k === 'd')
        rows.push({
          day: p.day as string,
          roleCategory: p.cat as string,
          opened: p.opened as number,
          reopened: p.reopened as number,
          closed: p.closed as number,
          net: p.net as number,
        });
      else if (p.k === 't')
        timeToClose = {
          medianDays: p.median === null ? null : Math.round(Number(p.median) * 10) / 10,
          closedJobs: p.opened as number,
        };
    }
    return {
      company: { id: head.id as string, slug: head.slug as string, name: head.name as string },
      since: head.day ? Date.parse(head.day) : null,
      rows,
      timeToClose,
    };
  }

  async scopeRollup(scope: Scope, range: Range, categories: readonly string[]): Promise<ScopeRollup> {
    const since = await trackedSince(this.db, scope);
    const fromDay = firstDayOf(range, since);
    const toDay = dayString(range.toMs);
    const [start, days] = await Promise.all([
      activeBefore(this.db, scope, categories, fromDay, range.interval),
      daysInRange(this.db, scope, categories, fromDay, toDay, range.interval),
    ]);
    return { since, start, days };
  }

  async warm(): Promise<void> {}
}
