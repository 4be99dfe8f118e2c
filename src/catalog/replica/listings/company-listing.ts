import type { Queryable } from '../../../db/port.js';
import type { FacetNames } from '../../fields/define.js';
import { companyPredicate } from '../../filters.js';
import { companyListItem, SLUG_RE, sortTagsByDimension, toCompanyDetail } from '../../sql/companies.js';
import { COMPANY_FACETS, type FacetCounts } from '../../sql/facets.js';
import type { JobCompany } from '../../sql/jobs.js';
import {
  type CompanyDetail,
  type CompanyFilters,
  type CompanyListItem,
  type CompanyTag,
  UUID_RE,
} from '../../types.js';
import type { CompanyAttrs } from '../catalog-replica.js';
import { setBits } from './bitset.js';
import { codePointCompare, eachFacet, tally, topCounts } from './facet-counts.js';

export { codePointCompare } from './facet-counts.js';

import type { ReplicaGate } from '../replica-gate.js';
import { PositionsMemo } from './positions-memo.js';

/**
 * Filters remembered at once and the positions they may hold together (4 MB). A tag-browsing mix has a few
 * thousand filters, and building each one's bitset and counting its bits again was a visible share of its CPU.
 */
const MEMO_ENTRIES = 4096;
const MEMO_POSITIONS = 1_000_000;

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
  /**
   * Bumped by every company change the index applies (told through its listener): the order, its sets and facet
   * keys are rebuilt when it moved, not on every job change (the index's own generation), each a costly rebuild.
   */
  private companiesChanged = 0;
  private orderGeneration = -1;
  private sets = new Map<string, Uint32Array>();
  private keys: (readonly string[])[][] = [];
  private keysGeneration = -1;
  /** Positions in the order passing each filter, in order, for the current order. */
  private readonly memo = new PositionsMemo(MEMO_ENTRIES, MEMO_POSITIONS);
  /** Whether the database orders text by code point; unknown until read once. */
  private codePointOrder: boolean | undefined;

  constructor(
    private readonly gate: ReplicaGate,
    private readonly db: Queryable,
  ) {
    const changed = () => {
      this.companiesChanged++;
    };
    gate.index.listen({ companyPut: changed, companyRemoved: changed, cleared: changed });
  }

  async list(
    filters: CompanyFilters,
    page: { limit: number; offset: number },
  ): Promise<{ items: CompanyListItem[]; total: number } | undefined> {
    if (!(await this.exact()) || !(await this.gate.open())) return undefined;
    const order = this.sorted();
    const items: CompanyListItem[] = [];
    const key = filterKey(filters);
    if (key === undefined) {
      for (const [id, a] of order.slice(page.offset, page.offset + page.limit)) items.push(item(id, a));
      return { items, total: order.length };
    }
    let positions = this.memo.get(key, this.orderGeneration);
    if (positions === undefined) {
      // A key names at least one filter, so there is a set.
      positions = setBits(this.matching(filters)!);
      this.memo.set(key, this.orderGeneration, positions);
    }
    const end = Math.min(positions.length, page.offset + page.limit);
    for (let i = page.offset; i < end; i++) {
      const [id, a] = order[positions[i]!]!;
      items.push(item(id, a));
    }
    return { items, total: positions.length };
  }

  /**
   * The filters as a bitset over the order (bit i: the i-th company in /companies order matches): tags OR within
   * a dimension, AND across dimensions and with the category, as companyPredicate and the SQL filter define them.
   * Undefined when nothing is filtered. A few hundred word operations instead of a predicate call per company.
   */
  private matching(filters: CompanyFilters): Uint32Array | undefined {
    const words = (this.order.length + 31) >>> 5;
    let acc: Uint32Array | undefined;
    const and = (set: Uint32Array) => {
      if (acc === undefined) acc = set.slice();
      else for (let w = 0; w < words; w++) acc[w]! &= set[w]!;
    };
    for (const [dimension, slugs] of Object.entries(filters.tags ?? {})) {
      if (slugs === undefined) continue;
      const any = new Uint32Array(words);
      for (const slug of slugs) {
        const set = this.sets.get(`${dimension}:${slug}`);
        if (set) for (let w = 0; w < words; w++) any[w]! |= set[w]!;
      }
      and(any);
    }
    if (filters.category !== undefined) {
      and(this.sets.get(`category:${filters.category}`) ?? new Uint32Array(words));
    }
    return acc;
  }

  /**
   * Counts of the facets `names` (see facet-counts.ts), of the companies `within` only when given (a search
   * shortlist); undefined when the replica cannot answer (the caller asks SQL).
   */
  async facets(
    filters: CompanyFilters,
    names: readonly string[],
    within?: readonly string[],
  ): Promise<FacetCounts | undefined> {
    if (!(await this.gate.open())) return undefined;
    const index = this.gate.index;
    const labels: FacetNames = { companySlug: (id) => index.companies.attributes(id)?.slug };
    if (within) {
      const listed = [...new Set(within)].flatMap((id) => index.companies.attributes(id) ?? []);
      const rows = (rest: CompanyFilters) => listed.filter(companyPredicate(rest));
      return eachFacet(COMPANY_FACETS, names, filters, (d, _f, rest) =>
        topCounts(tally(rows(rest).map((a) => d.facet.keys(a))), d.facet, labels),
      );
    }
    const order = this.sorted();
    const keys = this.facetKeys();
    return eachFacet(COMPANY_FACETS, names, filters, (d, f, rest) => {
      const column = keys[f]!;
      const set = this.matching(rest);
      const counts = new Map<string, number>();
      const count = (position: number) => {
        for (const k of column[position]!) counts.set(k, (counts.get(k) ?? 0) + 1);
      };
      if (set === undefined) for (let i = 0; i < order.length; i++) count(i);
      else for (const i of setBits(set)) count(i);
      return topCounts(counts, d.facet, labels);
    });
  }

  /**
   * Each company facet's keys by position in the order, made once per order: a facet count then reads them
   * instead of deriving every company's keys again (an array and a string per tag: garbage on every request,
   * whose collections were the tail of these requests).
   */
  private facetKeys(): (readonly string[])[][] {
    if (this.keysGeneration !== this.orderGeneration) {
      this.keys = COMPANY_FACETS.map((d) => this.order.map(([, a]) => d.facet.keys(a)));
      this.keysGeneration = this.orderGeneration;
    }
    return this.keys;
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

  /**
   * A company's detail by UUID or slug, from the replica; undefined when it cannot answer or does not know the
   * company (the caller then asks SQL, which also answers the 404).
   */
  async detail(idOrSlug: string): Promise<CompanyDetail | undefined> {
    const byId = UUID_RE.test(idOrSlug);
    if ((!byId && !SLUG_RE.test(idOrSlug)) || !(await this.gate.open())) return undefined;
    const index = this.gate.index;
    const key = idOrSlug.toLowerCase();
    const id = byId ? key : index.companyIdBySlug(key);
    const a = id === undefined ? undefined : index.companies.attributes(id);
    if (id === undefined || a === undefined) return undefined;
    return toCompanyDetail(id, a);
  }

  /** The company block of a job's detail, for a job whose row was read without it (see getJob). */
  async jobCompanies(): Promise<((companyId: string) => JobCompany | undefined) | undefined> {
    if (!(await this.gate.open())) return undefined;
    const companies = this.gate.index.companies;
    return (companyId) => {
      const a = companies.attributes(companyId);
      return (
        a && {
          id: companyId,
          name: a.name,
          slug: a.slug,
          domain: a.domain,
          oneLiner: a.oneLiner,
          website: a.detail.website,
        }
      );
    };
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
    if (this.orderGeneration !== this.companiesChanged) {
      this.order = [...index.companies.entries()].filter(([, a]) => a.active);
      this.order.sort(
        ([ida, a], [idb, b]) =>
          b.activeJobCount - a.activeJobCount ||
          codePointCompare(a.nameKey, b.nameKey) ||
          (ida < idb ? -1 : ida > idb ? 1 : 0),
      );
      this.sets = bitsets(this.order);
      this.memo.clear();
      this.orderGeneration = this.companiesChanged;
    }
    return this.order;
  }
}

