import type { JobOrder } from './fields/job-order.js';
import type { CatalogReadModel, Listing, Slice } from './read-model.js';
import type { CatalogSearch } from './search-port.js';
import type { JobCard } from './sql/jobs.js';
import type {
  CatalogStats,
  CompanyDetail,
  CompanyFilters,
  CompanyListItem,
  JobDetail,
  JobFilters,
  JobListItem,
  TagListing,
} from './types.js';

export type { Listing, Slice } from './read-model.js';

export interface CatalogServiceOptions {
  /** Where every read is answered: SQL, or the in-process replica in front of it (chosen in src/deps.ts). */
  read: CatalogReadModel;
  search: CatalogSearch;
  /** Injected wall clock in ms: decides what "today" means for stats. */
  now: () => number;
  /** Size of a search shortlist (100 for every tier). */
  shortlist: number;
}

/**
 * The catalog's read side. Without a search it pages over the read model's listing; with one it asks the search
 * port for a ranked shortlist (filters applied inside retrieval), slices the page out of it and reads only those
 * rows, keeping the rank order.
 */
export class CatalogService {
  constructor(private readonly opts: CatalogServiceOptions) {}

  /** The injected clock (what "today" and max_age_days count from). */
  now(): number {
    return this.opts.now();
  }

  async listJobs(
    filters: JobFilters,
    search: string | undefined,
    page: Slice,
    opts: { explain?: boolean; facets?: readonly string[]; order?: JobOrder } = {},
  ): Promise<Listing<JobListItem>> {
    const read = this.opts.read;
    if (search === undefined) {
      const [listing, facets] = await Promise.all([
        read.listJobs(filters, page, opts.order),
        opts.facets && read.jobFacets(filters, opts.facets),
      ]);
      return facets ? { ...listing, facets } : listing;
    }
    const port = this.opts.search;
    const scored =
      opts.explain && port.explainJobs
        ? await port.explainJobs(search, filters, this.opts.shortlist)
        : undefined;
    const ranked = scored?.map((s) => s.id) ?? (await port.searchJobs(search, filters, this.opts.shortlist));
    // Another order than relevance sorts the shortlist: the same matches, newest or best paid first.
    const order = opts.order;
    const ids = order && order.by !== 'relevance' ? await read.orderJobIds(ranked, order) : ranked;
    const rows = await this.opts.read.jobItemsByIds(ids.slice(page.offset, page.offset + page.limit));
    const mark = port.highlighter?.(search);
    const scores = new Map(scored?.map((s) => [s.id, s]));
    // New objects: the read model's items may be shared by every page that shows them.
    const items = rows.map((item): JobListItem => {
      const s = scores.get(item.id);
      return {
        ...item,
        ...(mark && { highlight: mark(item.title, item.company.name) }),
        ...(s && { explain: { score: s.score, lists: s.parts ?? {} } }),
      };
    });
    const facets = opts.facets && (await read.jobFacets(filters, opts.facets, ids));
    return { items, total: ids.length, ...(facets && { facets }) };
  }

  async listCompanies(
    filters: CompanyFilters,
    search: string | undefined,
    page: Slice,
    facetNames?: readonly string[],
  ): Promise<Listing<CompanyListItem>> {
    const read = this.opts.read;
    if (search === undefined) {
      const [listing, facets] = await Promise.all([
        read.listCompanies(filters, page),
        facetNames && read.companyFacets(filters, facetNames),
      ]);
      return facets ? { ...listing, facets } : listing;
    }
    const ids = await this.opts.search.searchCompanies(search, filters, this.opts.shortlist);
    const items = await read.companyItemsByIds(ids.slice(page.offset, page.offset + page.limit));
    const facets = facetNames && (await read.companyFacets(filters, facetNames, ids));
    return { items, total: ids.length, ...(facets && { facets }) };
  }

  /** Prepares the read model after a start (the replica load is already under way). */
  warm(): Promise<void> {
    return this.opts.read.warm();
  }

  /** A listing page's extras of its jobs (pay, first seen), by id. */
  jobCards(ids: readonly string[]): Promise<Map<string, JobCard>> {
    return this.opts.read.jobCards(ids);
  }

  getJob(id: string): Promise<JobDetail | undefined> {
    return this.opts.read.getJob(id);
  }

  getCompany(idOrSlug: string): Promise<CompanyDetail | undefined> {
    return this.opts.read.getCompany(idOrSlug);
  }

  listTags(): Promise<TagListing> {
    return this.opts.read.listTags();
  }

  stats(): Promise<CatalogStats> {
    return this.opts.read.stats(this.opts.now());
  }
}
