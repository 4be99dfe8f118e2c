import { companyPredicate } from '../../catalog/filters.js';
import { UUID_RE } from '../../catalog/types.js';
import { CLIENT_FACING_CATEGORIES } from '../../catalog/vocabulary.js';
import { DAY_MS, dayString, type Range } from '../periods.js';
import {
  type CategoryDayRow,
  type CompanyRollup,
  firstDayOf,
  medianDays,
  type ScopeRollup,
} from '../reads.js';
import type { CloseTimes, DayRow, Scope } from '../store.js';
import type { HiringSnapshot, SnapshotCompany } from './hiring-snapshot.js';

/** The reads of SignalReads answered from a HiringSnapshot, as the SQL statements answer them (sql-reads.ts). */

const EPOCH_DAY = (ms: number) => Math.floor(ms / DAY_MS);
const dayName = (d: number) => dayString(d * DAY_MS);
const ASCII = /^[\x20-\x7e]*$/;
/** Company lists kept per snapshot (one per distinct company filter) before they are dropped together. */
const MEMBER_LISTS = 100;

/** A company's index by UUID or slug; null when the slug's lower-casing is the database's to decide. */
export function companyIndex(s: HiringSnapshot, idOrSlug: string): number | undefined | null {
  if (UUID_RE.test(idOrSlug)) return s.byId.get(idOrSlug.toLowerCase());
  if (!ASCII.test(idOrSlug)) return null;
  return s.bySlug.get(idOrSlug.toLowerCase());
}

/** Which category codes are in `categories`. */
function mask(s: HiringSnapshot, categories: readonly string[]): Uint8Array {
  const m = new Uint8Array(s.categories.length);
  for (const c of categories) {
    const k = s.codes.get(c);
    if (k !== undefined) m[k] = 1;
  }
  return m;
}

function closeTimesOf(
  s: HiringSnapshot,
  i: number,
  asked: Uint8Array,
  from: number,
  to: number,
): CloseTimes[] {
  const per = new Map<number, number[]>();
  const overall: number[] = [];
  for (let k = s.closeStart[i] as number; k < (s.closeStart[i + 1] as number); k++) {
    const d = s.closeDay[k] as number;
    const c = s.closeCat[k] as number;
    if (d < from || d > to || !asked[c]) continue;
    const o = s.openDays[k] as number;
    overall.push(o);
    const list = per.get(c);
    if (list) list.push(o);
    else per.set(c, [o]);
  }
  const row = (roleCategory: string | null, xs: number[]) => {
    xs.sort((a, b) => a - b);
    return { roleCategory, medianDays: medianDays(xs), closedJobs: xs.length };
  };
  const cats = [...per.entries()]
    .map(([c, xs]) => row(s.categories[c] as string, xs))
    .sort((a, b) => ((a.roleCategory as string) < (b.roleCategory as string) ? -1 : 1));
  return [row(null, overall), ...cats];
}

export function companyRollup(
  s: HiringSnapshot,
  i: number,
  range: Range,
  categories: readonly string[],
): CompanyRollup {
  const c = s.companies[i] as SnapshotCompany;
  const start = s.rowStart[i] as number;
  const end = s.rowStart[i + 1] as number;
  const asked = mask(s, categories);
  const to = EPOCH_DAY(range.toMs);
  const rows: CategoryDayRow[] = [];
  for (let k = start; k < end && (s.day[k] as number) <= to; k++) {
    const cat = s.cat[k] as number;
    if (!asked[cat]) continue;
    rows.push({
      day: dayName(s.day[k] as number),
      roleCategory: s.categories[cat] as string,
      opened: s.opened[k] as number,
      reopened: s.reopened[k] as number,
      closed: s.closed[k] as number,
      net: s.net[k] as number,
    });
  }
  return {
    company: { id: c.id, slug: c.slug, name: c.name },
    since: end > start ? (s.day[start] as number) * DAY_MS : null,
    rows,
    closeTimes: closeTimesOf(s, i, asked, EPOCH_DAY(range.fromMs), to),
  };
}

/** Sums of the days from `from` to `to` of one scope, as daysInRange and activeBefore give them. */
class DaySums {
  readonly opened: Int32Array;
  readonly reopened: Int32Array;
  readonly closed: Int32Array;
  readonly net: Int32Array;
  readonly all: Int32Array;
  readonly clientFacing: Int32Array;
  readonly has: Uint8Array;
  start = 0;

  constructor(
    readonly from: number,
    to: number,
  ) {
    const n = Math.max(0, to - from + 1);
    [this.opened, this.reopened, this.closed, this.net, this.all, this.clientFacing] = Array.from(
      { length: 6 },
      () => new Int32Array(n),
    ) as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
    this.has = new Uint8Array(n);
  }

