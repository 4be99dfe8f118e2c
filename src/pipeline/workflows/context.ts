import type { Db } from '../../db/port.js';
import type { BoardRef, NormalizedPosting, Provider } from '../../sources/types.js';
import type { DiscoveryResult } from '../boards/types.js';
import type { Classification, RoleInput } from '../classify/classify.js';
import type { CompanyFacts } from '../enrich/types.js';
import type { BoardOutcomeKind } from '../store/board-health.js';
import type { StoredBoard } from '../store/boards.js';
import type { RefusedUrls } from './posting-urls.js';

/**
 * What workflow steps need from the rest of the service, as plain functions: the pipeline
 * (workflows/pipeline.ts) binds them to the guarded outbound client, the source adapters, the enricher, the role
 * classifier and the search indexer. Steps never construct these themselves.
 */
export interface PipelineContext {
  db: Db;
  /** Catalog clock, ms (tests inject a TestClock). */
  now: () => number;
  /** Fetches the homepage (and about page) and extracts company facts. */
  enrichCompany(domain: string): Promise<CompanyFacts>;
  discoverBoards(domain: string): Promise<DiscoveryResult>;
  /** Confirms a named board with its vendor: its number of listed postings; throws SourceError. */
  confirmBoard(board: BoardRef): Promise<number>;
  /** The human-facing URL of a vendor's board. */
  boardUrl(provider: Provider, token: string): string;
  /**
   * Every posting currently listed on a board; throws SourceError (board_not_found when it is gone). Adapters that
   * pay a request per posting for details get what the store holds for the board, to skip unchanged ones.
   */
  fetchPostings(board: StoredBoard): Promise<NormalizedPosting[]>;
  /** Role category of a posting and the rule that decided it (src/pipeline/classify). */
  classifyRole(posting: RoleInput): Classification;
  /** Re-computes search embeddings of changed rows (skips rows whose text did not change). */
  embed(kind: 'job' | 'company', ids: readonly string[]): Promise<void>;
  /** Base re-scrape interval, ms, and its relative jitter (0.1 = +/-10 %). */
  scrapeIntervalMs: number;
  scrapeJitter: number;
  /** Source of randomness for jitter (injectable for tests). */
  random: () => number;
  /** Told how each board's scrape ended (metrics: frontline_board_scrapes_total{vendor,outcome}). */
  onBoardScrape?: (vendor: Provider, outcome: BoardOutcomeKind) => void;
  /**
   * Told when a board's postings carried URLs that are not absolute http(s) (replaced by the board's page, or
   * dropped): metrics frontline_posting_urls_refused_total{vendor,action} and a warning in the log.
   */
  onRefusedUrls?: (vendor: Provider, refused: RefusedUrls) => void;
}

/** The next re-scrape time: interval +/- jitter, so boards of companies onboarded together drift apart. */
export function nextScrapeAt(ctx: PipelineContext, fromMs: number): Date {
  const spread = ctx.scrapeIntervalMs * ctx.scrapeJitter * (ctx.random() * 2 - 1);
  return new Date(fromMs + ctx.scrapeIntervalMs + spread);
}
