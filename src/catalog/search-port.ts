import type { CompanyFilters, JobFilters } from './types.js';

/**
 * The search port the catalog calls for `?search=`: ranked ids of active rows, best first, with every filter
 * applied inside candidate retrieval. The catalog pages over the returned shortlist (at most `limit` ids) and
 * reads the page's rows from its read model. src/search implements it; the catalog never imports src/search.
 */
export interface CatalogSearch {
  searchJobs(query: string, filters: JobFilters, limit: number): Promise<string[]>;
  searchCompanies(query: string, filters: CompanyFilters, limit: number): Promise<string[]>;
  /** searchJobs with each job's score and each list's part of it. */
  explainJobs?(query: string, filters: JobFilters, limit: number): Promise<ScoredJob[]>;
  /** What of a job's title and company name the query matched (call after searchJobs for the same query). */
  highlighter?(query: string): Highlighter;
}

/** A ranked id with its fused score and, by list name (keyword, semantic, company, place, boost), its parts. */
export interface ScoredJob {
  id: string;
  score: number;
  parts?: Record<string, number>;
}

/** [start, end) character ranges (UTF-16 code units) of the words a search matched. */
export type Ranges = [number, number][];

export interface Highlight {
  title: Ranges;
  company: Ranges;
}

/** Marks a job's title and company-name words matched by a query. */
export type Highlighter = (title: string, company: string) => Highlight;
