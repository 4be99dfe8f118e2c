import type { FacetDecl, FacetNames } from '../../fields/define.js';
import type { JobAttrs } from '../../fields/job-record.js';
import {
  type Declared,
  FACET_TOP,
  type FacetCount,
  type FacetCounts,
  JOB_FACETS,
  lifted,
} from '../../sql/facets.js';
import type { JobFilters } from '../../types.js';
import type { CatalogReplica } from '../catalog-replica.js';
import { KeyCodes } from '../job-columns.js';

/**
 * Facet counts in the replica, the same as catalog/sql/facets.ts counts them in SQL (the reference): for each facet
 * asked, the rows the filters select with the facet's own restriction lifted are grouped by the key its
 * declaration gives (`key` for a job, `keys` for a company), and the top FACET_TOP groups reported through its
 * `labelOf`, most frequent first, ties by label in code point order (SQL's COLLATE "C"). Nothing here names a
 * facet: a facet declared in fields/ is counted here as it is.
 */

/**
 * The group keys of each job facet as small integer codes, so that a facet is a coded column over the /jobs
 * order and counting it is one pass over a typed array. Code 0 is the null key (not counted). Codes are assigned
 * on first sight and never released (distinct values are few: categories, companies, places, departments).
 */
export class FacetCodes {
  private readonly facets: KeyCodes[];

  constructor(facets: number) {
    this.facets = Array.from({ length: facets }, () => new KeyCodes());
  }

  code(facet: number, key: string | null): number {
    return this.facets[facet]!.code(key);
  }

  /** How many codes the facet has handed out (the length of a count array by code). */
  size(facet: number): number {
    return this.facets[facet]!.keys.length;
  }

  key(facet: number, code: number): string | null {
    return this.facets[facet]!.keys[code] ?? null;
  }
}

/**
 * The top groups of counts by key, as meta.facets reports them; undefined when a key has no label (a company the
 * replica does not know: the caller then asks SQL).
 */
export function topCounts(
  counted: Iterable<readonly [string, number]>,
  facet: FacetDecl<unknown>,
  names: FacetNames,
): FacetCount[] | undefined {
  const groups: FacetCount[] = [];
  for (const [key, count] of counted) {
    if (count === 0) continue;
    const value = facet.labelOf ? facet.labelOf(key, names) : key;
    if (value === undefined) return undefined;
    groups.push({ value, count });
  }
  groups.sort((a, b) => b.count - a.count || codePointCompare(a.value, b.value));
  return groups.slice(0, FACET_TOP);
}

/** The FACET_TOP largest counts seen by contenders(), largest first (reused: contenders runs to completion). */
const TOP = new Int32Array(FACET_TOP);

/**
 * The groups of a count array by code that can reach the top FACET_TOP: those counting at least the FACET_TOP-th
 * largest count (ties at the cut are all kept, topCounts orders them by label). Code 0, the null key, is left out.
 * Codes past the facet's last count zero and are never reported.
 */
export function* contenders(
  counts: Int32Array,
  key: (code: number) => string | null,
): Generator<readonly [string, number]> {
  let cut = 1;
  if (counts.length > FACET_TOP + 1) {
    TOP.fill(0);
    for (let code = 1; code < counts.length; code++) {
      const n = counts[code]!;
      if (n <= TOP[FACET_TOP - 1]!) continue;
      let j = FACET_TOP - 1;
      for (; j > 0 && TOP[j - 1]! < n; j--) TOP[j] = TOP[j - 1]!;
      TOP[j] = n;
    }
    cut = Math.max(1, TOP[FACET_TOP - 1]!);
  }
  for (let code = 1; code < counts.length; code++) {
    const n = counts[code]!;
    const k = n >= cut ? key(code) : null;
    if (k !== null) yield [k, n];
  }
}

/** Counts each key of each row (a row counts once under each of its keys). */
export function tally(rows: Iterable<readonly string[]>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const keys of rows) for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

/**
 * Each facet asked, in declaration order, counted by `count` (given the facet's place in `declared` and the
 * filters with its own restriction lifted); undefined as soon as one cannot be counted.
 */
export function eachFacet<F extends object, D extends FacetDecl<unknown>>(
  declared: readonly Declared<D>[],
  names: readonly string[],
  filters: F,
  count: (d: Declared<D>, index: number, rest: F) => FacetCount[] | undefined,
): FacetCounts | undefined {
  const out: FacetCounts = {};
  for (const [index, d] of declared.entries()) {
    if (!names.includes(d.facet.name)) continue;
    const counted = count(d, index, lifted(d, filters));
    if (counted === undefined) return undefined;
    out[d.facet.name] = counted;
  }
  return out;
}

/**
 * Job facets over a search shortlist: its jobs active in the replica that the filters (each facet's own lifted)
 * admit, grouped by their keys. A shortlist is small (100 rows), so the rows' attributes are read directly.
 */
export function jobFacetsWithin(
  index: CatalogReplica,
  filters: JobFilters,
  names: readonly string[],
  within: readonly string[],
  labels: FacetNames,
): FacetCounts | undefined {
  const rows: [number, JobAttrs][] = [];
  for (const id of new Set(within)) {
    const a = index.jobs.attributes(id);
    const slot = index.jobs.slotOf(id);
    if (a && slot !== undefined) rows.push([slot, a]);
  }
  return eachFacet(JOB_FACETS, names, filters, (d, _f, rest) => {
    const admit = index.jobRows(index.jobMasks(rest));
    const keys: string[][] = [];
    for (const [slot, a] of rows) {
      const key = admit === undefined || admit(slot) ? d.facet.key(a) : null;
      if (key !== null) keys.push([key]);
    }
    return topCounts(tally(keys), d.facet, labels);
  });
}

/**
 * Compares strings by Unicode code point, as the C collations do (UTF-8 byte order). JavaScript's `<` compares
 * UTF-16 code units, which differ only when a surrogate (a character past U+FFFF) meets U+E000..U+FFFF.
 */
export function codePointCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
