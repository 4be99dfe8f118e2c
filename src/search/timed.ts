import type { CompanyFilters, JobFilters } from '../catalog/types.js';
import type { Metrics } from '../metrics.js';
import type { SearchService } from './types.js';

/** Records every search's latency in the search histogram, by kind, without the catalog knowing about metrics. */
export function timedSearch(inner: SearchService, metrics: Metrics, retriever: string): SearchService {
  const time = async <T>(kind: string, run: () => Promise<T>): Promise<T> => {
    const end = metrics.searchDuration.startTimer({ kind, retriever });
    try {
      return await run();
    } finally {
      end();
    }
  };
  return {
    searchJobs: (q: string, f: JobFilters, limit: number) =>
      time('jobs', () => inner.searchJobs(q, f, limit)),
    searchCompanies: (q: string, f: CompanyFilters, limit: number) =>
      time('companies', () => inner.searchCompanies(q, f, limit)),
    ...(inner.explainJobs && {
      explainJobs: (q: string, f: JobFilters, limit: number) =>
        time('jobs', () => inner.explainJobs!(q, f, limit)),
    }),
    ...(inner.highlighter && { highlighter: inner.highlighter.bind(inner) }),
  };
}
