import pino from 'pino';
import type { Config } from '../../config.js';
import type { Db } from '../../db/port.js';
import { clientOptionsFromConfig, createOutboundClient } from '../../net/client.js';
import type { HttpClient } from '../../net/types.js';
import { getAdapter } from '../../sources/index.js';
import { discoverBoards } from '../boards/discover.js';
import { explainRole } from '../classify/classify.js';
import { discoveryWorkflow } from '../discovery/index.js';
import { DbosEngine } from '../engine/dbos-engine.js';
import type { EngineLogger } from '../engine/logger.js';
import type { WorkflowDefinition, WorkflowObserver } from '../engine/types.js';
import { createEnricher, fetchCompanyPages } from '../enrich/index.js';
import { knownPostings } from '../store/jobs.js';
import { WORKFLOWS_VERSION, workflowCatalog } from './catalog.js';
import type { PipelineContext } from './context.js';
import { FreshnessScheduler } from './scheduler.js';

export interface PipelineOptions {
  config: Config;
  db: Db;
  now: () => number;
  /** Search embeddings of changed rows; the composition root passes the search indexer's embedIds. */
  embed: PipelineContext['embed'];
  /** Outbound client override (tests); default: the guarded client built from config. */
  http?: HttpClient;
  /** Told every outbound request's host and outcome (metrics). */
  onOutbound?: (host: string, outcome: string) => void;
  /** Told how each board scrape ended, by vendor (metrics). */
  onBoardScrape?: PipelineContext['onBoardScrape'];
  /** Told about postings whose URL was refused, by vendor (metrics). */
  onRefusedUrls?: PipelineContext['onRefusedUrls'];
  logger?: EngineLogger;
  /** Queue polling interval, ms (default: QUEUE_POLL_MS). */
  queuePollingMs?: number;
  /** Freshness scheduler tick, ms (default 60 s). */
  schedulerTickMs?: number;
  /** Workflows of other areas built by the composition root (deep research), registered on this engine. */
  extraDefinitions?: readonly WorkflowDefinition[];
  /** Told about every run and step this process executes (metrics). */
  observer?: WorkflowObserver;
}

/**
 * The ingestion pipeline as the rest of the service sees it: the engine (enqueue, status) and, in a process that
 * runs workflows, the embedded worker and the freshness scheduler. Building it does no I/O; start() launches.
 */
export class Pipeline {
  readonly engine: DbosEngine;
  readonly scheduler: FreshnessScheduler;
  readonly ctx: PipelineContext;
  private started = false;
  /** Counts stop() calls, so a start() that was launching when one came knows. */
  private stops = 0;

  constructor(opts: PipelineOptions) {
    const { config, db } = opts;
    const logger = opts.logger ?? pino({ level: config.logLevel, base: { component: 'pipeline' } });
    const http = opts.http ?? createOutboundClient(clientOptionsFromConfig(config, opts.onOutbound));
    const enricher = createEnricher(config, http);
    const homepages = new HomepageHandoff();
    this.ctx = {
      db,
      now: opts.now,
      enrichCompany: async (domain) => {
        const pages = await fetchCompanyPages(domain, http);
        if (pages[0]) homepages.put(domain, pages[0]);
        return enricher.enrich(domain, pages);
      },
      discoverBoards: (domain) => {
        const homepage = homepages.take(domain);
        return discoverBoards(domain, http, homepage ? { homepage } : {});
      },
      confirmBoard: (board) => getAdapter(board.provider).countPostings(board, http),
      boardUrl: (provider, token) => getAdapter(provider).boardUrl(token),
      fetchPostings: async (board) => {
        const adapter = getAdapter(board.provider);
        const known = adapter.usesKnown ? await knownPostings(db, board.id, opts.now()) : undefined;
        return adapter.fetchPostings(board, http, known);
      },
      classifyRole: explainRole,
      embed: opts.embed,
      scrapeIntervalMs: config.scrapeIntervalMinutes * 60_000,
      scrapeJitter: 0.1,
      random: Math.random,
      onBoardScrape: opts.onBoardScrape,
      onRefusedUrls: (vendor, refused) => {
        logger.warn({ vendor, ...refused }, 'posting URLs that are not absolute http(s) were refused');
        opts.onRefusedUrls?.(vendor, refused);
      },
    };
    this.engine = new DbosEngine({
      config,
      db,
      definitions: [
        ...workflowCatalog(this.ctx),
        // POST /promote_and_onboard (src/pipeline/discovery/), which hands qualified domains to `onboard`.
        discoveryWorkflow({
          db,
          now: opts.now,
          http,
          discoverBoards: (domain, homepage) => discoverBoards(domain, http, { homepage }),
          engine: () => this.engine,
        }) as WorkflowDefinition,
        ...(opts.extraDefinitions ?? []),
      ],
      applicationVersion: WORKFLOWS_VERSION,
      queuePollingMs: opts.queuePollingMs ?? opts.config.queuePollMs,
      workerConcurrency: opts.config.workerConcurrency,
      logger,
      observer: opts.observer,
    });
    this.scheduler = new FreshnessScheduler({
      db,
      engine: this.engine,
      ctx: this.ctx,
      logger,
      tickMs: opts.schedulerTickMs ?? Math.min(60_000, config.scrapeIntervalMinutes * 6_000),
    });
  }

