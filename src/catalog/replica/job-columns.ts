import type { MaskBuilder } from '../fields/define.js';
import type { JobAttrs } from '../fields/job-record.js';
import { replicaFilters } from '../filters.js';
import type { JobFilters } from '../types.js';

/**
 * The job filters over typed per-row columns. A filtered search tests its filters on every candidate row: tens
 * of thousands for a common word ("engineer" is in 44 % of the bench catalog's titles). Through JobAttrs each test
 * was a chase through two objects and a substring test, and filtered searches cost 10–20 ms where unfiltered
 * ones cost 2–4. Here each row keeps small integer codes of its location, role category and company, plus its
 * remote flag, in typed arrays. A query's filters become masks over those codes, built once per query (the
 * location substring test runs once per distinct location), and a row is tested with a few array reads.
 *
 * Codes are assigned on first sight and never released: distinct locations, roles and companies are few
 * (thousands). Masks are built and used within one synchronous stretch of a search, so a row added meanwhile
 * cannot carry a code the mask has not seen.
 */

/** What a query's filters admit; null fields admit anything. */
export interface RowMasks {
  /** By location code: 1 admitted. */
  locations: Uint8Array | null;
  /** By role-category code: 1 admitted. */
  roles: Uint8Array | null;
  /** The one admitted company code (-1: no company matches the filter). */
  company: number | null;
  remoteOnly: boolean;
  /** Rows posted in [since, before) (microseconds), or null for any time. */
  posted: { since: number; before: number } | null;
  /** The department keys admitted and, by department code (JobCodes.department), 1 admitted; null for any. */
  departments: { keys: ReadonlySet<string>; codes: Uint8Array } | null;
  /** Pay in this currency (its JobCodes.currency code, -1 when no row has it) reaching `min` a year, or null. */
  pay: { currency: string; code: number; min: number } | null;
  /** Predicates over the row's attributes, for filters declared without a coded column (all must pass). */
  tests: readonly ((a: JobAttrs) => boolean)[];
}

/** A row filter as the in-memory indexes take it: masks (fast), a predicate over attributes, or null for all. */
export type JobRowFilter = RowMasks | ((a: JobAttrs) => boolean) | null;

export class JobCodes {
  private readonly locationCodes = new Map<string, number>();
  private readonly locationNames: string[] = [];
  private readonly roleCodes = new Map<string, number>();
  private readonly companyCodes = new Map<string, number>();
  /** Department keys and pay currencies; code 0 is a row naming none. */
  private readonly departmentCodes = new Map<string | null, number>([[null, 0]]);
  private readonly currencyCodes = new Map<string | null, number>([[null, 0]]);

  location(location: string): number {
    const code = codeOf(this.locationCodes, location);
    if (code === this.locationNames.length) this.locationNames.push(location);
    return code;
  }

  role(role: string): number {
    return codeOf(this.roleCodes, role);
  }

  company(id: string): number {
    return codeOf(this.companyCodes, id);
  }

  department(key: string | null): number {
    return codeOf(this.departmentCodes, key);
  }

  currency(currency: string | null): number {
    return codeOf(this.currencyCodes, currency);
  }

  /**
   * The filters as masks (each filter's declaration says which coded column it narrows, or gives a predicate;
   * catalog/filters.ts replicaFilters), or null when they admit every row. `companyIdBySlug` resolves the
   * company filter's slug (undefined: no company has it).
   */
  masks(f: JobFilters, companyIdBySlug: (slug: string) => string | undefined): RowMasks | null {
    const m: RowMasks = { ...NO_MASKS };
    let any = false;
    const builder: MaskBuilder = {
      roles: (roles) => {
        any = true;
        const mask = new Uint8Array(this.roleCodes.size);
        for (const r of roles) {
          const code = this.roleCodes.get(r);
          if (code !== undefined && (m.roles === null || m.roles[code] === 1)) mask[code] = 1;
        }
        m.roles = mask;
      },
      locationContains: (needle) => {
        any = true;
        const mask = new Uint8Array(this.locationNames.length);
        this.locationNames.forEach((name, code) => {
          if (name.includes(needle) && (m.locations === null || m.locations[code] === 1)) mask[code] = 1;
        });
        m.locations = mask;
      },
      company: (slug) => {
        any = true;
        const id = companyIdBySlug(slug);
        const code = id === undefined ? -1 : (this.companyCodes.get(id) ?? -1);
        m.company = m.company === null || m.company === code ? code : -1;
      },
      remoteOnly: () => {
        any = true;
        m.remoteOnly = true;
      },
      departments: (keys) => {
        any = true;
        const admitted = new Set(keys.filter((k) => m.departments === null || m.departments.keys.has(k)));
        const codes = new Uint8Array(this.departmentCodes.size);
        for (const k of admitted) {
          const code = this.departmentCodes.get(k);
          if (code !== undefined) codes[code] = 1;
        }
        m.departments = { keys: admitted, codes };
      },
      payAtLeast: (currency, min) => {
        any = true;
        const same = m.pay === null || m.pay.currency === currency;
        const code = same ? (this.currencyCodes.get(currency) ?? -1) : -1;
        m.pay = { currency, code, min: Math.max(min, m.pay?.min ?? min) };
      },
      postedWithin: (since, before) => {
        any = true;
        m.posted = {
          since: Math.max(since, m.posted?.since ?? since),
          before: Math.min(before, m.posted?.before ?? before),
        };
      },
    };
    m.tests = replicaFilters(f, builder);
    return any || m.tests.length > 0 ? m : null;
  }

