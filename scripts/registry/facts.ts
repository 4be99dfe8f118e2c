/**
 * What the registry build takes from its sources: facts, never code or prose. A source yields companies known
 * as AI companies with their domain (from an AI list or a name that states the domain), job boards with the
 * display name a board list gives them, AI hints (a board key an AI list names, with the vendor it says), and the
 * domains a board's saved postings link to.
 */
import type { CompanyCategory } from '../../src/catalog/vocabulary.js';
import type { RegistryVendor } from '../../src/registry/schema.js';

export interface CompanyFact {
  source: string;
  name: string;
  domain: string;
  category: CompanyCategory;
}

export interface BoardFact {
  source: string;
  vendor: RegistryVendor;
  board: string;
  /** The company's display name in the list; null when the list only repeats the identifier. */
  name: string | null;
}

export interface AiHint {
  source: string;
  key: string;
  vendor: RegistryVendor | null;
}

/** A domain that most of a board's saved postings link to: the board's own words say whose it is. */
export interface PostingLink {
  source: string;
  vendor: RegistryVendor;
  board: string;
  domain: string;
  /** Postings of the board that link to the domain, and all postings the source saved for the board. */
  linking: number;
  postings: number;
}

export interface Facts {
  companies: CompanyFact[];
  boards: BoardFact[];
  hints: AiHint[];
  links: PostingLink[];
  /** Domains two or more of a board's saved postings link to, fewer than half of them: a tie-breaker only. */
  mentions?: PostingLink[];
}

export const noFacts = (): Facts => ({ companies: [], boards: [], hints: [], links: [] });

/** Lower-case letters and digits only: how names, identifiers and domain labels are compared. */
export function key(s: string): string {
  return s
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}
