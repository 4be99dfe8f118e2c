import { badRequest } from '../errors.js';

/**
 * Periods of a hiring series: UTC days, ISO weeks (from Monday) and calendar months, each named by its first day
 * (YYYY-MM-DD). Rollup rows are bucketed here: a week or month series reads the rollups of its own grain (one row
 * per period) and the daily rows of a last period that `to` cuts short (see dailyFrom).
 */

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

export const DAY_MS = 86_400_000;

/** The default span of a series ending at `to`, per interval: 90 days, 52 weeks, 12 months. */
export const DEFAULT_SPAN_DAYS: Record<Interval, number> = { day: 90, week: 364, month: 365 };
/** The longest range a series answers, per interval: a year of days, five years of weeks or months. */
export const MAX_SPAN_DAYS: Record<Interval, number> = { day: 366, week: 1830, month: 1830 };

export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;
/** Day names by day since 1970 and the reverse, each computed once: a series names and reads hundreds of days. */
const DAY_NAMES = new Map<number, string>();
const DAY_STARTS = new Map<string, number>();
const MAX_DAYS = 100_000;
/** YYYY-MM-DD of the UTC day holding `ms`. */
export const dayString = (ms: number): string => {
  const day = Math.floor(ms / DAY_MS);
  if (day < 0 || day > MAX_DAYS) return new Date(ms).toISOString().slice(0, 10);
  let s = DAY_NAMES.get(day);
  if (s === undefined) {
    s = new Date(day * DAY_MS).toISOString().slice(0, 10);
    DAY_NAMES.set(day, s);
  }
  return s;
};

/** The UTC midnight of a YYYY-MM-DD day (as Date.parse reads it). */
export const dayStartOf = (day: string): number => {
  let ms = DAY_STARTS.get(day);
  if (ms === undefined) {
    ms = Date.parse(day);
    if (DAY_STARTS.size < MAX_DAYS) DAY_STARTS.set(day, ms);
  }
  return ms;
};

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A YYYY-MM-DD query parameter as the UTC midnight it names; anything else is a 400 naming it. */
export function dateParam(name: string, value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  const m = typeof value === 'string' ? DATE_RE.exec(value) : null;
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (!m || Number.isNaN(ms) || dayString(ms) !== value) {
    throw badRequest(`Invalid query parameter '${name}': expected a calendar date YYYY-MM-DD`);
  }
  return ms;
}

