import type { Queryable } from '../db/port.js';
import { type CompanyAttrs, companyPredicate } from '../search/catalog-index.js';
import { sortTagsByDimension } from './companies.js';
import type { ReplicaGate } from './replica-gate.js';
import type { CompanyFilters, CompanyListItem, CompanyTag } from './types.js';

/**
 * GET /companies without a search, served from the in-process replica (see JobListing for why and ReplicaGate
 * for how it stays exact). A catalog has thousands of companies, not hundreds of thousands: the active ones are
 * kept sorted in the /companies order (active_job_count descending, lower(name), id) and a listing is one pass.
 *
 * The name tie-break compares lower(name) as the database computed it, in code point order: the order of the
 * C and C.UTF-8 collations (PGlite's, and this project's servers'). Under any other collation the database's
 * order could differ, so listings are then answered by SQL (`exact` false).
 */
export class CompanyListing {
  private order: [string, CompanyAttrs][] = [];
  private orderGeneration = -1;
  /** Whether the database orders text by code point; unknown until read once. */
  private codePointOrder: boolean | undefined;

  constructor(
    private readonly gate: ReplicaGate,
    private readonly db: Queryable,
  ) {}

  async list(
    filters: CompanyFilters,
    page: { limit: number; offset: number },
  ): Promise<{ items: CompanyListItem[]; total: number } | undefined> {
    if (!(await this.exact()) || !(await this.gate.open())) return undefined;
    const pass = companyPredicate(filters);
    const items: CompanyListItem[] = [];
    let total = 0;
    for (const [id, a] of this.sorted()) {
      if (!pass(a)) continue;
      if (total >= page.offset && items.length < page.limit) items.push(item(id, a));
      total++;
    }
    return { items, total };
  }

  /** List items of active companies by id, in the order given (a search page); others are skipped. */
  async itemsByIds(ids: readonly string[]): Promise<CompanyListItem[] | undefined> {
    if (!(await this.gate.open())) return undefined;
    const items: CompanyListItem[] = [];
    for (const id of ids) {
      const a = this.gate.index.companies.attributes(id);
      if (a?.active) items.push(item(id, a));
    }
    return items;
  }

  /** Reads the database's default collation once (a failed read answers from SQL and is retried). */
  private async exact(): Promise<boolean> {
    if (this.codePointOrder === undefined) {
      const [row] = await this.db
        .query<{ collation: string }>(
          'SELECT datcollate AS collation FROM pg_database WHERE datname = current_database()',
        )
        .catch(() => [undefined]);
      if (!row) return false;
      this.codePointOrder = isCodePointCollation(row.collation);
    }
    return this.codePointOrder;
  }

  private sorted(): [string, CompanyAttrs][] {
    const index = this.gate.index;
    if (this.orderGeneration !== index.generation) {
      this.order = [...index.companies.entries()].filter(([, a]) => a.active);
      this.order.sort(
        ([ida, a], [idb, b]) =>
          b.activeJobCount - a.activeJobCount ||
          codePointCompare(a.nameKey, b.nameKey) ||
          (ida < idb ? -1 : ida > idb ? 1 : 0),
      );
      this.orderGeneration = index.generation;
    }
    return this.order;
  }
}

function item(id: string, a: CompanyAttrs): CompanyListItem {
  return {
    id,
    name: a.name,
    slug: a.slug,
    domain: a.domain,
    oneLiner: a.oneLiner,
    tags: sortTagsByDimension(a.tagList.map((t) => ({ ...t }) as CompanyTag)),
  };
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

/** Whether the database's default collation orders text by code point (C, POSIX, C.UTF-8). */
export function isCodePointCollation(collation: string): boolean {
  return /^(c|posix|c\.utf-?8)$/i.test(collation);
}
