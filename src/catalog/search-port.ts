import type { CompanyFilters, JobFilters } from './types.js';

/**
 * The search port the catalog calls for `?search=`: ranked ids of active rows, best first, with every filter
 * applied inside candidate retrieval. The catalog pages over the returned shortlist (at most `limit` ids) and
 * reads the page's rows from its read model. src/search implements it; the catalog never imports src/search.
 */
export interface CatalogSearch {
  searchJobs(query: string, filters: JobFilters, limit: number): Promise<string[]>;
  searchCompanies(query: string, filters: CompanyFilters, limit: number): Promise<string[]>;
}
