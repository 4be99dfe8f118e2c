import { readCatalogVersion } from '../../catalog/version.js';
import { ROLE_CATEGORIES } from '../../catalog/vocabulary.js';
import type { Queryable } from '../../db/port.js';

/**
 * A compact copy of the hiring rollups, read from the database at one catalog version: every company (listed or
 * not, for lookups and company filters), its hiring_daily rows and the closed events behind time to close, in
 * typed arrays ordered by company then day, and the catalog's rows summed per day and category (what
 * hiring_daily_all holds). Days are counted from 1970-01-01 (UTC).
 */

export interface SnapshotCompany {
  id: string;
  slug: string;
  name: string;
  active: boolean;
  category: string;
  /** "dimension:slug" of every attached tag (companyPredicate reads it). */
  tags: Set<string>;
}

/** Companies read per statement while loading: the database serves other reads between two of them. */
const BATCH = 250;

const COMPANIES = `SELECT c.id::text AS id, c.slug, c.name, c.active, c.category::text AS category,
    coalesce((SELECT array_agg(t.dimension || ':' || t.slug) FROM company_tags ct JOIN tags t ON t.id = ct.tag_id
              WHERE ct.company_id = c.id), '{}') AS tags
  FROM companies c ORDER BY c.id`;

// Per company, its rows as one text of space-separated fields: a row object per rollup row made loading several
// times slower on PGlite.
const ROWS = `SELECT company_id::text AS c,
    string_agg(concat_ws(' ', day - DATE '1970-01-01', role_category, opened, reopened, closed, net), ' '
               ORDER BY day, role_category) AS t
  FROM hiring_daily WHERE company_id >= $1::uuid AND company_id <= $2::uuid GROUP BY company_id ORDER BY company_id`;

const CLOSES = `SELECT company_id::text AS c,
    string_agg(concat_ws(' ', (at AT TIME ZONE 'UTC')::date - DATE '1970-01-01', role_category, open_days), ' '
               ORDER BY at) AS t
  FROM job_events WHERE kind = 'closed' AND open_days IS NOT NULL AND company_id >= $1::uuid AND company_id <= $2::uuid
  GROUP BY company_id ORDER BY company_id`;

const int32 = (n: number) => new Int32Array(n);

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
        this.data instanceof Float32Array ? new Float32Array(this.length * 2) : int32(this.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  values(): Int32Array | Float32Array {
    return this.data.subarray(0, this.length);
  }
  int32(): Int32Array<ArrayBuffer> {
    return new Int32Array(this.values());
  }
  float32(): Float32Array<ArrayBuffer> {
    return new Float32Array(this.values());
  }
}
const uint8 = (n: number) => new Uint8Array(n);

export class HiringSnapshot {
  readonly companies: SnapshotCompany[] = [];
  readonly byId = new Map<string, number>();
  readonly bySlug = new Map<string, number>();
  /** Role category -> code; `categories[code]` the other way. */
  readonly codes = new Map<string, number>();
  readonly categories: string[] = [];
  /** Company i's rows are [rowStart[i], rowStart[i + 1]), by day then category. */
  rowStart = new Uint32Array(1);
  day = new Uint16Array(0);
  cat = new Uint8Array(0);
  opened = new Int32Array(0);
  reopened = new Int32Array(0);
  closed = new Int32Array(0);
  net = new Int32Array(0);
  /** Company i's closed events with days open are [closeStart[i], closeStart[i + 1]), by time. */
  closeStart = new Uint32Array(1);
  closeDay = new Uint16Array(0);
  closeCat = new Uint8Array(0);
  openDays = new Float32Array(0);
  /** The companies of each company filter asked for (snapshot-answers.ts). */
  readonly members = new Map<string, Int32Array>();
  /** Every company's rows summed: day (from firstDay) x category code, and whether a day has any row. */
  firstDay = 0;
  lastDay = -1;
  all = { opened: int32(0), reopened: int32(0), closed: int32(0), net: int32(0), has: uint8(0) };

