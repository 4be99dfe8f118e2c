import { readCatalogVersion } from '../../catalog/version.js';
import { ROLE_CATEGORIES } from '../../catalog/vocabulary.js';
import type { Queryable } from '../../db/port.js';

/**
 * A compact copy of the daily hiring rollups, read from the database at one catalog version: every company (listed
 * or not, for lookups and company filters), its hiring_daily rows and the closed events behind time to close, in
 * typed arrays ordered by company then day. Days are counted from 1970-01-01 (UTC). The week and month rollups are
 * sums of the daily ones (migrations/0169), so the copy holds the days alone and sums periods as it answers.
 */

export interface CopiedCompany {
  id: string;
  slug: string;
  name: string;
  active: boolean;
  category: string;
  /** "dimension:slug" of every attached tag (companyPredicate reads it). */
  tags: Set<string>;
}

/** Companies read per statement while loading: the database serves other reads between two of them. */
const BATCH = 500;

const COMPANIES = `SELECT c.id::text AS id, c.slug, c.name, c.active, c.category::text AS category,
    coalesce((SELECT array_agg(t.dimension || ':' || t.slug) FROM company_tags ct JOIN tags t ON t.id = ct.tag_id
              WHERE ct.company_id = c.id), '{}') AS tags
  FROM companies c ORDER BY c.id`;

// Per company, its rows as one text of space-separated fields: a row object per rollup row made loading several
// times slower on PGlite.
const ROWS = `SELECT company_id::text AS c,
    string_agg(concat_ws(' ', day - DATE '1970-01-01', role_category, opened, reopened, closed, net, events), ' '
               ORDER BY day, role_category) AS t
  FROM hiring_daily WHERE company_id >= $1::uuid AND company_id <= $2::uuid GROUP BY company_id ORDER BY company_id`;

const CLOSES = `SELECT company_id::text AS c,
    string_agg(concat_ws(' ', (at AT TIME ZONE 'UTC')::date - DATE '1970-01-01', role_category, open_days), ' '
               ORDER BY at) AS t
  FROM job_events WHERE kind = 'closed' AND open_days IS NOT NULL AND company_id >= $1::uuid AND company_id <= $2::uuid
  GROUP BY company_id ORDER BY company_id`;

