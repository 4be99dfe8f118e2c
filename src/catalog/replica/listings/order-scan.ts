import { admitsAt, checkOf, columnOf, type RowMasks } from '../job-columns.js';
import type { OrderColumns } from './order-columns.js';

const POSTED = columnOf('posted');

/**
 * Scans of the /jobs order's columns (see JobListing): the positions a filter selects, in order, and facet counts
 * in one pass. A listing request runs on the event loop over a replica of some hundred megabytes, so these scans
 * allocate nothing they do not return: per-row predicates are plain loops (a closure per row is megabytes of garbage
 * per 100k-row scan), and the scratch and count arrays are kept and reused. Everything here runs to completion
 * without awaiting, so one set of scratch arrays serves every request.
 */

/** A restriction every scanned row must meet: one of these codes in that coded column. */
interface CodeSet {
  column: number;
  codes: number[];
  /** By code, 1 for the codes of the set (set columns; an equality has one code at most). */
  mask?: Uint8Array;
}

/** One facet counted by countFacets. */
export interface FacetPass {
  /** The facet's coded column over the order. */
  column: Int32Array;
  /** Counts by code, zeroed (see OrderScan.counts). */
  counts: Int32Array;
  /** The bit of its own restriction among the lifted ones (0: the filters do not restrict this facet). */
  own: number;
  /** What its own restriction leaves once lifted, when not nothing (a facet's `without`). */
  relaxed: RowMasks | null;
}

/**
 * The filters of a facet count split by the disjunctive rule: `lifted` holds, bit k, the restrictions some facet
 * asked lifts (each its filter alone); `kept` holds the others (null: none). `selected` is the positions all the
 * filters select (null: every position), which the facets not lifting anything count.
 */
export interface FacetPlan {
  selected: Int32Array | null;
  kept: RowMasks | null;
  lifted: readonly (RowMasks | null)[];
}

const NOTHING = new Int32Array(0);

/** admitsAt, where null masks admit every position. */
const admitsAll = (cols: OrderColumns, m: RowMasks | null, i: number): boolean =>
  m === null || admitsAt(m, cols.rows, i);

export class OrderScan {
  /** Inverted lists of the current columns (see lists). */
  private readonly inverted = new Map<
    number,
    { cols: OrderColumns; start: Int32Array; positions: Int32Array }
  >();
  private found = new Int32Array(0);
  private bits = new Uint32Array(0);
  private readonly pool: Int32Array[] = [];

  clear(): void {
    this.inverted.clear();
  }

  /**
   * The positions the masks admit, in order (a new array of exactly their number: listings remember it).
   * The candidates are the positions of the smallest coded set, read from that column's inverted lists, or the
   * run of the order posted in the window when that is smaller; the other restrictions are tested on those
   * candidates only, so a rare role or place, or a recent window, reads a few thousand positions, not 100k.
   */
  positions(cols: OrderColumns, masks: RowMasks): Int32Array {
    if (masks.checks.some((c) => c.test === 'equal' && c.code < 0)) return NOTHING;
    const set = this.smallest(cols, restrictions(masks));
    const [lo, hi] = postedRun(cols, masks);
    if (this.found.length < cols.length) this.found = new Int32Array(cols.length);
    const found = this.found;
    let n = 0;
    if (set === undefined || hi - lo <= this.size(cols, set)) {
      for (let i = lo; i < hi; i++) if (admitsAt(masks, cols.rows, i)) found[n++] = i;
    } else if (set.codes.length === 1) {
      // One code's list is already in order.
      const { start, positions } = this.lists(cols, set.column);
      const c = set.codes[0]!;
      const [from, to] = c + 1 < start.length ? [start[c]!, start[c + 1]!] : [0, 0];
      for (let k = from; k < to; k++)
        if (admitsAt(masks, cols.rows, positions[k]!)) found[n++] = positions[k]!;
    } else {
      // Several sorted lists: marked in a bitset over the order, read back lowest first.
      const bits = this.marked(cols, set);
      for (let w = 0; w < bits.length; w++) {
        let word = bits[w]!;
        while (word !== 0) {
          const low = word & -word;
          const i = w * 32 + 31 - Math.clz32(low);
          word ^= low;
          if (admitsAt(masks, cols.rows, i)) found[n++] = i;
        }
      }
    }
    return found.slice(0, n);
  }

