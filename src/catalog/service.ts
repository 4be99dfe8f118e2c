import type { Queryable } from '../db/port.js';
import type { SearchService } from '../search/types.js';
import { companiesByIds, getCompany, listCompanies } from './companies.js';
import type { CompanyListing } from './company-listing.js';
import type { JobListing } from './job-listing.js';
import { getJob, JobRowReader, jobsByIds, listJobs } from './jobs.js';
import { getStats } from './stats.js';
import { listTags } from './tags.js';
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

export interface CatalogServiceOptions {
  db: Queryable;
  search: SearchService;
  /** Injected wall clock in ms: decides what "today" means for stats. */
  now: () => number;
  /** Size of a search shortlist (spec: 100 for every tier). */
  shortlist: number;
  /** Listings from the in-process replica; SQL answers whenever they cannot (not loaded yet, reloading). */
  jobListing?: JobListing;
  companyListing?: CompanyListing;
}

export interface Slice {
  limit: number;
  offset: number;
}

export interface Listing<T> {
  items: T[];
  /** Matching rows; for a search, the shortlist size. */
  total: number;
}

/**
 * The catalog's read side. Without a search it pages over the in-process replica's job order (or the filtered
 * table until the replica is loaded); with one it asks the
 * search port for a ranked shortlist (filters applied inside retrieval), slices the page out of it and fetches
 * only those rows, keeping the rank order.
 */
export class CatalogService {
  /** Job details read together when asked for together (see JobRowReader). */
  private readonly jobRows: JobRowReader;

  constructor(private readonly opts: CatalogServiceOptions) {
    this.jobRows = new JobRowReader(opts.db);
  }

  async listJobs(
    filters: JobFilters,
    search: string | undefined,
    page: Slice,
    opts: { explain?: boolean } = {},
  ): Promise<Listing<JobListItem>> {
    const { db } = this.opts;
    if (search === undefined) {
      return (await this.opts.jobListing?.list(filters, page)) ?? listJobs(db, filters, page);
    }
    const port = this.opts.search;
    const scored =
      opts.explain && port.explainJobs
        ? await port.explainJobs(search, filters, this.opts.shortlist)
        : undefined;
    const ids = scored?.map((s) => s.id) ?? (await port.searchJobs(search, filters, this.opts.shortlist));
    const pageIds = ids.slice(page.offset, page.offset + page.limit);
    const rows = (await this.opts.jobListing?.itemsByIds(pageIds)) ?? (await jobsByIds(db, pageIds));
    const mark = port.highlighter?.(search);
    const scores = new Map(scored?.map((s) => [s.id, s]));
    // New objects: the listing's items may be shared by every page that shows them.
    const items = rows.map((item): JobListItem => {
      const s = scores.get(item.id);
      return {
        ...item,
        ...(mark && { highlight: mark(item.title, item.company.name) }),
        ...(s && { explain: { score: s.score, lists: s.parts ?? {} } }),
      };
    });
    return { items, total: ids.length };
  }

  async listCompanies(
    filters: CompanyFilters,
    search: string | undefined,
    page: Slice,
  ): Promise<Listing<CompanyListItem>> {
    const { db } = this.opts;
    if (search === undefined) {
      return (await this.opts.companyListing?.list(filters, page)) ?? listCompanies(db, filters, page);
    }
    const ids = await this.opts.search.searchCompanies(search, filters, this.opts.shortlist);
    const pageIds = ids.slice(page.offset, page.offset + page.limit);
    const items =
      (await this.opts.companyListing?.itemsByIds(pageIds)) ?? (await companiesByIds(db, pageIds));
    return { items, total: ids.length };
  }

  /** Prepares in-memory listings after a start (the search index load is already under way). */
  warm(): Promise<void> {
    return this.opts.jobListing?.warm() ?? Promise.resolve();
  }

  /** The job's row from the database (descriptions are not kept in memory), its company from the replica. */
  async getJob(id: string): Promise<JobDetail | undefined> {
    return getJob(this.opts.db, id, await this.opts.companyListing?.jobCompanies(), this.jobRows);
  }

  async getCompany(idOrSlug: string): Promise<CompanyDetail | undefined> {
    return (await this.opts.companyListing?.detail(idOrSlug)) ?? getCompany(this.opts.db, idOrSlug);
  }

  listTags(): Promise<TagListing> {
    return listTags(this.opts.db);
  }

  stats(): Promise<CatalogStats> {
    return getStats(this.opts.db, this.opts.now());
  }
}