/** The first day of the period holding `dayMs`. */
export function periodStart(dayMs: number, interval: Interval): number {
  if (interval === 'day') return dayOf(dayMs);
  const d = new Date(dayMs);
  if (interval === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  // ISO weeks start on Monday (getUTCDay: Sunday 0).
  return dayOf(dayMs) - ((d.getUTCDay() + 6) % 7) * DAY_MS;
}

/** The first day of the period after the one starting at `startMs`. */
export function nextPeriod(startMs: number, interval: Interval): number {
  if (interval === 'day') return startMs + DAY_MS;
  if (interval === 'week') return startMs + 7 * DAY_MS;
  const d = new Date(startMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** The rollup tables a series reads, by interval: hiring_daily*, hiring_weekly*, hiring_monthly* (migrations/0169). */
export const GRAIN_TABLES: Record<Interval, string> = {
  day: 'hiring_daily',
  week: 'hiring_weekly',
  month: 'hiring_monthly',
};

export interface Range {
  interval: Interval;
  /** First day asked for (UTC midnight). */
  fromMs: number;
  /** Last day asked for, inclusive (UTC midnight), never after today. */
  toMs: number;
}

/**
 * from, to and interval as given -> the range answered. `to` defaults to today and is capped there (no future
 * periods); `from` defaults to DEFAULT_SPAN_DAYS before `to`. 400 when from > to or the span exceeds MAX_SPAN_DAYS.
 */
export function parseRange(q: { from?: unknown; to?: unknown; interval?: unknown }, nowMs: number): Range {
  const interval = (q.interval as Interval | undefined) ?? 'week';
  const today = dayOf(nowMs);
  const toMs = Math.min(dateParam('to', q.to) ?? today, today);
  const fromMs = dateParam('from', q.from) ?? toMs - DEFAULT_SPAN_DAYS[interval] * DAY_MS;
  if (fromMs > toMs) {
    throw badRequest(
      `Invalid query parameter 'from': ${dayString(fromMs)} is after 'to' (${dayString(toMs)}; 'to' is at most today)`,
    );
  }
  if ((toMs - fromMs) / DAY_MS > MAX_SPAN_DAYS[interval]) {
    throw badRequest(
      `Invalid query parameter 'from': a ${interval} series spans at most ${MAX_SPAN_DAYS[interval]} days`,
    );
  }
  return { interval, fromMs, toMs };
}

/**
 * The first day a series reads from the daily rollups: the start of the period holding `to`, unless `to` is that
 * period's last day (then the day after `to`, and every period is read at its grain). The periods before it are
 * whole and read from the rollups of the interval's grain.
 */
export function dailyFrom(range: Pick<Range, 'interval' | 'toMs'>): number {
  const start = periodStart(range.toMs, range.interval);
  return nextPeriod(start, range.interval) - DAY_MS === range.toMs ? range.toMs + DAY_MS : start;
}

/** The first day of the first period answered: the period holding max(from, trackedSince). */
export function firstPeriod(range: Range, trackedSinceMs: number | null): number {
  return periodStart(Math.max(range.fromMs, trackedSinceMs ?? range.fromMs), range.interval);
}

/** One day of rollups, summed over whatever categories and companies were asked for. */
export interface DayCounts {
  day: string;
  opened: number;
  reopened: number;
  closed: number;
  /** Change in active jobs over the day. */
  net: number;
}

export interface Point {
  /** First day of the period. */
  period: string;
  opened: number;
  reopened: number;
  closed: number;
  /** Active jobs at the end of the period (or of `to`, for the last one). */
  active: number;
  /** The period is only partly inside the range or the tracked time (its first or last). */
  partial: boolean;
}

/**
 * Buckets days (ascending) into the periods of `range`, from the one holding max(from, trackedSince) (`from` is
 * rounded down to the start of its period): periods before tracking began are absent, not zero. `active` is the running sum of net from the first day on record: the days given, plus the sum
 * before the first period (`activeBefore`, read up to firstPeriod()). No tracking at all (trackedSinceMs null) is
 * an empty series.
 */
export function bucket(
  days: readonly DayCounts[],
  range: Range,
  trackedSinceMs: number | null,
  activeBefore: number,
): Point[] {
  if (trackedSinceMs === null || trackedSinceMs > range.toMs) return [];
  let active = activeBefore;
  let i = 0;
  const ms = days.map((d) => dayStartOf(d.day));
  const dayMs = (k: number) => ms[k] as number;
  // Everything before the first period counts only toward active.
  const firstStart = firstPeriod(range, trackedSinceMs);
  for (; i < days.length && dayMs(i) < firstStart; i++) active += (days[i] as DayCounts).net;
  const out: Point[] = [];
  for (let start = firstStart; start <= range.toMs; start = nextPeriod(start, range.interval)) {
    const end = nextPeriod(start, range.interval);
    const p: Point = {
      period: dayString(start),
      opened: 0,
      reopened: 0,
      closed: 0,
      active: 0,
      partial: false,
    };
    for (; i < days.length && dayMs(i) < end && dayMs(i) <= range.toMs; i++) {
      const d = days[i] as DayCounts;
      p.opened += d.opened;
      p.reopened += d.reopened;
      p.closed += d.closed;
      active += d.net;
    }
    p.active = active;
    p.partial = start < trackedSinceMs || end - DAY_MS > range.toMs;
    out.push(p);
  }
  return out;
}