  /**
   * Counts each facet by the disjunctive rule. A facet whose restriction is not among the filters counts the
   * positions they select. The others are counted in one pass over the rows the kept restrictions admit: each lifted
   * restriction is tested once per row, and the row counts under every lifting facet whose other restrictions
   * admit it (with a single lifted restriction there is nothing to test: its facets count every row of the pass).
   */
  countFacets(cols: OrderColumns, plan: FacetPlan, facets: readonly FacetPass[]): void {
    const { selected, lifted } = plan;
    for (const f of facets) {
      if (f.own !== 0) continue;
      const { column, counts } = f;
      if (selected === null) for (let i = 0; i < cols.length; i++) counts[column[i]!]!++;
      else for (let k = 0; k < selected.length; k++) counts[column[selected[k]!]!]!++;
    }
    const lifting = facets.filter((f) => f.own !== 0);
    if (lifting.length === 0) return;
    const test = lifted.length > 1;
    this.each(cols, plan, (i) => {
      let failed = 0;
      if (test) for (let k = 0; k < lifted.length; k++) if (!admitsAll(cols, lifted[k]!, i)) failed |= 1 << k;
      for (let k = 0; k < lifting.length; k++) {
        const f = lifting[k]!;
        if ((failed & ~f.own) === 0 && admitsAll(cols, f.relaxed, i)) f.counts[f.column[i]!]!++;
      }
    });
  }

  /**
   * Calls `visit` with each position the kept restrictions admit that may fail at most one lifted restriction, in
   * no particular order. The candidates are the smallest of: the kept restrictions' smallest coded set or run of
   * posting times, and the
   * union of the two smallest coded sets of lifted restrictions (a row failing at most one of two or more lifted
   * restrictions meets one of any two), so that lifting a rare role and a rare place does not read every row.
   */
  private each(cols: OrderColumns, plan: FacetPlan, visit: (i: number) => void): void {
    const { kept, lifted } = plan;
    const keptSet = kept === null ? undefined : this.smallest(cols, restrictions(kept));
    const [lo, hi] = postedRun(cols, kept);
    const run = keptSet === undefined || hi - lo <= this.size(cols, keptSet);
    let size = run ? hi - lo : this.size(cols, keptSet);
    let pair: [CodeSet, CodeSet] | undefined;
    if (lifted.length > 1 && !lifted.includes(null)) {
      const sets = lifted.map((m) => this.smallest(cols, restrictions(m!)));
      const sizes = sets.map((set) => (set === undefined ? cols.length : this.size(cols, set)));
      const order = sizes.map((_n, k) => k).sort((a, b) => sizes[a]! - sizes[b]!);
      const [a, b] = [sets[order[0]!], sets[order[1]!]];
      if (a !== undefined && b !== undefined && sizes[order[0]!]! + sizes[order[1]!]! < size) {
        pair = [a, b];
        size = 0;
      }
    }
    const admit = (i: number) => {
      if (admitsAll(cols, kept, i)) visit(i);
    };
    if (pair !== undefined) {
      const [a, b] = pair;
      this.eachOf(cols, a, admit);
      this.eachOf(cols, b, (i) => {
        if (!inSet(cols, a, i)) admit(i);
      });
    } else if (!run) this.eachOf(cols, keptSet!, admit);
    else for (let i = lo; i < hi; i++) admit(i);
  }

  /** Calls `visit` with each position of the set (a position carries one code of a column: each is read once). */
  private eachOf(cols: OrderColumns, set: CodeSet, visit: (i: number) => void): void {
    const { start, positions } = this.lists(cols, set.column);
    for (const c of set.codes) {
      if (c + 1 >= start.length) continue;
      for (let k = start[c]!; k < start[c + 1]!; k++) visit(positions[k]!);
    }
  }

  /** How many positions carry one of the set's codes. */
  private size(cols: OrderColumns, set: CodeSet): number {
    const { start } = this.lists(cols, set.column);
    let n = 0;
    for (const c of set.codes) if (c + 1 < start.length) n += start[c + 1]! - start[c]!;
    return n;
  }