/** A growable column of numbers while loading (plain arrays of 450,000 rows held ~100 MB more RSS at the peak). */
class Column {
  length = 0;
  data: Int32Array | Float32Array;
  constructor(float = false) {
    this.data = float ? new Float32Array(4096) : new Int32Array(4096);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next =
        this.data instanceof Float32Array
          ? new Float32Array(this.length * 2)
          : new Int32Array(this.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  values(): Int32Array | Float32Array {
    return this.data.subarray(0, this.length);
  }
}

/** The rows of one company (or of a scope's sum), column by column. */
export interface RowColumns {
  day: Uint16Array;
  cat: Uint8Array;
  opened: Int32Array;
  reopened: Int32Array;
  closed: Int32Array;
  net: Int32Array;
  events: Int32Array;
}

export class RollupCopy {
  readonly companies: CopiedCompany[] = [];
  readonly byId = new Map<string, number>();
  readonly bySlug = new Map<string, number>();
  /** Role category -> code; `categories[code]` the other way. */
  readonly codes = new Map<string, number>();
  readonly categories: string[] = [];
  /** Company i's rows are [rowStart[i], rowStart[i + 1]), by day then category. */
  rowStart = new Uint32Array(1);
  rows: RowColumns = {
    day: new Uint16Array(0),
    cat: new Uint8Array(0),
    opened: new Int32Array(0),
    reopened: new Int32Array(0),
    closed: new Int32Array(0),
    net: new Int32Array(0),
    events: new Int32Array(0),
  };
  /** Company i's closed events with days open are [closeStart[i], closeStart[i + 1]), by time. */
  closeStart = new Uint32Array(1);
  closeDay = new Uint16Array(0);
  closeCat = new Uint8Array(0);
  openDays = new Float32Array(0);
  /** What the answers keep per copy (copy-answers.ts): sums per scope, lists of companies per filter. */
  readonly memo = new Map<string, unknown>();

  /** catalog_version the copy was read at (set by load). */
  version = 0;

  /**
   * `token`: the validity token the copy answers under; it moves to a newer token when catalog_version is found
   * unchanged (ReplicaSignalReads).
   */
  constructor(public token: string) {
    for (const c of ROLE_CATEGORIES) this.code(c);
  }

  code(category: string): number {
    let k = this.codes.get(category);
    if (k === undefined) {
      k = this.categories.length;
      if (k > 255) throw new Error('more than 256 role categories');
      this.codes.set(category, k);
      this.categories.push(category);
    }
    return k;
  }

  /** Bytes held by the typed arrays (the objects of the companies and the memo aside). */
  bytes(): number {
    const arrays = [this.rowStart, this.closeStart, this.closeDay, this.closeCat, this.openDays];
    return [...arrays, ...Object.values(this.rows)].reduce((n, a) => n + a.byteLength, 0);
  }

  /**
   * Reads everything, a batch of companies per statement (the database serves other reads in between). Every
   * transaction that writes the catalog bumps catalog_version: when it moved during the load, the batches may
   * mix two states, and the load answers undefined.
   */
  static async load(
    db: Queryable,
    token: string,
    yieldTurn: () => Promise<void>,
  ): Promise<RollupCopy | undefined> {
    const copy = new RollupCopy(token);
    const version = await readCatalogVersion(db);
    await copy.readCompanies(db);
    await copy.readRows(db, yieldTurn);
    if ((await readCatalogVersion(db)) !== version) return undefined;
    copy.version = version;
    return copy;
  }

  private async readCompanies(q: Queryable): Promise<void> {
    const rows = await q.query<Omit<CopiedCompany, 'tags'> & { tags: string[] }>(COMPANIES);
    for (const r of rows) {
      this.byId.set(r.id, this.companies.length);
      this.bySlug.set(r.slug, this.companies.length);
      this.companies.push({ ...r, tags: new Set(r.tags) });
    }
  }

  private async readRows(q: Queryable, yieldTurn: () => Promise<void>): Promise<void> {
    const n = this.companies.length;
    const rowStart = new Uint32Array(n + 1);
    const closeStart = new Uint32Array(n + 1);
    const cols = Array.from({ length: 9 }, () => new Column());
    const [day, cat, opened, reopened, closed, net, events, cDay, cCat] = cols as [Column, ...Column[]];
    const cOpen = new Column(true);
    for (let lo = 0; lo < n; lo += BATCH) {
      const hi = Math.min(n, lo + BATCH) - 1;
      const bounds = [(this.companies[lo] as CopiedCompany).id, (this.companies[hi] as CopiedCompany).id];
      for (const r of await q.query<{ c: string; t: string }>(ROWS, bounds)) {
        const i = this.byId.get(r.c);
        if (i === undefined) continue;
        const f = r.t.split(' ');
        for (let k = 0; k + 6 < f.length; k += 7) {
          day.push(Number(f[k]));
          (cat as Column).push(this.code(f[k + 1] as string));
          (opened as Column).push(Number(f[k + 2]));
          (reopened as Column).push(Number(f[k + 3]));
          (closed as Column).push(Number(f[k + 4]));
          (net as Column).push(Number(f[k + 5]));
          (events as Column).push(Number(f[k + 6]));
        }
        rowStart[i + 1] = day.length;
      }
      for (const r of await q.query<{ c: string; t: string }>(CLOSES, bounds)) {
        const i = this.byId.get(r.c);
        if (i === undefined) continue;
        const f = r.t.split(' ');
        for (let k = 0; k + 2 < f.length; k += 3) {
          (cDay as Column).push(Number(f[k]));
          (cCat as Column).push(this.code(f[k + 1] as string));
          cOpen.push(Number(f[k + 2]));
        }
        closeStart[i + 1] = (cDay as Column).length;
      }
      await yieldTurn();
    }
    // Companies without rows end where the one before them does.
    for (let i = 1; i <= n; i++) {
      rowStart[i] = Math.max(rowStart[i] as number, rowStart[i - 1] as number);
      closeStart[i] = Math.max(closeStart[i] as number, closeStart[i - 1] as number);
    }
    this.rowStart = rowStart;
    this.closeStart = closeStart;
    this.rows = {
      day: Uint16Array.from(day.values()),
      cat: Uint8Array.from((cat as Column).values()),
      opened: new Int32Array((opened as Column).values()),
      reopened: new Int32Array((reopened as Column).values()),
      closed: new Int32Array((closed as Column).values()),
      net: new Int32Array((net as Column).values()),
      events: new Int32Array((events as Column).values()),
    };
    this.closeDay = Uint16Array.from((cDay as Column).values());
    this.closeCat = Uint8Array.from((cCat as Column).values());
    this.openDays = new Float32Array((cOpen as Column).values());
  }
}