  days(): DayRow[] {
    const out: DayRow[] = [];
    for (let d = 0; d < this.has.length; d++) {
      if (!this.has[d]) continue;
      out.push({
        day: dayName(this.from + d),
        opened: this.opened[d] as number,
        reopened: this.reopened[d] as number,
        closed: this.closed[d] as number,
        net: this.net[d] as number,
        openedAll: this.all[d] as number,
        openedClientFacing: this.clientFacing[d] as number,
      });
    }
    return out;
  }
}

/** The companies a scope sums, or null for every company on record; kept per snapshot for each filter. */
function members(s: HiringSnapshot, scope: Scope): Int32Array | null {
  if (scope.kind === 'all') return null;
  const key = JSON.stringify(scope);
  let list = s.members.get(key);
  if (!list) {
    list = Int32Array.from(matching(s, scope));
    if (s.members.size >= MEMBER_LISTS) s.members.clear();
    s.members.set(key, list);
  }
  return list;
}

function matching(s: HiringSnapshot, scope: Exclude<Scope, { kind: 'all' }>): number[] {
  if (scope.kind === 'company') {
    const i = s.byId.get(scope.companyId);
    return i === undefined ? [] : [i];
  }
  const test =
    scope.kind === 'tagged'
      ? (c: SnapshotCompany) =>
          c.active && scope.slugs.some((slug) => c.tags.has(`${scope.dimension}:${slug}`))
      : companyPredicate(scope.filters);
  const out: number[] = [];
  s.companies.forEach((c, i) => {
    if (test(c)) out.push(i);
  });
  return out;
}

export function scopeRollup(
  s: HiringSnapshot,
  scope: Scope,
  range: Range,
  categories: readonly string[],
): ScopeRollup {
  const list = members(s, scope);
  let first = Number.POSITIVE_INFINITY;
  if (list === null) first = s.lastDay >= s.firstDay ? s.firstDay : first;
  else
    for (const i of list)
      if ((s.rowStart[i + 1] as number) > (s.rowStart[i] as number))
        first = Math.min(first, s.day[s.rowStart[i] as number] as number);
  const since = Number.isFinite(first) ? first * DAY_MS : null;
  const from = EPOCH_DAY(Date.parse(firstDayOf(range, since)));
  const sums = new DaySums(from, EPOCH_DAY(range.toMs));
  const asked = mask(s, categories);
  const cf = mask(s, CLIENT_FACING_CATEGORIES);
  if (list === null) sumCatalog(s, sums, asked, cf);
  else for (const i of list) sumCompany(s, i, sums, asked, cf);
  return { since, start: sums.start, days: sums.days() };
}

function sumCompany(s: HiringSnapshot, i: number, sums: DaySums, asked: Uint8Array, cf: Uint8Array): void {
  const n = sums.has.length;
  for (let k = s.rowStart[i] as number; k < (s.rowStart[i + 1] as number); k++) {
    const d = (s.day[k] as number) - sums.from;
    if (d >= n) break;
    const c = s.cat[k] as number;
    if (d < 0) {
      if (asked[c]) sums.start += s.net[k] as number;
      continue;
    }
    sums.has[d] = 1;
    const o = s.opened[k] as number;
    sums.all[d] = (sums.all[d] as number) + o;
    if (cf[c]) sums.clientFacing[d] = (sums.clientFacing[d] as number) + o;
    if (!asked[c]) continue;
    sums.opened[d] = (sums.opened[d] as number) + o;
    sums.reopened[d] = (sums.reopened[d] as number) + (s.reopened[k] as number);
    sums.closed[d] = (sums.closed[d] as number) + (s.closed[k] as number);
    sums.net[d] = (sums.net[d] as number) + (s.net[k] as number);
  }
}

function sumCatalog(s: HiringSnapshot, sums: DaySums, asked: Uint8Array, cf: Uint8Array): void {
  const w = s.categories.length;
  const a = s.all;
  const n = sums.has.length;
  for (let day = s.firstDay; day <= s.lastDay; day++) {
    const d = day - sums.from;
    if (d >= n) break;
    const base = (day - s.firstDay) * w;
    if (d < 0) {
      for (let c = 0; c < w; c++) if (asked[c]) sums.start += a.net[base + c] as number;
      continue;
    }
    if (!a.has[day - s.firstDay]) continue;
    sums.has[d] = 1;
    for (let c = 0; c < w; c++) {
      const x = base + c;
      const o = a.opened[x] as number;
      sums.all[d] = (sums.all[d] as number) + o;
      if (cf[c]) sums.clientFacing[d] = (sums.clientFacing[d] as number) + o;
      if (!asked[c]) continue;
      sums.opened[d] = (sums.opened[d] as number) + o;
      sums.reopened[d] = (sums.reopened[d] as number) + (a.reopened[x] as number);
      sums.closed[d] = (sums.closed[d] as number) + (a.closed[x] as number);
      sums.net[d] = (sums.net[d] as number) + (a.net[x] as number);
    }
  }
}