  /**
   * A zeroed count array for facet `facet` with room for `size` codes, reused across requests (its earlier counts
   * are gone once this returns).
   */
  counts(facet: number, size: number): Int32Array {
    let counts = this.pool[facet];
    if (counts === undefined || counts.length < size) {
      // Room to grow: codes are handed out as new values arrive.
      counts = new Int32Array(Math.max(64, size * 2));
      this.pool[facet] = counts;
    } else counts.fill(0);
    return counts;
  }

  /** The set with the fewest positions, or undefined when there is none (every position is a candidate). */
  private smallest(cols: OrderColumns, sets: CodeSet[]): CodeSet | undefined {
    let best: CodeSet | undefined;
    let size = Number.POSITIVE_INFINITY;
    for (const set of sets) {
      const n = this.size(cols, set);
      if (n < size) [best, size] = [set, n];
    }
    return best;
  }

  /** The positions carrying one of the set's codes, as bits of a reused bitset over the order. */
  private marked(cols: OrderColumns, set: CodeSet): Uint32Array {
    const words = (cols.length + 31) >>> 5;
    if (this.bits.length < words) this.bits = new Uint32Array(words);
    const bits = this.bits.subarray(0, words);
    bits.fill(0);
    const { start, positions } = this.lists(cols, set.column);
    for (const c of set.codes) {
      if (c + 1 >= start.length) continue;
      for (let k = start[c]!; k < start[c + 1]!; k++) bits[positions[k]! >>> 5]! |= 1 << (positions[k]! & 31);
    }
    return bits;
  }

  /**
   * A column's inverted lists for the current order: the positions of each code, ascending, as one array cut at
   * `start` (a counting sort, one pass per column and order).
   */
  private lists(cols: OrderColumns, column: number): { start: Int32Array; positions: Int32Array } {
    let built = this.inverted.get(column);
    if (built?.cols !== cols) {
      const values = cols.rows.keys[column]!;
      let codes = 0;
      for (let i = 0; i < cols.length; i++) codes = Math.max(codes, values[i]! + 1);
      const start = new Int32Array(codes + 1);
      for (let i = 0; i < cols.length; i++) start[values[i]! + 1]!++;
      for (let c = 1; c < start.length; c++) start[c]! += start[c - 1]!;
      const next = start.slice(0, -1);
      const positions = new Int32Array(cols.length);
      for (let i = 0; i < cols.length; i++) positions[next[values[i]!]!++] = i;
      built = { cols, start, positions };
      this.inverted.set(column, built);
    }
    return built;
  }
}

/** The masks' restrictions on set and equal columns, as sets of admitted codes. */
function restrictions(m: RowMasks): CodeSet[] {
  const sets: CodeSet[] = [];
  for (const c of m.checks) {
    if (c.mask !== null) sets.push({ column: c.column, codes: admitted(c.mask), mask: c.mask });
    else if (c.test === 'equal') sets.push({ column: c.column, codes: c.code < 0 ? [] : [c.code] });
  }
  return sets;
}

/** The codes a mask admits, ascending. */
function admitted(mask: Uint8Array): number[] {
  const codes: number[] = [];
  for (let c = 0; c < mask.length; c++) if (mask[c] === 1) codes.push(c);
  return codes;
}

/** Whether position i carries one of the set's codes. */
function inSet(cols: OrderColumns, set: CodeSet, i: number): boolean {
  const code = cols.rows.keys[set.column]![i]!;
  return set.mask !== undefined ? set.mask[code] === 1 : set.codes.includes(code);
}

/**
 * The positions [lo, hi) of the order posted in the window (the whole order for null): the order is by posting
 * time, newest first, so the window is one run of it, found by binary search.
 */
function postedRun(cols: OrderColumns, m: RowMasks | null): [number, number] {
  const window = checkOf(m, POSTED);
  if (window === undefined) return [0, cols.length];
  const firstBelow = (us: number) => {
    let lo = 0;
    let hi = cols.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cols.posted[mid]! >= us) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const lo = firstBelow(window.hi);
  return [lo, Math.max(lo, firstBelow(window.lo))];
}