  /** `token`: the catalog version the load began at; the snapshot answers only while it is current. */
  constructor(readonly token: string) {
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

  /** Bytes held by the typed arrays (the objects of the companies aside). */
  bytes(): number {
    const arrays = [this.rowStart, this.day, this.cat, this.opened, this.reopened, this.closed, this.net];
    const closes = [this.closeStart, this.closeDay, this.closeCat, this.openDays];
    const all = Object.values(this.all);
    return [...arrays, ...closes, ...all].reduce((n, a) => n + a.byteLength, 0);
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
  ): Promise<HiringSnapshot | undefined> {
    const snap = new HiringSnapshot(token);
    const version = await readCatalogVersion(db);
    await snap.readCompanies(db);
    await snap.readRows(db, yieldTurn);
    if ((await readCatalogVersion(db)) !== version) return undefined;
    snap.sumCatalog();
    return snap;
  }

  private async readCompanies(q: Queryable): Promise<void> {
    const rows = await q.query<Omit<SnapshotCompany, 'tags'> & { tags: string[] }>(COMPANIES);
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
    const [day, cat, opened, reopened, closed, net, cDay, cCat] = Array.from(
      { length: 8 },
      () => new Column(),
    ) as [Column, Column, Column, Column, Column, Column, Column, Column];
    const cOpen = new Column(true);
    for (let lo = 0; lo < n; lo += BATCH) {
      const hi = Math.min(n, lo + BATCH) - 1;
      const bounds = [(this.companies[lo] as SnapshotCompany).id, (this.companies[hi] as SnapshotCompany).id];
      for (const r of await q.query<{ c: string; t: string }>(ROWS, bounds)) {
        const i = this.byId.get(r.c);
        if (i === undefined) continue;
        const f = r.t.split(' ');
        for (let k = 0; k + 5 < f.length; k += 6) {
          day.push(Number(f[k]));
          cat.push(this.code(f[k + 1] as string));
          opened.push(Number(f[k + 2]));
          reopened.push(Number(f[k + 3]));
          closed.push(Number(f[k + 4]));
          net.push(Number(f[k + 5]));
        }
        rowStart[i + 1] = day.length;
      }
      for (const r of await q.query<{ c: string; t: string }>(CLOSES, bounds)) {
        const i = this.byId.get(r.c);
        if (i === undefined) continue;
        const f = r.t.split(' ');
        for (let k = 0; k + 2 < f.length; k += 3) {
          cDay.push(Number(f[k]));
          cCat.push(this.code(f[k + 1] as string));
          cOpen.push(Number(f[k + 2]));
        }
        closeStart[i + 1] = cDay.length;
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
    this.day = Uint16Array.from(day.values());
    this.cat = Uint8Array.from(cat.values());
    this.opened = opened.int32();
    this.reopened = reopened.int32();
    this.closed = closed.int32();
    this.net = net.int32();
    this.closeDay = Uint16Array.from(cDay.values());
    this.closeCat = Uint8Array.from(cCat.values());
    this.openDays = cOpen.float32();
  }

  /** The catalog's rows per day and category, over every company on record. */
  private sumCatalog(): void {
    const n = this.day.length;
    if (n === 0) return;
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < n; k++) {
      const d = this.day[k] as number;
      if (d < first) first = d;
      if (d > last) last = d;
    }
    this.firstDay = first;
    this.lastDay = last;
    const span = last - first + 1;
    const w = this.categories.length;
    const all = {
      opened: int32(span * w),
      reopened: int32(span * w),
      closed: int32(span * w),
      net: int32(span * w),
      has: uint8(span),
    };
    for (let k = 0; k < n; k++) {
      const d = (this.day[k] as number) - first;
      const x = d * w + (this.cat[k] as number);
      all.opened[x] = (all.opened[x] as number) + (this.opened[k] as number);
      all.reopened[x] = (all.reopened[x] as number) + (this.reopened[k] as number);
      all.closed[x] = (all.closed[x] as number) + (this.closed[k] as number);
      all.net[x] = (all.net[x] as number) + (this.net[k] as number);
      all.has[d] = 1;
    }
    this.all = all;
  }
}
