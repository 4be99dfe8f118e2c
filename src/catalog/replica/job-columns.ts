import type { MaskBuilder } from '../fields/define.js';
import {
  CODED,
  type CodedName,
  type EqualColumn,
  type JobAttrs,
  type RangeColumn,
  type SetColumn,
} from '../fields/job-record.js';
import { replicaFilters } from '../filters.js';
import type { JobFilters } from '../types.js';

/**
 * The job filters over typed per-row columns, one per coded column declared in JOB_CODED (fields/job-record.ts).
 * A filtered search tests its filters on every candidate row (tens of thousands for a common word), and a listing
 * scans the whole /jobs order: through JobAttrs each test was a chase through two objects and a substring test.
 * Here a query's filters become masks over codes, built once per query (a location substring test runs once per
 * distinct location), and a row is tested with a few array reads by admitsAt, the one test the listing order,
 * search and facets share.
 *
 * Codes are assigned on first sight and never released: distinct values are few (thousands). Masks are built and
 * used within one synchronous stretch, so a row added meanwhile cannot carry a code the mask has not seen.
 */

/** Column index by name, in JOB_CODED order. */
const COLUMN = new Map(CODED.map((c, i) => [c.name, i]));
export const columnOf = (name: CodedName): number => COLUMN.get(name)!;

/** One column's restriction (one shape for all three tests, so reads of it stay monomorphic). */
export interface Check {
  readonly column: number;
  readonly test: 'set' | 'equal' | 'range';
  /** set: by code, 1 admitted. */
  readonly mask: Uint8Array | null;
  /** equal: the code admitted (-1: none). */
  readonly code: number;
  /** range: values in [lo, hi). */
  readonly lo: number;
  readonly hi: number;
}

/** What a query's filters admit: at most one check per column, and predicates over the attributes (all must pass). */
export interface RowMasks {
  readonly checks: readonly Check[];
  readonly tests: readonly ((a: JobAttrs) => boolean)[];
}

/** A row filter as the in-memory indexes take it: masks (fast), a predicate over attributes, or null for all. */
export type JobRowFilter = RowMasks | ((a: JobAttrs) => boolean) | null;

/** Rows as the coded columns (codes of keys, values of ranges), by row number, with their attributes. */
export class CodedRows {
  /** By column: codes of a set or equal column (empty for a range). */
  readonly keys: Int32Array[];
  /** By column: values of a range column (empty for the others). */
  readonly values: Float64Array[];
  readonly attrs: JobAttrs[];

  constructor(
    readonly length: number,
    from?: CodedRows,
  ) {
    this.keys = CODED.map((c, i) => grown(new Int32Array(c.test === 'range' ? 0 : length), from?.keys[i]));
    this.values = CODED.map((c, i) =>
      grown(new Float64Array(c.test === 'range' ? length : 0), from?.values[i]),
    );
    this.attrs = from ? from.attrs : new Array<JobAttrs>(length);
  }

  /** Row i holds a job with these attributes. */
  put(i: number, a: JobAttrs, codes: JobCodes): void {
    for (let c = 0; c < CODED.length; c++) {
      const d = CODED[c]!;
      if (d.test === 'range') this.values[c]![i] = d.value(a);
      else this.keys[c]![i] = codes.code(c, d.key(a));
    }
    this.attrs[i] = a;
  }

  /** Row k holds what row i of `from` holds. */
  copy(k: number, from: CodedRows, i: number): void {
    for (let c = 0; c < CODED.length; c++) {
      if (this.keys[c]!.length > 0) this.keys[c]![k] = from.keys[c]![i]!;
      else this.values[c]![k] = from.values[c]![i]!;
    }
    this.attrs[k] = from.attrs[i]!;
  }
}

function grown<T extends Int32Array | Float64Array>(to: T, from: T | undefined): T {
  if (from && to.length > 0) to.set(from);
  return to;
}

/** Whether the masks admit row i: the columns first, then the predicates over its attributes. */
export function admitsAt(m: RowMasks, rows: CodedRows, i: number): boolean {
  const { checks } = m;
  for (let k = 0; k < checks.length; k++) {
    const c = checks[k]!;
    if (c.test === 'range') {
      const v = rows.values[c.column]![i]!;
      if (v < c.lo || v >= c.hi) return false;
    } else {
      const code = rows.keys[c.column]![i]!;
      if (c.mask === null ? code !== c.code : c.mask[code] !== 1) return false;
    }
  }
  return m.tests.length === 0 || passes(m.tests, rows.attrs[i]!);
}

/** Whether every predicate admits the row (a loop, not every() with a closure: this runs once per scanned row). */
export function passes(tests: RowMasks['tests'], a: JobAttrs): boolean {
  for (let t = 0; t < tests.length; t++) if (!tests[t]!(a)) return false;
  return true;
}

/** The masks' check of a column, if any. */
export function checkOf(m: RowMasks | null, column: number): Check | undefined {
  return m?.checks.find((c) => c.column === column);
}

/** The codes of one column's keys, assigned on first sight and never released; code 0 is the null key. */
export class KeyCodes {
  private readonly codes = new Map<string | null, number>([[null, 0]]);
  /** Keys by code. */
  readonly keys: (string | null)[] = [null];

  code(key: string | null): number {
    let code = this.codes.get(key);
    if (code === undefined) {
      code = this.keys.length;
      this.codes.set(key, code);
      this.keys.push(key);
    }
    return code;
  }

  /** The code of a key already seen, undefined otherwise. */
  find(key: string | null): number | undefined {
    return this.codes.get(key);
  }
}

