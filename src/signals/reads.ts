import type { DayCounts, Range } from './periods.js';
import { dayString, firstPeriod } from './periods.js';
import type { DayRow, Scope } from './store.js';

/**
 * The reads the hiring series are made of, behind one port. SQL (sql-reads.ts) is the reference; an in-process
 * copy of the rollups (replica/replica-reads.ts, READ_MODEL=memory) answers the same in front of it. SignalsService
 * turns the answers into series, so either gives the same series by construction of this contract.
 */

export interface CompanyRef {
  id: string;
  slug: string;
  name: string;
}

/** Median days from first seen to closing of the jobs closed in a range whose opening was seen. */
export interface TimeToClose {
  medianDays: number | null;
  closedJobs: number;
}

/** A company's rollup day in one role category. */
export interface CategoryDayRow extends DayCounts {
  roleCategory: string;
}

/** What a company series is made of. */
export interface CompanyRollup {
  company: CompanyRef;
  /** The company's first day on record in any category (UTC midnight), null when it has none. */
  since: number | null;
  /** Its rollup rows of the categories asked for up to `to` (inclusive), by day then category. */
  rows: CategoryDayRow[];
  /** Time to close of its jobs of the categories asked for closed from `from` to `to` (UTC days), over them all. */
  timeToClose: TimeToClose;
}

/** What a catalog (or company-filtered) series is made of. */
export interface ScopeRollup {
  /** The scope's first day on record in any category, null when none. */
  since: number | null;
  /** Net change in active jobs of the categories asked for before the first period (see firstPeriod). */
  start: number;
  /** The days from the first period to `to` with any row, ascending. */
  days: DayRow[];
}

export interface SignalReads {
  /** A company by UUID or slug (slugs compare case-insensitively), listed or not. */
  company(idOrSlug: string): Promise<CompanyRef | undefined>;
  /** A company's rollup rows and close times over the range; undefined when there is no such company. */
  companyRollup(
    idOrSlug: string,
    range: Range,
    categories: readonly string[],
  ): Promise<CompanyRollup | undefined>;
  /** A scope's rows over the range, from the first period answered on. */
  scopeRollup(scope: Scope, range: Range, categories: readonly string[]): Promise<ScopeRollup>;
  /** Prepares what the first reads after a start would otherwise pay for; resolves when done. */
  warm(): Promise<void>;
}

/** The first day of the first period answered, as rollup days compare (YYYY-MM-DD). */
export const firstDayOf = (range: Range, since: number | null): string =>
  dayString(firstPeriod(range, since));

/**
 * percentile_cont(0.5) as PostgreSQL computes it over sorted values (float4 open days read as doubles), rounded
 * to a tenth of a day as the answers show it.
 */
export function medianDays(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const pos = 0.5 * (sorted.length - 1);
  const lo = Math.floor(pos);
  const a = sorted[lo] as number;
  const v = pos === lo ? a : a + ((sorted[lo + 1] as number) - a) * (pos - lo);
  return Math.round(v * 10) / 10;
}
