import type { Queryable } from '../../db/port.js';
import type { JobOrder } from '../fields/job-order.js';
import type { CatalogReadModel, Listing, Slice } from '../read-model.js';
import { listTags } from '../tags.js';
import type {
  CatalogStats,
  CompanyDetail,
  CompanyFilters,
  CompanyListItem,
  JobDetail,
  JobFilters,
  JobListItem,
  TagListing,
} from '../types.js';
import { companiesByIds, getCompany, listCompanies } from './companies.js';
import { companyFacets, type FacetCounts, jobFacets } from './facets.js';
import { getJob, type JobCard, jobCardsByIds, jobsByIds, listJobs, orderJobIds } from './jobs.js';
import { getStats } from './stats.js';

/** The reference read model: every read is a query (jobs.ts, companies.ts, tags.ts, stats.ts). */
export class SqlReadModel implements CatalogReadModel {
  constructor(private readonly db: Queryable) {}

  listJobs(filters: JobFilters, page: Slice, order?: JobOrder): Promise<Listing<JobListItem>> {
    return listJobs(this.db, filters, page, order);
  }

  orderJobIds(ids: readonly string[], order: JobOrder): Promise<string[]> {
    return orderJobIds(this.db, ids, order);
  }

  jobCards(ids: readonly string[]): Promise<Map<string, JobCard>> {
    return jobCardsByIds(this.db, ids);
  }

  listCompanies(filters: CompanyFilters, page: Slice): Promise<Listing<CompanyListItem>> {
    return listCompanies(this.db, filters, page);
  }

  jobFacets(filters: JobFilters, names: readonly string[], within?: readonly string[]): Promise<FacetCounts> {
    return jobFacets(this.db, filters, names, within);
  }

  companyFacets(
    filters: CompanyFilters,
    names: readonly string[],
    within?: readonly string[],
  ): Promise<FacetCounts> {
    return companyFacets(this.db, filters, names, within);
  }

  jobItemsByIds(ids: readonly string[]): Promise<JobListItem[]> {
    return jobsByIds(this.db, ids);
  }

  companyItemsByIds(ids: readonly string[]): Promise<CompanyListItem[]> {
    return companiesByIds(this.db, ids);
  }

  getJob(id: string): Promise<JobDetail | undefined> {
    return getJob(this.db, id);
  }

  getCompany(idOrSlug: string): Promise<CompanyDetail | undefined> {
    return getCompany(this.db, idOrSlug);
  }

  listTags(): Promise<TagListing> {
    return listTags(this.db);
  }

  stats(now: number): Promise<CatalogStats> {
    return getStats(this.db, now);
  }

  warm(): Promise<void> {
    return Promise.resolve();
  }
}