/** The codes of each set and equal column's keys. */
export class JobCodes {
  private readonly columns = CODED.map(() => new KeyCodes());

  /** The code of `key` in column `column`, assigned on first sight. */
  code(column: number, key: string | null): number {
    return this.columns[column]!.code(key);
  }

  find(column: number, key: string): number | undefined {
    return this.columns[column]!.find(key);
  }

  keysOf(column: number): readonly (string | null)[] {
    return this.columns[column]!.keys;
  }

  /**
   * The filters as masks (each declaration restricts the coded columns by name, or gives a predicate;
   * catalog/filters.ts replicaFilters), or null when they admit every row. `companyId` resolves a company slug.
   */
  masks(f: JobFilters, companyId: (slug: string) => string | undefined): RowMasks | null {
    const draft = new Draft(this, companyId, null);
    const tests = replicaFilters(f, draft);
    return draft.checks.length > 0 || tests.length > 0 ? draft.done(tests) : null;
  }

  /** `base` narrowed to rows whose key in a set column is one of `keys`. */
  narrowed(base: RowMasks | null, column: SetColumn, keys: Iterable<string>): RowMasks {
    const draft = new Draft(this, () => undefined, base);
    draft.oneOf(column, [...keys]);
    return draft.done(base?.tests ?? []);
  }

  /** `base` narrowed to rows whose key in an equal column is `key`; undefined when `base` admits none of them. */
  equalTo(base: RowMasks | null, column: EqualColumn, key: string): RowMasks | undefined {
    const draft = new Draft(this, () => undefined, base);
    draft.equals(column, key);
    const m = draft.done(base?.tests ?? []);
    return checkOf(m, columnOf(column))!.code < 0 ? undefined : m;
  }
}

const ANY = { mask: null, code: -1, lo: Number.NEGATIVE_INFINITY, hi: Number.POSITIVE_INFINITY };

/** Restrictions gathered from the filters (a MaskBuilder): one check per column, later ones intersecting earlier. */
class Draft implements MaskBuilder {
  private readonly byColumn = new Map<number, Check>();

  constructor(
    private readonly codes: JobCodes,
    readonly companyId: (slug: string) => string | undefined,
    base: RowMasks | null,
  ) {
    for (const c of base?.checks ?? []) this.byColumn.set(c.column, c);
  }

  get checks(): Check[] {
    return [...this.byColumn.values()].sort((a, b) => a.column - b.column);
  }

  done(tests: RowMasks['tests']): RowMasks {
    return { checks: this.checks, tests };
  }

  oneOf(name: SetColumn, keys: readonly string[]): void {
    const column = columnOf(name);
    const codes: number[] = [];
    for (const k of keys) {
      const code = this.codes.find(column, k);
      if (code !== undefined) codes.push(code);
    }
    this.admit(column, codes);
  }

  where(name: SetColumn, test: (key: string) => boolean): void {
    const column = columnOf(name);
    const codes: number[] = [];
    this.codes.keysOf(column).forEach((key, code) => {
      if (key !== null && test(key)) codes.push(code);
    });
    this.admit(column, codes);
  }

  equals(name: EqualColumn, key: string | undefined): void {
    const column = columnOf(name);
    const prior = this.byColumn.get(column);
    let code = key === undefined ? -1 : (this.codes.find(column, key) ?? -1);
    if (prior !== undefined && prior.code !== code) code = -1;
    this.byColumn.set(column, { ...ANY, column, test: 'equal', code });
  }

  within(name: RangeColumn, lo: number, hi: number): void {
    const column = columnOf(name);
    const prior = this.byColumn.get(column) ?? ANY;
    this.byColumn.set(column, {
      ...ANY,
      column,
      test: 'range',
      lo: Math.max(lo, prior.lo),
      hi: Math.min(hi, prior.hi),
    });
  }

  private admit(column: number, codes: readonly number[]): void {
    const prior = this.byColumn.get(column)?.mask;
    const mask = new Uint8Array(this.codes.keysOf(column).length);
    for (const code of codes) if (prior == null || prior[code] === 1) mask[code] = 1;
    this.byColumn.set(column, { ...ANY, column, test: 'set', mask });
  }
}

/** One index's rows as columns of codes, by that index's slot numbers. */
export class JobColumns {
  private rows = new CodedRows(0);
  /** One past the highest slot ever set. */
  private slots = 0;
  private readonly place = columnOf('place');

  constructor(readonly codes: JobCodes) {}

  set(slot: number, a: JobAttrs): void {
    if (slot >= this.rows.length) {
      this.rows = new CodedRows(Math.max(1024, Math.ceil((slot + 1) * 1.5)), this.rows);
    }
    this.slots = Math.max(this.slots, slot + 1);
    this.rows.put(slot, a, this.codes);
  }

  /** A slot predicate for the masks (it reads the columns as they are when called). */
  admit(m: RowMasks): (slot: number) => boolean {
    return (slot) => admitsAt(m, this.rows, slot);
  }

  /**
   * The slots whose location the masks admit (a TopK.within): one pass over a typed column, where testing each
   * row through admit() in the scan costs a call per row. Slots freed since are included; the index skips them.
   */
  atLocations(m: RowMasks): Int32Array {
    const locations = checkOf(m, this.place)?.mask ?? null;
    const place = this.rows.keys[this.place]!;
    const out = new Int32Array(this.slots);
    let n = 0;
    for (let slot = 0; slot < this.slots; slot++) {
      if (locations === null || locations[place[slot]!] === 1) out[n++] = slot;
    }
    return out.subarray(0, n);
  }
}
