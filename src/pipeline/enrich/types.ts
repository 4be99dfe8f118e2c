/** Company facts extracted from a company's own pages (src/pipeline/enrich/). */
import type { CompanyCategory, TagDimension } from '../../catalog/types.js';

/** A fetched page handed to an enricher: the pipeline fetches, enrichers only read. */
export interface FetchedPage {
  url: string;
  html: string;
}

export interface CompanyTag {
  dimension: TagDimension;
  /** Display value, e.g. "Developer Tools". */
  value: string;
  /** Slug used in filters, e.g. "developer-tools". */
  slug: string;
}

export interface SocialLinks {
  linkedin: string | null;
  twitter: string | null;
  github: string | null;
  youtube: string | null;
  crunchbase: string | null;
}

/** Unknown values are null, never guessed. */
export interface CompanyFacts {
  domain: string;
  name: string | null;
  oneLiner: string | null;
  description: string | null;
  social: SocialLinks;
  category: CompanyCategory | null;
  /** At most a few per dimension; empty when nothing matched. */
  tags: CompanyTag[];
  /** Which enricher produced the facts. */
  source: 'heuristic' | 'llm';
}

export interface Enricher {
  /** `pages[0]` is the homepage; an about page may follow. Never throws for thin pages: fields become null. */
  enrich(domain: string, pages: FetchedPage[]): Promise<CompanyFacts>;
}
