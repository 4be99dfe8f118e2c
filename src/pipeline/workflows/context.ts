import type { Db } from '../../db/port.js';
import type { HttpClient } from '../../net/types.js';
import type { Provider } from '../../sources/types.js';
import type { EngineLogger } from '../engine/logger.js';
import type { Enricher, FetchedPage } from '../enrich/types.js';
import type { BoardOutcomeKind } from '../store/board-health.js';

/**
 * The parts workflow steps work with, as objects rather than callbacks: a step calls the stores, the source
 * adapters and these parts itself, so the path from a workflow to the database and the network reads top to
 * bottom. The pipeline (workflows/pipeline.ts) builds it once per process.
 */
export interface PipelineContext {
  db: Db;
  /** Catalog clock, ms (tests inject a TestClock). */
  now: () => number;
  /** The guarded outbound client every request of the pipeline goes through (company pages, boards, vendors). */
  http: HttpClient;
  /** Extracts a company's facts from its pages (heuristic, or the language model when one is configured). */
  enricher: Enricher;
  /** Search's embedding writer: re-computes the embeddings of changed rows (rows whose text did not change skip). */
  indexer: { embedIds(kind: 'job' | 'company', ids: readonly string[]): Promise<unknown> };
  homepages: HomepageHandoff;
  /** Base re-scrape interval, ms, and its relative jitter (0.1 = +/-10 %). */
  scrapeIntervalMs: number;
  scrapeJitter: number;
  /** Source of randomness for jitter (injectable for tests). */
  random: () => number;
  logger: EngineLogger;
  counters?: PipelineCounters | undefined;
}

/** The pipeline's metrics (src/metrics.ts holds these counters). */
export interface PipelineCounters {
  /** frontline_board_scrapes_total{vendor,outcome}: how each board's scrape ended. */
  boardScrapes: { inc(labels: { vendor: Provider; outcome: BoardOutcomeKind }): void };
  /** frontline_posting_urls_refused_total{vendor,action}: posting URLs that were not absolute http(s). */
  refusedUrls: { inc(labels: { vendor: Provider; action: 'replaced' | 'dropped' }, value: number): void };
}

/** The next re-scrape time: interval +/- jitter, so boards of companies onboarded together drift apart. */
export function nextScrapeAt(ctx: PipelineContext, fromMs: number): Date {
  const spread = ctx.scrapeIntervalMs * ctx.scrapeJitter * (ctx.random() * 2 - 1);
  return new Date(fromMs + ctx.scrapeIntervalMs + spread);
}

const HANDOFF_TTL_MS = 5 * 60_000;
/** Homepages are capped at 3 MB each (enrich/index.ts); a handful of concurrent onboardings need a few. */
const HANDOFF_MAX = 16;

/**
 * The homepage the enrich step fetched, handed to the boards step that follows it in the same run, so that an
 * onboarding asks the company's site for its homepage once, not twice. Kept briefly and only in this process: a
 * boards step replayed elsewhere, or long after, fetches the page itself.
 */
export class HomepageHandoff {
  private readonly pages = new Map<string, { page: FetchedPage; at: number }>();

  put(domain: string, page: FetchedPage): void {
    this.pages.delete(domain);
    this.pages.set(domain, { page, at: Date.now() });
    // Pages of runs that never reached discovery (failed enrichment, enrich-only runs) age out.
    for (const [d, kept] of this.pages) {
      if (this.pages.size <= HANDOFF_MAX && Date.now() - kept.at <= HANDOFF_TTL_MS) break;
      this.pages.delete(d);
    }
  }

  take(domain: string): FetchedPage | undefined {
    const kept = this.pages.get(domain);
    this.pages.delete(domain);
    return kept && Date.now() - kept.at <= HANDOFF_TTL_MS ? kept.page : undefined;
  }
}