/**
 * The filters as a memo key, the same for the same meaning (slugs OR'ed in any order); undefined when nothing is
 * filtered.
 */
function filterKey(filters: CompanyFilters): string | undefined {
  const dims = Object.entries(filters.tags ?? {})
    .filter((e): e is [string, string[]] => e[1] !== undefined)
    .map(([dimension, slugs]) => `${dimension}=${[...new Set(slugs)].sort().join(',')}`)
    .sort();
  if (filters.category !== undefined) dims.push(`category=${filters.category}`);
  return dims.length === 0 ? undefined : dims.join('&');
}

/** For each tag ("dimension:slug") and category ("category:name"), which positions of the order carry it. */
function bitsets(order: [string, CompanyAttrs][]): Map<string, Uint32Array> {
  const words = (order.length + 31) >>> 5;
  const sets = new Map<string, Uint32Array>();
  const mark = (key: string, i: number) => {
    let set = sets.get(key);
    if (set === undefined) {
      set = new Uint32Array(words);
      sets.set(key, set);
    }
    set[i >>> 5]! |= 1 << (i & 31);
  };
  order.forEach(([, a], i) => {
    for (const tag of a.tags) mark(tag, i);
    mark(`category:${a.category}`, i);
  });
  return sets;
}

/**
 * List items by attributes object: the replica replaces a company's attributes whenever it changes, so an item
 * built once stays right for as long as its attributes are in use (serialization only reads it).
 */
const builtItems = new WeakMap<CompanyAttrs, CompanyListItem>();

function item(id: string, a: CompanyAttrs): CompanyListItem {
  let it = builtItems.get(a);
  if (it === undefined) {
    it = companyListItem(id, a, sortTagsByDimension(a.tagList.map((t) => ({ ...t }) as CompanyTag)));
    builtItems.set(a, it);
  }
  return it;
}

/** Whether the database's default collation orders text by code point (C, POSIX, C.UTF-8). */
export function isCodePointCollation(collation: string): boolean {
  return /^(c|posix|c\.utf-?8)$/i.test(collation);
}
