import type { CompanyFilters, JobFilters } from '../catalog/types.js';

/**
 * The search port the catalog calls for `?search=`: ranked ids of active rows, best first, with every filter
 * applied inside candidate retrieval. The catalog pages over the returned shortlist (at most `limit` ids).
 */
export interface SearchService {
  searchJobs(query: string, filters: JobFilters, limit: number): Promise<string[]>;
  searchCompanies(query: string, filters: CompanyFilters, limit: number): Promise<string[]>;
}
