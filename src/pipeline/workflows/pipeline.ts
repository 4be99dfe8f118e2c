import pino from 'pino';
import type { Config } from '../../config.js';
import type { Db } from '../../db/port.js';
import { clientOptionsFromConfig, createOutboundClient } from '../../net/client.js';
import type { HttpClient } from '../../net/types.js';
import { DbosEngine } from '../engine/dbos-engine.js';
import type { EngineLogger } from '../engine/logger.js';
import type { WorkflowDefinition, WorkflowObserver } from '../engine/types.js';
import { createEnricher } from '../enrich/index.js';
import { WORKFLOWS_VERSION, workflowCatalog } from './catalog.js';
import { HomepageHandoff, type PipelineContext } from './context.js';
import { FreshnessScheduler } from './scheduler.js';

export interface PipelineOptions {
  config: Config;
  db: Db;
  now: () => number;
  /** Search's embedding writer, which the steps call after their writes. */
  indexer: PipelineContext['indexer'];
  /** Outbound client override (tests); default: the guarded client built from config. */
  http?: HttpClient;
  /** Told every outbound request's host and outcome (metrics). */
  onOutbound?: (host: string, outcome: string) => void;
  /** Board scrapes and refused posting URLs, by vendor (metrics). */
  counters?: PipelineContext['counters'];
  logger?: EngineLogger;
  /** Queue polling interval, ms (default: QUEUE_POLL_MS). */
  queuePollingMs?: number;
  /** Freshness scheduler tick, ms (default 60 s, or a tenth of SCRAPE_INTERVAL_MINUTES when that is shorter). */
  schedulerTickMs?: number;
  /** The workflows other areas build over their own parts (workflows/catalog.ts). */
  research: WorkflowDefinition;
  watches: WorkflowDefinition;
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
    this.ctx = {
      db,
      now: opts.now,
      http,
      enricher: createEnricher(config, http),
      indexer: opts.indexer,
      homepages: new HomepageHandoff(),
      scrapeIntervalMs: config.scrapeIntervalMinutes * 60_000,
      scrapeJitter: 0.1,
      random: Math.random,
      logger,
      counters: opts.counters,
    };
    const { research, watches } = opts;
    this.engine = new DbosEngine({
      config,
      db,
      definitions: workflowCatalog({ ctx: this.ctx, engine: () => this.engine, research, watches }),
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
   * AsyncLocalStorage) and polls its queue through the database: a share of the catalog's requests per second
   * with nothing to run (docs/deployment.md, Start-up order). Resolves true when the engine launched.
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
