import { LRUCache } from 'lru-cache';
import { postingUrl } from '../../../net/web-url.js';
import type { FacetNames } from '../../fields/define.js';
import { payRangeOf } from '../../fields/job-record.js';
import { jobMemoKey, replicaServes } from '../../filters.js';
import { isoFromMicros } from '../../micros.js';
import { type FacetCounts, JOB_FACETS } from '../../sql/facets.js';
import type { JobCard } from '../../sql/jobs.js';
import type { JobFilters, JobListItem, RoleCategory } from '../../types.js';
import type { CatalogReplica, CompanyAttrs, JobAttrs } from '../catalog-replica.js';
import { columnOf, type RowMasks } from '../job-columns.js';
import type { ReplicaGate } from '../replica-gate.js';
import { contenders, FacetCodes, jobFacetsWithin, topCounts } from './facet-counts.js';
import { OrderColumns } from './order-columns.js';
import { type FacetPass, OrderScan } from './order-scan.js';
import { PositionsMemo } from './positions-memo.js';

/**
 * GET /jobs without a search, served from the in-process catalog replica (src/catalog/replica/catalog-replica.ts)
 * instead of the database: on the embedded database every query runs on the event loop, and a listing was one to
 * three of them. ReplicaGate keeps it exact: the replica catches up with committed writes first.
 *
 * The /jobs order (posted_at descending in microseconds, as the database orders, then id descending) is kept as
 * columns: ids and attributes for building items, and typed arrays of what the filters read, so that filtering
 * is a scan of a few flat arrays rather than a walk over scattered objects and their cache misses (figures in
 * docs/performance.md, "Figures behind the replica"). Changes are merged into the order, not re-sorted. A filtered
 * listing is remembered per filter until the replica changes, so deeper pages of the same filter are slices.
 *
 * Until the replica has loaded (the first second or so after a start), or while it reloads, list() returns
 * undefined and the caller answers from SQL.
 */

/**
 * Filtered lists remembered at once (LRU), and the most positions they may hold together (8 MB). A browsing mix
 * has a few thousand filter combinations (roles, places, both, with remote): with a few hundred entries most of
 * them were scanned afresh; the positions bound is what sizes the memory.
 */
const MEMO_ENTRIES = 4096;
const COMPANY = columnOf('company');
const MEMO_POSITIONS = 2_000_000;
/**
 * Facet counts remembered at once (LRU), by the facets asked and the filters: the pages of one filtered listing
 * ask the same counts, and counting walks every row the other filters select (all 100k at the bench's size when
 * the only filter is the facet's own). An entry is at most 20 values per facet asked: the /jobs page's role
 * counts are ~1 KB, every job facet at once a few KB, so the memo holds a few MB at most.
 */
const FACET_MEMO_ENTRIES = 2048;

export class JobListing {
  private cols = new OrderColumns(0);
  private built = false;
  /** Jobs changed since the order was synced, with their posted_at in the order (undefined: not in it). */
  private readonly changed = new Map<string, number | undefined>();
  private orderGeneration = -1;
  /** Positions in the order passing each filter remembered, in order. */
  private readonly memo = new PositionsMemo(MEMO_ENTRIES, MEMO_POSITIONS);
  /** Facet counts by facets and filters, tagged with the replica's generation they were counted at. */
  private readonly facetMemo = new LRUCache<string, { generation: number; counts: FacetCounts }>({
    max: FACET_MEMO_ENTRIES,
  });
  private readonly index: CatalogReplica;
  /** Scans of the columns, with their inverted lists and reused scratch arrays. */
  private readonly scan = new OrderScan();
  /**
   * Company attributes by company code, filled as pages need them and dropped when the company changes: an array
   * read instead of a lookup by uuid in a map of thousands (~3 % of a fresh page's CPU).
   */
  private companies: (CompanyAttrs | undefined)[] = [];
  /** The codes of the order's facet columns (kept across rebuilds: codes are never reused). */
  private readonly facetCodes = new FacetCodes(JOB_FACETS.length);
  private readonly names: FacetNames;

  constructor(private readonly gate: ReplicaGate) {
    const index = gate.index;
    this.index = index;
    this.names = { companySlug: (id) => index.companies.attributes(id)?.slug };
    const track = (id: string, old: JobAttrs | undefined) => {
      // The first change since the sync knows where the job sits in the order (its posted_at then).
      if (this.built && !this.changed.has(id)) this.changed.set(id, old?.postedAtUs);
    };
    const companyChanged = (id: string) => {
      this.companies[index.jobCodes.code(COMPANY, id)] = undefined;
    };
    index.listen({
      jobPut: (id, _attrs, old) => track(id, old),
      jobRemoved: (id, old) => track(id, old),
      companyPut: companyChanged,
      companyRemoved: companyChanged,
      cleared: () => {
        this.built = false;
        this.cols = new OrderColumns(0);
        this.changed.clear();
        this.scan.clear();
        this.companies = [];
        this.memo.clear();
        this.facetMemo.clear();
      },
    });
  }