  /** `base` narrowed to rows of these role categories. */
  ofRoles(base: RowMasks | null, roles: readonly string[]): RowMasks {
    const mask = new Uint8Array(this.roleCodes.size);
    for (const r of roles) {
      const code = this.roleCodes.get(r);
      if (code !== undefined && (base?.roles == null || base.roles[code] === 1)) mask[code] = 1;
    }
    return { ...NO_MASKS, ...base, roles: mask };
  }

  /** Whether the masks admit a job with these attributes (one the replica holds: its values have codes). */
  admits(m: RowMasks, a: JobAttrs): boolean {
    return (
      (m.locations === null || m.locations[this.location(a.location)] === 1) &&
      (m.roles === null || m.roles[this.role(a.role)] === 1) &&
      (m.company === null || this.company(a.companyId) === m.company) &&
      (!m.remoteOnly || a.remote) &&
      postedIn(m.posted, a.postedAtUs) &&
      inDepartments(m.departments, a) &&
      paysAtLeast(m.pay, a) &&
      passes(m.tests, a)
    );
  }

  /** `base` narrowed to rows at these locations (lower case, as JobAttrs.location). */
  at(base: RowMasks | null, locations: ReadonlySet<string>): RowMasks {
    const mask = new Uint8Array(this.locationNames.length);
    for (const loc of locations) {
      const code = this.locationCodes.get(loc);
      if (code !== undefined && (base?.locations == null || base.locations[code] === 1)) mask[code] = 1;
    }
    return { ...NO_MASKS, ...base, locations: mask };
  }
}

/** One index's rows as columns of codes, by that index's slot numbers. */
export class JobColumns {
  private location = new Int32Array(0);
  private company = new Int32Array(0);
  private role = new Int32Array(0);
  private remote = new Uint8Array(0);
  /** Each slot's attributes, for the masks' predicates. */
  private attrs: JobAttrs[] = [];
  /** One past the highest slot ever set. */
  private slots = 0;

  constructor(readonly codes: JobCodes) {}

  set(slot: number, a: JobAttrs): void {
    if (slot >= this.location.length) this.grow(Math.max(1024, Math.ceil((slot + 1) * 1.5)));
    this.slots = Math.max(this.slots, slot + 1);
    this.location[slot] = this.codes.location(a.location);
    this.company[slot] = this.codes.company(a.companyId);
    this.role[slot] = this.codes.role(a.role);
    this.remote[slot] = a.remote ? 1 : 0;
    this.attrs[slot] = a;
  }

  /** A slot predicate for the masks (it reads the columns as they are when called). */
  admit(m: RowMasks): (slot: number) => boolean {
    const { locations, roles, company, remoteOnly, posted, departments, pay, tests } = m;
    return (slot) =>
      (locations === null || locations[this.location[slot]!] === 1) &&
      (roles === null || roles[this.role[slot]!] === 1) &&
      (company === null || this.company[slot] === company) &&
      (!remoteOnly || this.remote[slot] === 1) &&
      postedIn(posted, this.attrs[slot]!.postedAtUs) &&
      inDepartments(departments, this.attrs[slot]!) &&
      paysAtLeast(pay, this.attrs[slot]!) &&
      (tests.length === 0 || passes(tests, this.attrs[slot]!));
  }

  /**
   * The slots whose location the masks admit (a TopK.within): one pass over a typed column, where testing each
   * row through admit() in the scan costs a call per row. Slots freed since are included; the index skips them.
   */
  atLocations(m: RowMasks): Int32Array {
    const { locations } = m;
    const out = new Int32Array(this.slots);
    let n = 0;
    for (let slot = 0; slot < this.slots; slot++) {
      if (locations === null || locations[this.location[slot]!] === 1) out[n++] = slot;
    }
    return out.subarray(0, n);
  }

  private grow(size: number): void {
    this.location = resized(this.location, new Int32Array(size));
    this.company = resized(this.company, new Int32Array(size));
    this.role = resized(this.role, new Int32Array(size));
    this.remote = resized(this.remote, new Uint8Array(size));
  }
}

function codeOf<K>(codes: Map<K, number>, value: K): number {
  let code = codes.get(value);
  if (code === undefined) {
    code = codes.size;
    codes.set(value, code);
  }
  return code;
}

function resized<T extends Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Masks admitting every row. */
export const NO_MASKS: Readonly<RowMasks> = {
  locations: null,
  roles: null,
  company: null,
  remoteOnly: false,
  posted: null,
  departments: null,
  pay: null,
  tests: [],
};

/** Whether the row names one of the departments (null: any department or none). */
function inDepartments(departments: RowMasks['departments'], a: JobAttrs): boolean {
  return departments === null || (a.departmentKey !== null && departments.keys.has(a.departmentKey));
}

/** Whether the row states pay in the currency reaching the minimum (null: any pay or none). */
function paysAtLeast(pay: RowMasks['pay'], a: JobAttrs): boolean {
  return pay === null || (a.payCurrency === pay.currency && a.payYearMax >= pay.min);
}

/** Whether a posting time is in the window (null: any time). */
export function postedIn(window: RowMasks['posted'], postedAtUs: number): boolean {
  return window === null || (postedAtUs >= window.since && postedAtUs < window.before);
}

/** Whether every predicate admits the row (a loop, not every() with a closure: this runs once per scanned row). */
export function passes(tests: RowMasks['tests'], a: JobAttrs): boolean {
  for (let t = 0; t < tests.length; t++) if (!tests[t]!(a)) return false;
  return true;
}
