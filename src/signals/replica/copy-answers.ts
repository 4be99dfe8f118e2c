import { companyPredicate } from '../../catalog/filters.js';
import { UUID_RE } from '../../catalog/types.js';
import { CLIENT_FACING_CATEGORIES } from '../../catalog/vocabulary.js';
import { DAY_MS, dayString, nextPeriod, periodStart, type Range } from '../periods.js';
import {
  type CategoryDayRow,
  type CompanyRollup,
  firstDayOf,
  medianDays,
  type ScopeRollup,
  type TimeToClose,
} from '../reads.js';
import type { DayRow, Scope } from '../store.js';
import type { CopiedCompany, RollupCopy } from './rollup-copy.js';

/** The reads of SignalReads answered from a RollupCopy, as the SQL statements answer them (sql-reads.ts). */

const epochDay = (ms: number) => Math.floor(ms / DAY_MS);
/** YYYY-MM-DD of an epoch day. */
const dayName = (d: number): string => dayString(d * DAY_MS);
const ASCII = /^[\x20-\x7e]*$/;
/** Bytes of scope sums kept per copy before they are dropped together (each is days x categories x 5 columns). */
const MEMO_BYTES = 32 * 1024 * 1024;

/** A company's index by UUID or slug; null when the slug's lower-casing is the database's to decide. */
export function companyIndex(s: RollupCopy, idOrSlug: string): number | undefined | null {
  if (UUID_RE.test(idOrSlug)) return s.byId.get(idOrSlug.toLowerCase());
  if (!ASCII.test(idOrSlug)) return null;
  return s.bySlug.get(idOrSlug.toLowerCase());
}

/** Which category codes are in `categories`. */
function mask(s: RollupCopy, categories: readonly string[]): Uint8Array {
  const m = new Uint8Array(s.categories.length);
  for (const c of categories) {
    const k = s.codes.get(c);
    if (k !== undefined) m[k] = 1;
  }
  return m;
}

/** Time to close over the asked categories of a company's jobs closed from day `from` to `to`. */
function timeToCloseOf(s: RollupCopy, i: number, asked: Uint8Array, from: number, to: number): TimeToClose {
  const days: number[] = [];
  for (let k = s.closeStart[i] as number; k < (s.closeStart[i + 1] as number); k++) {
    const d = s.closeDay[k] as number;
    if (d >= from && d <= to && asked[s.closeCat[k] as number]) days.push(s.openDays[k] as number);
  }
  days.sort((a, b) => a - b);
  return { medianDays: medianDays(days), closedJobs: days.length };
}

/** A company's daily rows of the categories up to `to` (the periods' sums of its week and month rollups). */
export function companyRollup(
  s: RollupCopy,
  i: number,
  range: Range,
  categories: readonly string[],
): CompanyRollup {
  const c = s.companies[i] as CopiedCompany;
  const start = s.rowStart[i] as number;
  const end = s.rowStart[i + 1] as number;
  const asked = mask(s, categories);
  const to = epochDay(range.toMs);
  const r = s.rows;
  const rows: CategoryDayRow[] = [];
  for (let k = start; k < end && (r.day[k] as number) <= to; k++) {
    const cat = r.cat[k] as number;
    if (!asked[cat]) continue;
    rows.push({
      day: dayName(r.day[k] as number),
      roleCategory: s.categories[cat] as string,
      opened: r.opened[k] as number,
      reopened: r.reopened[k] as number,
      closed: r.closed[k] as number,
      net: r.net[k] as number,
    });
  }
  return {
    company: { id: c.id, slug: c.slug, name: c.name },
    since: end > start ? (r.day[start] as number) * DAY_MS : null,
    rows,
    timeToClose: timeToCloseOf(s, i, asked, epochDay(range.fromMs), to),
  };
}

/**
 * A scope's rows summed per day and category (what hiring_daily_all, or the tag rollups, hold for it): dense
 * columns from its first day on record to its last, `width` categories a day; `has` marks days with any row. The
 * `all` columns are each day's sums over every category, and `cfOpened` its openings in the client-facing ones:
 * a trend over every category (most are) and the role mix read one value a day instead of `width`.
 */
interface ScopeSums {
  first: number;
  days: number;
  width: number;
  opened: Int32Array;
  reopened: Int32Array;
  closed: Int32Array;
  net: Int32Array;
  events: Int32Array;
  has: Uint8Array;
  all: { opened: Int32Array; reopened: Int32Array; closed: Int32Array; net: Int32Array; events: Int32Array };
  cfOpened: Int32Array;
}

/** The companies a scope sums, or null for every company on record. */
function members(s: RollupCopy, scope: Scope): number[] | null {
  if (scope.kind === 'all') return null;
  if (scope.kind === 'company') {
    const i = s.byId.get(scope.companyId);
    return i === undefined ? [] : [i];
  }
  const test =
    scope.kind === 'tagged'
      ? (c: CopiedCompany) => c.active && scope.slugs.some((slug) => c.tags.has(`${scope.dimension}:${slug}`))
      : companyPredicate(scope.filters);
  const out: number[] = [];
  s.companies.forEach((c, i) => {
    if (test(c)) out.push(i);
  });
  return out;
}

