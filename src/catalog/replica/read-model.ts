import type { Queryable } from '../../db/port.js';
import type { JobOrder } from '../fields/job-order.js';
import type { CatalogReadModel, Listing, Slice } from '../read-model.js';
import type { FacetCounts } from '../sql/facets.js';
import { getJob, type JobCard, JobRowReader } from '../sql/jobs.js';
import { SqlReadModel } from '../sql/sql-read-model.js';
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
import { CompanyListing } from './listings/company-listing.js';
import { JobListing } from './listings/job-listing.js';
import type { ReplicaGate } from './replica-gate.js';

/**
 * The read model served from the in-process replica: listings, search pages and company details from memory,
 * a job's detail from its row alone (descriptions are not kept in memory) with the company from memory. Every
 * read the replica cannot answer (not loaded yet, reloading, a filter it does not serve, a database collation it
 * cannot reproduce) is answered by the SQL read model, the reference. Tags and stats always are.
 */
export class ReplicaReadModel implements CatalogReadModel {
  private readonly jobs: JobListing;
  private readonly companies: CompanyListing;
  /** Job details read together when asked for together (see JobRowReader). */
  private readonly jobRows: JobRowReader;
  private readonly sql: CatalogReadModel;

  constructor(
    gate: ReplicaGate,
    private readonly db: Queryable,
  ) {
    this.jobs = new JobListing(gate);
    this.companies = new CompanyListing(gate, db);
    this.jobRows = new JobRowReader(db);
    this.sql = new SqlReadModel(db);
  }

  async listJobs(filters: JobFilters, page: Slice, order?: JobOrder): Promise<Listing<JobListItem>> {
    // The replica keeps the /jobs order only: another order is answered by SQL.
    if (order && order.by !== 'newest') return this.sql.listJobs(filters, page, order);
    return (await this.jobs.list(filters, page)) ?? this.sql.listJobs(filters, page);
  }

  orderJobIds(ids: readonly string[], order: JobOrder): Promise<string[]> {
    return this.sql.orderJobIds(ids, order);
  }

  async jobCards(ids: readonly string[]): Promise<Map<string, JobCard>> {
    return (await this.jobs.cards(ids)) ?? this.sql.jobCards(ids);
  }

  async listCompanies(filters: CompanyFilters, page: Slice): Promise<Listing<CompanyListItem>> {
    return (await this.companies.list(filters, page)) ?? this.sql.listCompanies(filters, page);
  }

  async jobFacets(
    filters: JobFilters,
    names: readonly string[],
    within?: readonly string[],
  ): Promise<FacetCounts> {
    return (await this.jobs.facets(filters, names, within)) ?? this.sql.jobFacets(filters, names, within);
  }

  async companyFacets(
    filters: CompanyFilters,
    names: readonly string[],
    within?: readonly string[],
  ): Promise<FacetCounts> {
    return (
      (await this.companies.facets(filters, names, within)) ?? this.sql.companyFacets(filters, names, within)
    );
  }

  async jobItemsByIds(ids: readonly string[]): Promise<JobListItem[]> {
    return (await this.jobs.itemsByIds(ids)) ?? this.sql.jobItemsByIds(ids);
  }

  async companyItemsByIds(ids: readonly string[]): Promise<CompanyListItem[]> {
    return (await this.companies.itemsByIds(ids)) ?? this.sql.companyItemsByIds(ids);
  }

  async getJob(id: string): Promise<JobDetail | undefined> {
    const companyOf = await this.companies.jobCompanies();
    return companyOf ? getJob(this.db, id, companyOf, this.jobRows) : this.sql.getJob(id);
  }

  async getCompany(idOrSlug: string): Promise<CompanyDetail | undefined> {
    return (await this.companies.detail(idOrSlug)) ?? this.sql.getCompany(idOrSlug);
  }

  listTags(): Promise<TagListing> {
    return this.sql.listTags();
  }

  stats(now: number): Promise<CatalogStats> {
    return this.sql.stats(now);
  }

  /** Builds the /jobs order once the replica has loaded (the replica load is already under way). */
  warm(): Promise<void> {
    return this.jobs.warm();
  }
}