  /** One page and the total, or undefined when the replica cannot answer yet (the caller uses SQL). */
  async list(
    filters: JobFilters,
    page: { limit: number; offset: number },
  ): Promise<{ items: JobListItem[]; total: number } | undefined> {
    if (!replicaServes(filters) || !(await this.gate.open())) return undefined;
    this.syncOrder();
    const positions = this.matching(filters);
    const total = positions ? positions.length : this.cols.length;
    const end = Math.min(total, page.offset + page.limit);
    const items: JobListItem[] = [];
    for (let i = page.offset; i < end; i++) {
      const at = positions ? positions[i]! : i;
      const item = this.item(this.cols.ids[at]!, this.cols.attrs[at]!, this.cols.company[at]!);
      // A job whose company is not in the replica (not expected: a foreign key) is answered from SQL.
      if (!item) return undefined;
      items.push(item);
    }
    return { items, total };
  }

  /**
   * Counts of the facets `names` (see facet-counts.ts), of the jobs `within` only when given (a search shortlist);
   * undefined when the replica cannot answer (the caller asks SQL). Without `within`, a facet whose filter is not
   * given counts the listing's positions, and the others are counted together in one pass over the rows the other
   * filters select (OrderScan.countFacets), into reused count arrays: nothing of the order's size is allocated.
   */
  async facets(
    filters: JobFilters,
    names: readonly string[],
    within?: readonly string[],
  ): Promise<FacetCounts | undefined> {
    if (!replicaServes(filters) || !(await this.gate.open())) return undefined;
    if (within) return jobFacetsWithin(this.index, filters, names, within, this.names);
    this.syncOrder();
    const key = `${names.join(',')}|${jobMemoKey(filters)}`;
    const generation = this.index.generation;
    const hit = this.facetMemo.get(key);
    if (hit?.generation === generation) return hit.counts;
    const counts = this.countFacets(filters, names);
    if (counts === undefined) return undefined;
    this.facetMemo.set(key, { generation, counts });
    return counts;
  }

  /** facets() without a shortlist, counted afresh over the order. */
  private countFacets(filters: JobFilters, names: readonly string[]): FacetCounts | undefined {
    const codes = this.facetCodes;
    const values = filters as Record<string, unknown>;
    // The restrictions the facets asked lift (bit k: lifted[k], the filter keyed keys[k] alone), and the rest.
    const keys: string[] = [];
    const lifted: (RowMasks | null)[] = [];
    const kept: Record<string, unknown> = { ...values };
    const asked: (FacetPass & { f: number })[] = [];
    for (const [f, d] of JOB_FACETS.entries()) {
      if (!names.includes(d.facet.name)) continue;
      const own = values[d.key];
      let bit = 0;
      let relaxed: RowMasks | null = null;
      if (own !== undefined) {
        if (!keys.includes(d.key)) {
          keys.push(d.key);
          lifted.push(this.index.jobMasks({ [d.key]: own } as JobFilters));
          kept[d.key] = undefined;
        }
        bit = 1 << keys.indexOf(d.key);
        const rest = d.facet.without?.(own);
        if (rest !== undefined) relaxed = this.index.jobMasks({ [d.key]: rest } as JobFilters);
      }
      asked.push({
        f,
        column: this.cols.facets[f]!,
        counts: this.scan.counts(f, codes.size(f)),
        own: bit,
        relaxed,
      });
    }
    const plan = { selected: this.matching(filters), kept: this.index.jobMasks(kept as JobFilters), lifted };
    this.scan.countFacets(this.cols, plan, asked);
    const out: FacetCounts = {};
    for (const { f, counts } of asked) {
      const d = JOB_FACETS[f]!;
      const top = topCounts(
        contenders(counts, (code) => codes.key(f, code)),
        d.facet,
        this.names,
      );
      if (top === undefined) return undefined;
      out[d.facet.name] = top;
    }
    return out;
  }

  /**
   * List items of active jobs by id, in the order given (a search shortlist's page); ids not active are skipped,
   * as jobsByIds does. Undefined when the replica cannot answer.
   */
  async itemsByIds(ids: readonly string[]): Promise<JobListItem[] | undefined> {
    if (!(await this.gate.open())) return undefined;
    const items: JobListItem[] = [];
    for (const id of ids) {
      const a = this.index.jobs.attributes(id);
      if (!a) continue;
      const item = this.item(id, a, this.index.jobCodes.code(COMPANY, a.companyId));
      if (!item) return undefined;
      items.push(item);
    }
    return items;
  }

  /**
   * The cards of `ids` (a listing page's jobs: their pay and first sighting), or undefined when the replica cannot
   * answer or does not hold one of them (a closed job: the replica keeps active jobs only); the caller asks SQL.
   */
  async cards(ids: readonly string[]): Promise<Map<string, JobCard> | undefined> {
    if (!(await this.gate.open())) return undefined;
    const out = new Map<string, JobCard>();
    for (const id of ids) {
      const a = this.index.jobs.attributes(id);
      if (!a) return undefined;
      out.set(id, { salary: payRangeOf(a), firstSeenAt: isoFromMicros(a.firstSeenAtUs) });
    }
    return out;
  }

