/**
 * Vendor-neutral shapes of job-board ingestion. Adapters (one module per vendor in src/sources/) map a
 * vendor's wire format to `NormalizedPosting`; vendor types never leave the adapter.
 */
import type { HttpClient } from '../net/types.js';
import type { Workplace } from './normalize/workplace.js';

export const PROVIDERS = [
  'greenhouse',
  'lever',
  'ashby',
  'workable',
  'smartrecruiters',
  'recruitee',
  'workday',
  'personio',
  'bamboohr',
  'breezy',
  'pinpoint',
  'gem',
  'rippling',
] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A job board of one company on one vendor. */
export interface BoardRef {
  provider: Provider;
  /** The vendor's board identifier: Greenhouse board token, Lever site, Ashby board name, Workable subdomain
   * (or numeric account id), SmartRecruiters company identifier, Recruitee, Personio, BambooHR, Breezy and Pinpoint
   * subdomains, Workday `{tenant}.wd{N}/{site}`, Gem and Rippling board names. Case preserved. */
  token: string;
  /** Human-facing board URL, e.g. https://boards.greenhouse.io/acme. */
  url: string;
}

export interface Salary {
  /** ISO 4217, upper case, when stated. */
  currency: string | null;
  min: number | null;
  max: number | null;
  /** 'year' | 'month' | 'hour' | ... as stated by the vendor, lower case; null when unknown. */
  interval: string | null;
  /** Vendor's human summary when it has one, e.g. "$81K – $87K". */
  text: string | null;
}

export interface NormalizedPosting {
  /** The vendor's stable id of the posting, as a string; unique within a board. */
  externalId: string;
  title: string;
  /** Human-readable location(s), joined with '; '; null when not stated. */
  location: string | null;
  /** true when remote is stated, false when on-site/hybrid is stated, null when unknown. */
  remote: boolean | null;
  /** The vendor's structured work arrangement (remote, hybrid, on site), when it sends one. */
  workplace?: Workplace | null;
  department: string | null;
  /**
   * When the board says the posting was first published (Greenhouse `first_published`, Lever `createdAt`, Ashby
   * `publishedAt`, ...: see docs/catalog.md); null when the vendor gives no such date.
   */
  postedAt: Date | null;
  /** When the board says the posting was last edited (Greenhouse and Recruitee `updated_at`); absent otherwise. */
  updatedAt?: Date | null;
  /** Human-facing posting URL. */
  url: string;
  /** Description as clean text (HTML removed, entities decoded, paragraphs separated by blank lines). */
  descriptionText: string;
  salary?: Salary;
  /**
   * The employer's requisition id when the board gives one (Greenhouse `requisition_id`, Workday `jobReqId`): the
   * same opening keeps it when the company moves to another vendor, so it identifies one posting across boards.
   */
  requisitionId?: string | null;
}

/**
 * What the store holds for a posting still listed on a board, so that an adapter paying one request per posting
 * for its details (SmartRecruiters) can skip that request when the listing shows the posting unchanged.
 */
export interface KnownPosting {
  title: string;
  url: string;
  descriptionText: string;
  /** The stored location, when the detail call is what names it (Workday lists "3 Locations"). */
  location?: string | null;
}

/** Known postings of one board by external id. */
export type KnownPostings = ReadonlyMap<string, KnownPosting>;

export type SourceErrorCode =
  /** The board does not exist (any more): 404 from the vendor. Not retryable; the caller deactivates it. */
  | 'board_not_found'
  /**
   * The board's address now redirects to another host (vendors send a dropped company to their marketing site).
   * Not retryable; treated like board_not_found: the company's careers page is read again.
   */
  | 'board_moved'
  /** The vendor answered, but not in the expected shape. Not retryable: needs a code fix. */
  | 'malformed_payload'
  /** Rate limited or a 5xx after the client's own retries. Retryable. */
  | 'unavailable'
  /** Another unexpected status (401/403/...). Not retryable. */
  | 'http_error'
  /** Transport or policy failure from the outbound client (timeout, blocked address...). */
  | 'network';

export class SourceError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    readonly provider: Provider,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export interface SourceAdapter {
  readonly provider: Provider;
  /** The human-facing board URL for a token, e.g. https://boards.greenhouse.io/acme. */
  boardUrl(token: string): string;
  /**
   * Every currently listed posting of the board (all pages). Throws SourceError. `known`: what the store holds
   * for the board, read by the caller only when `usesKnown` is set.
   */
  fetchPostings(board: BoardRef, client: HttpClient, known?: KnownPostings): Promise<NormalizedPosting[]>;
  /** True when fetchPostings saves vendor requests with `known` (worth the caller's read of it). */
  readonly usesKnown?: boolean;
  /**
   * Cheap existence check used when validating a detected board: the number of listed postings, with as few
   * vendor calls as the API allows (no per-posting detail calls). Throws SourceError like fetchPostings.
   */
  countPostings(board: BoardRef, client: HttpClient): Promise<number>;
}
