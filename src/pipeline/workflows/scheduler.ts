import type { Db } from '../../db/port.js';
import type { EngineLogger } from '../engine/logger.js';
import type { WorkflowEngine } from '../engine/types.js';
import { claimDueCompanies } from '../store/markers.js';
import { nextScrapeAt, type PipelineContext } from './context.js';

export interface SchedulerOptions {
  db: Db;
  engine: WorkflowEngine;
  ctx: PipelineContext;
  logger: EngineLogger;
  /** How often to look for due companies, ms (default 60 s). */
  tickMs?: number;
  /** Companies enqueued per tick at most (default 50): a burst is spread over later ticks. */
  batch?: number;
}

/**
 * Freshness: every company with active boards is re-scraped about every SCRAPE_INTERVAL_MINUTES (jittered, see
 * nextScrapeAt), through the same durable `scrape` workflow as everything else. The due time lives in the
 * database and is claimed atomically, so any number of workers can run a scheduler: each company is enqueued by
 * one of them, and the dedup key collapses a straggler. Politeness per host comes from the queue's concurrency
 * and the outbound client's per-host limit.
 */
export class FreshnessScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(private readonly opts: SchedulerOptions) {}

  /** One round: claims due companies and enqueues their re-scrapes; returns the workflow ids. */
  async tick(): Promise<string[]> {
    const { ctx, engine } = this.opts;
    const now = ctx.now();
    const due = await claimDueCompanies(
      this.opts.db,
      now,
      () => nextScrapeAt(ctx, now),
      this.opts.batch ?? 50,
    );
    const ids: string[] = [];
    for (const c of due) {
      const { workflowId } = await engine.enqueue('scrape', { companyId: c.companyId, domain: c.domain });
      ids.push(workflowId);
    }
    if (ids.length > 0) this.opts.logger.info({ companies: ids.length }, 'scheduled board re-scrapes');
    return ids;
  }

  /** Whether the scheduler is ticking (between start and stop). */
  get ticking(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tick()
        .catch((err: unknown) => this.opts.logger.error({ err }, 'freshness scheduler tick failed'))
        .finally(() => {
          this.running = undefined;
        });
    }, this.opts.tickMs ?? 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