function sumScope(s: RollupCopy, list: number[] | null): ScopeSums {
  const r = s.rows;
  const ranges: [number, number][] =
    list === null
      ? [[0, r.day.length]]
      : list.map((i) => [s.rowStart[i] as number, s.rowStart[i + 1] as number]);
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const [a, b] of ranges)
    for (let k = a; k < b; k++) {
      const d = r.day[k] as number;
      if (d < first) first = d;
      if (d > last) last = d;
    }
  const days = Number.isFinite(first) ? last - first + 1 : 0;
  const width = s.categories.length;
  const col = () => new Int32Array(days * width);
  const t: ScopeSums = {
    first: Number.isFinite(first) ? first : 0,
    days,
    width,
    opened: col(),
    reopened: col(),
    closed: col(),
    net: col(),
    events: col(),
    has: new Uint8Array(days),
    all: {
      opened: new Int32Array(days),
      reopened: new Int32Array(days),
      closed: new Int32Array(days),
      net: new Int32Array(days),
      events: new Int32Array(days),
    },
    cfOpened: new Int32Array(days),
  };
  const cf = mask(s, CLIENT_FACING_CATEGORIES);
  const all = t.all;
  for (const [a, b] of ranges)
    for (let k = a; k < b; k++) {
      const d = (r.day[k] as number) - t.first;
      const c = r.cat[k] as number;
      const x = d * width + c;
      const opened = r.opened[k] as number;
      t.opened[x] = (t.opened[x] as number) + opened;
      t.reopened[x] = (t.reopened[x] as number) + (r.reopened[k] as number);
      t.closed[x] = (t.closed[x] as number) + (r.closed[k] as number);
      t.net[x] = (t.net[x] as number) + (r.net[k] as number);
      t.events[x] = (t.events[x] as number) + (r.events[k] as number);
      all.opened[d] = (all.opened[d] as number) + opened;
      all.reopened[d] = (all.reopened[d] as number) + (r.reopened[k] as number);
      all.closed[d] = (all.closed[d] as number) + (r.closed[k] as number);
      all.net[d] = (all.net[d] as number) + (r.net[k] as number);
      all.events[d] = (all.events[d] as number) + (r.events[k] as number);
      if (cf[c]) t.cfOpened[d] = (t.cfOpened[d] as number) + opened;
      t.has[d] = 1;
    }
  return t;
}

/** A scope's sums, kept with the copy (a catalog's or a tag's trends are asked for again and again). */
function scopeSums(s: RollupCopy, scope: Scope): ScopeSums {
  const key = `sums:${JSON.stringify(scope)}`;
  let t = s.memo.get(key) as ScopeSums | undefined;
  if (!t) {
    t = sumScope(s, members(s, scope));
    const bytes = (s.memo.get('bytes') as number | undefined) ?? 0;
    const add = t.days * (t.width * 20 + 25);
    if (bytes + add > MEMO_BYTES) s.memo.clear();
    s.memo.set('bytes', ((s.memo.get('bytes') as number | undefined) ?? 0) + add);
    s.memo.set(key, t);
  }
  return t;
}

/**
 * A scope's rows as daysInRange and activeBefore give them: the net before the first period, then one row per
 * period from it to `to` with any row (the sum of its days, dated by its first day, as the rollups of its grain).
 */
export function scopeRollup(
  s: RollupCopy,
  scope: Scope,
  range: Range,
  categories: readonly string[],
): ScopeRollup {
  const t = scopeSums(s, scope);
  const since = t.days > 0 ? t.first * DAY_MS : null;
  const from = epochDay(Date.parse(firstDayOf(range, since)));
  const to = Math.min(epochDay(range.toMs), t.first + t.days - 1);
  // The categories asked for, as a list; every category reads the day's sums instead.
  const asked: number[] = [];
  mask(s, categories).forEach((m, c) => {
    if (m) asked.push(c);
  });
  const every = asked.length === t.width;
  const w = t.width;
  const all = t.all;
  let start = 0;
  for (let d = t.first; d < Math.min(from, t.first + t.days); d++) {
    const x = d - t.first;
    if (every) start += all.net[x] as number;
    else for (const c of asked) start += t.net[x * w + c] as number;
  }
  const days: DayRow[] = [];
  let row: DayRow | undefined;
  let periodEnd = from;
  for (let d = Math.max(from, t.first); d <= to; d++) {
    const x = d - t.first;
    if (!t.has[x]) continue;
    if (d >= periodEnd || !row) {
      const p = epochDay(periodStart(d * DAY_MS, range.interval));
      periodEnd = epochDay(nextPeriod(p * DAY_MS, range.interval));
      row = {
        day: dayName(p),
        opened: 0,
        reopened: 0,
        closed: 0,
        net: 0,
        openedAll: 0,
        openedClientFacing: 0,
        events: 0,
      };
      days.push(row);
    }
    row.openedAll += all.opened[x] as number;
    row.openedClientFacing += t.cfOpened[x] as number;
    if (every) {
      row.opened += all.opened[x] as number;
      row.reopened += all.reopened[x] as number;
      row.closed += all.closed[x] as number;
      row.net += all.net[x] as number;
      row.events += all.events[x] as number;
      continue;
    }
    for (const c of asked) {
      const k = x * w + c;
      row.opened += t.opened[k] as number;
      row.reopened += t.reopened[k] as number;
      row.closed += t.closed[k] as number;
      row.net += t.net[k] as number;
      row.events += t.events[k] as number;
    }
  }
  return { since, start, days };
}