  /**
   * Builds the order once the replica has loaded, so the first listing after a start does not pay for the sort.
   */
  async warm(): Promise<void> {
    if (await this.gate.loaded()) this.syncOrder();
  }

  /** `companyCode`: the index's code of a.companyId. */
  private item(id: string, a: JobAttrs, companyCode: number): JobListItem | undefined {
    let company = this.companies[companyCode];
    if (company === undefined) {
      company = this.index.companies.attributes(a.companyId);
      if (!company) return undefined;
      this.companies[companyCode] = company;
    }
    return {
      id,
      title: a.title,
      company: { name: company.name, slug: company.slug },
      location: a.place,
      remote: a.remote,
      roleCategory: a.role as RoleCategory,
      url: postingUrl(a.url, company.domain),
      // The database driver truncates to milliseconds in the same way.
      postedAt: isoFromMicros(a.postedAtUs),
    };
  }

  /**
   * Positions of the jobs passing the filters (the replica side of their declarations, same meaning as
   * jobFilterSql), or null when no filter is set (every position).
   */
  private matching(f: JobFilters): Int32Array | null {
    const key = jobMemoKey(f);
    // Looked up before the masks are built: a location's mask tests every distinct location in the catalog.
    const hit = this.memo.get(key, this.index.generation);
    if (hit) return hit;
    const masks = this.index.jobMasks(f);
    if (masks === null) return null;
    const positions = this.scan.positions(this.cols, masks);
    this.memo.set(key, this.index.generation, positions);
    return positions;
  }

  /** Brings the order up to date with the replica: one full sort, then merges of what changed. */
  private syncOrder(): void {
    if (this.built && this.orderGeneration === this.index.generation) return;
    if (!this.built) this.build();
    else if (this.changed.size > 0) this.merge();
    this.changed.clear();
    this.orderGeneration = this.index.generation;
  }

  private build(): void {
    const ids: string[] = [];
    const attrs: JobAttrs[] = [];
    for (const [id, a] of this.index.jobs.entries()) {
      ids.push(id);
      attrs.push(a);
    }
    const posted = Float64Array.from(attrs, (a) => a.postedAtUs);
    const perm = Array.from(ids, (_id, i) => i);
    perm.sort((a, b) => posted[b]! - posted[a]! || idDesc(ids[a]!, ids[b]!));
    const cols = new OrderColumns(perm.length);
    for (let k = 0; k < perm.length; k++) this.put(cols, k, ids[perm[k]!]!, attrs[perm[k]!]!);
    this.cols = cols;
    this.built = true;
  }

  /**
   * Drops the changed jobs from their old places (found by binary search on the posted_at they had) and merges
   * their current versions in: O(n) copying of flat columns, no re-sort.
   */
  private merge(): void {
    const old = this.cols;
    const drop = new Uint8Array(old.length);
    let dropped = 0;
    const fresh: [string, JobAttrs][] = [];
    for (const [id, postedAtUs] of this.changed) {
      if (postedAtUs !== undefined) {
        const at = this.locate(postedAtUs, id);
        if (at >= 0 && drop[at] === 0) {
          drop[at] = 1;
          dropped++;
        }
      }
      const a = this.index.jobs.attributes(id);
      if (a) fresh.push([id, a]);
    }
    fresh.sort((x, y) => y[1].postedAtUs - x[1].postedAtUs || idDesc(x[0], y[0]));
    const cols = new OrderColumns(old.length - dropped + fresh.length);
    let k = 0;
    let f = 0;
    for (let i = 0; i < old.length; i++) {
      if (drop[i] === 1) continue;
      while (f < fresh.length) {
        const [id, a] = fresh[f]!;
        const before = a.postedAtUs > old.posted[i]! || (a.postedAtUs === old.posted[i] && id > old.ids[i]!);
        if (!before) break;
        this.put(cols, k++, id, a);
        f++;
      }
      cols.copy(k++, old, i);
    }
    for (; f < fresh.length; f++) this.put(cols, k++, fresh[f]![0], fresh[f]![1]);
    this.cols = cols;
  }

  /** The position of `id`, which sits in the order with this posted_at; -1 if it is not there. */
  private locate(postedAtUs: number, id: string): number {
    const { posted, ids } = this.cols;
    let lo = 0;
    let hi = posted.length;
    // First position not ahead of (postedAtUs, id) in the order.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const ahead = posted[mid]! > postedAtUs || (posted[mid] === postedAtUs && ids[mid]! > id);
      if (ahead) lo = mid + 1;
      else hi = mid;
    }
    return lo < ids.length && ids[lo] === id ? lo : -1;
  }

  private put(cols: OrderColumns, k: number, id: string, a: JobAttrs): void {
    cols.put(k, id, a, this.index.jobCodes, this.facetCodes);
  }
}

/** id descending: uuids compare as their lower-case text, as the database compares them. */
function idDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}
