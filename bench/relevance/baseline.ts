import MiniSearch from 'minisearch';
import type { Row } from './load.js';

/**
 * The baseline every judged set is also ranked with: MiniSearch, a well-kept client-side full-text engine, with
 * fuzzy matching (0.2 of a term's length) and prefix search on every term, over the same fields our keyword index
 * reads (job: title and company name; company: its name and one-liner), OR of the query's terms, BM25+.
 */
export class MiniSearchBaseline {
  private readonly jobs = new MiniSearch<Row>({ fields: ['title', 'company'], storeFields: [] });
  private readonly companies = new MiniSearch<Row>({ fields: ['title', 'text'], storeFields: [] });

  constructor(jobs: Row[], companies: Row[]) {
    this.jobs.addAll(jobs);
    this.companies.addAll(companies);
  }

  search(query: string, target: 'jobs' | 'companies', n: number): string[] {
    const index = target === 'jobs' ? this.jobs : this.companies;
    return index
      .search(query, { fuzzy: 0.2, prefix: true, boost: { title: 2 } })
      .slice(0, n)
      .map((r) => String(r.id));
  }
}