  /** Launches the engine; in a process that runs workflows, also the freshness scheduler. */
  async start(): Promise<void> {
    const stops = this.stops;
    await this.engine.start();
    // A stop() while the engine was launching wins: no scheduler left ticking after it.
    if (stops !== this.stops) return;
    if (this.engine.runsWorkflows && !this.started) this.scheduler.start();
    this.started = true;
  }

  /**
   * start() for `serve`. Where the engine can launch on demand (the embedded database) and no earlier run waits in
   * its tables, only the scheduler starts, and the first enqueue or status read (a pipeline request, a due
   * re-scrape) launches the engine. Why: a launched DBOS keeps Node's async hooks on for the whole process (its
   * AsyncLocalStorage) and polls its queue through the database every 200 ms: ~6 % of the catalog's requests per
   * second with nothing to run (docs/deployment.md, Start-up order). Resolves true when the engine launched.
   */
  async startOnDemand(): Promise<boolean> {
    const stops = this.stops;
    const launchNow = !this.engine.launchesOnDemand || (await this.engine.hasActiveRuns());
    if (launchNow) {
      await this.start();
      return true;
    }
    if (stops !== this.stops) return false;
    if (!this.started) this.scheduler.start();
    this.started = true;
    return false;
  }

  async stop(): Promise<void> {
    this.stops++;
    await this.scheduler.stop();
    await this.engine.stop();
    this.started = false;
  }
}

/**
 * The homepage the enrich step fetched, handed to the discovery step that follows it in the same run, so that an
 * onboarding asks the company's site for its homepage once, not twice. Kept briefly and only in this process: a
 * discovery replayed elsewhere, or long after, fetches the page itself.
 */
class HomepageHandoff {
  private readonly pages = new Map<string, { page: { url: string; html: string }; at: number }>();

  put(domain: string, page: { url: string; html: string }): void {
    this.pages.delete(domain);
    this.pages.set(domain, { page, at: Date.now() });
    // Pages of runs that never reached discovery (failed enrichment, enrich-only runs) age out.
    for (const [d, kept] of this.pages) {
      if (this.pages.size <= HANDOFF_MAX && Date.now() - kept.at <= HANDOFF_TTL_MS) break;
      this.pages.delete(d);
    }
  }

  take(domain: string): { url: string; html: string } | undefined {
    const kept = this.pages.get(domain);
    this.pages.delete(domain);
    return kept && Date.now() - kept.at <= HANDOFF_TTL_MS ? kept.page : undefined;
  }
}

const HANDOFF_TTL_MS = 5 * 60_000;
/** Homepages are capped at 3 MB each (enrich/index.ts); a handful of concurrent onboardings need a few. */
const HANDOFF_MAX = 16;
