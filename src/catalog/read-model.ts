import type { JobOrder } from './fields/job-order.js';
import type { FacetCounts } from './sql/facets.js';
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

export interface Slice {
  limit: number;
  offset: number;
}

export interface Listing<T> {
  items: T[];
  /** Matching rows; for a search, the shortlist size. */
  total: number;
  /** The facet counts asked for (see sql/facets.ts). */
  facets?: FacetCounts;
}

/**
 * Every catalog read, behind one port. SQL (sql/sql-read-model.ts) is the reference: it alone is a correct read model.
 * The in-process replica (replica/read-model.ts) answers the same reads from memory where it can and asks SQL
 * wherever it cannot (not loaded yet, reloading, a collation it cannot reproduce); it is chosen in one place, the
 * composition root (src/deps.ts, READ_MODEL).
 */
export interface CatalogReadModel {
  /**
   * One page of active jobs in the /jobs order, or in `order` (default newest), or with updated_since the delta
   * order, and the total.
   */
  listJobs(filters: JobFilters, page: Slice, order?: JobOrder): Promise<Listing<JobListItem>>;
  /** The active jobs of `ids` (a search shortlist) in `order`, newest or pay, instead of their rank. */
  orderJobIds(ids: readonly string[], order: JobOrder): Promise<string[]>;
  /** A listing page's extras of each job of `ids` (pay, first seen), by id. */
  jobCards(ids: readonly string[]): Promise<Map<string, JobCard>>;
  /** One page of active companies in the /companies order and the total. */
  listCompanies(filters: CompanyFilters, page: Slice): Promise<Listing<CompanyListItem>>;
  /**
   * Counts of the facets `names` over the jobs `filters` select, each without its own filter (see sql/facets.ts);
   * `within`: of these jobs only (a search shortlist).
   */
  jobFacets(filters: JobFilters, names: readonly string[], within?: readonly string[]): Promise<FacetCounts>;
  /** The same over active companies. */
  companyFacets(
    filters: CompanyFilters,
    names: readonly string[],
    within?: readonly string[],
  ): Promise<FacetCounts>;
  /** List items of active jobs, in the order of `ids` (a search page); ids not active are skipped. */
  jobItemsByIds(ids: readonly string[]): Promise<JobListItem[]>;
  /** List items of active companies, in the order of `ids`; others are skipped. */
  companyItemsByIds(ids: readonly string[]): Promise<CompanyListItem[]>;
  /** One job, active or not; undefined when there is no such job. */
  getJob(id: string): Promise<JobDetail | undefined>;
  /** One company by UUID or slug, active or not; undefined when there is no such company. */
  getCompany(idOrSlug: string): Promise<CompanyDetail | undefined>;
  listTags(): Promise<TagListing>;
  /** Catalog totals; `now` (ms) decides what "today" is. */
  stats(now: number): Promise<CatalogStats>;
  /** Prepares what the first reads after a start would otherwise pay for; resolves when done. */
  warm(): Promise<void>;
}
