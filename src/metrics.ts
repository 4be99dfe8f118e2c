import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { CellCounter, CellHistogram } from './metric-cells.js';
import type { WorkflowObserver } from './pipeline/engine/types.js';
import type { Embedder } from './search/embedders/types.js';

/**
 * Every Prometheus metric the service exposes, in one registry per process (tests build several apps in one
 * process, so nothing here is a global singleton). Labels stay low-cardinality: route patterns, not URLs.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new CellCounter({
    name: 'frontline_http_requests_total',
    help: 'HTTP requests by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new CellHistogram({
    name: 'frontline_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  readonly searchRejections = new Counter({
    name: 'frontline_search_rejections_total',
    help: 'Searches answered 503 by admission control, by reason (expected_wait, queue_full, queue_timeout)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly rateLimitDecisions = new CellCounter({
    name: 'frontline_rate_limit_decisions_total',
    help: 'Rate-limit decisions by tier and outcome (allowed, limited, store_error_open, store_error_closed)',
    labelNames: ['tier', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly responseCache = new CellCounter({
    name: 'frontline_response_cache_total',
    help: 'Catalog response cache lookups by outcome (hit, miss)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly outboundRequests = new Counter({
    name: 'frontline_outbound_requests_total',
    help: 'Outbound HTTP requests by host (the vendor, or other) and outcome (ok, http_4xx, http_5xx, blocked, timeout, error)',
    labelNames: ['host', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly boardScrapes = new Counter({
    name: 'frontline_board_scrapes_total',
    help: 'Job-board scrapes by vendor and outcome (ok, error, gone, moved, empty_held, emptied)',
    labelNames: ['vendor', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly refusedUrls = new Counter({
    name: 'frontline_posting_urls_refused_total',
    help: 'Posting URLs that were not absolute http(s), by vendor and action (replaced by the board page, dropped)',
    labelNames: ['vendor', 'action'] as const,
    registers: [this.registry],
  });

  readonly searchDuration = new Histogram({
    name: 'frontline_search_duration_seconds',
    help: 'Search latency by kind (jobs, companies) and retriever (keyword, semantic, hybrid)',
    labelNames: ['kind', 'retriever'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    registers: [this.registry],
  });

  readonly embeddingDuration = new Histogram({
    name: 'frontline_embedding_duration_seconds',
    help: 'Latency of one embedder call (a search query, or a batch of rows being indexed) by provider',
    labelNames: ['provider'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  readonly embeddedTexts = new Counter({
    name: 'frontline_embedded_texts_total',
    help: 'Texts embedded by provider (queries and catalog rows)',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });

  readonly watchDeliveries = new Counter({
    name: 'frontline_watch_deliveries_total',
    help: 'Watch webhook delivery attempts by outcome (delivered, retry, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly mcpCalls = new Counter({
    name: 'frontline_mcp_tool_calls_total',
    help: 'MCP tool calls by tool and outcome (ok, error, invalid)',
    labelNames: ['tool', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly workflowRuns = new Counter({
    name: 'frontline_workflow_runs_total',
    help: 'Workflow executions ended in this process by workflow and status (succeeded, failed, cancelled)',
    labelNames: ['workflow', 'status'] as const,
    registers: [this.registry],
  });

  readonly workflowRunsInProgress = new Gauge({
    name: 'frontline_workflow_runs_in_progress',
    help: 'Workflow executions running in this process by workflow',
    labelNames: ['workflow'] as const,
    registers: [this.registry],
  });

  readonly workflowStepDuration = new Histogram({
    name: 'frontline_workflow_step_duration_seconds',
    help: 'Duration of each step attempt by workflow, step family (scrape:x/y is scrape) and status',
    labelNames: ['workflow', 'step', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });

  /** Each pool's connection counts by its name (primary; read with DATABASE_READ_URL). */
  private readonly poolStats = new Map<string, () => { total: number; idle: number; waiting: number }>();

  readonly dbPool = new Gauge({
    name: 'frontline_db_pool_connections',
    help: 'Database pool connections by pool (primary, read) and state (total, idle, waiting); server mode only',
    labelNames: ['pool', 'state'] as const,
    registers: [this.registry],
    collect: () => {
      for (const [pool, stats] of this.poolStats) {
        for (const [state, value] of Object.entries(stats())) this.dbPool.set({ pool, state }, value);
      }
    },
  });

  private scanCounts: (() => { thread: number; event_loop: number }) | undefined;

  readonly searchJobScans = new Counter({
    name: 'frontline_search_job_scans_total',
    help: 'Job vector scans by where their pass over every row ran: the scan thread or the event loop',
    labelNames: ['where'] as const,
    registers: [this.registry],
    collect: () => {
      const counts = this.scanCounts?.();
      if (!counts) return;
      this.searchJobScans.reset();
      for (const [where, value] of Object.entries(counts)) this.searchJobScans.inc({ where }, value);
    },
  });

  /** Reports the job index's scan counts (VectorIndex.scanCounts) at every scrape. */
  observeScans(counts: () => { thread: number; event_loop: number }): void {
    this.scanCounts = counts;
  }

  /** Reports a database pool's connection counts, labelled pool=`pool`, at every scrape. */
  observePool(pool: 'primary' | 'read', stats: () => { total: number; idle: number; waiting: number }): void {
    this.poolStats.set(pool, stats);
  }

  /** The workflow engine's observer: run outcomes, runs in progress and step durations. */
  workflowObserver(): WorkflowObserver {
    return {
      runStarted: (workflow) => this.workflowRunsInProgress.inc({ workflow }),
      runEnded: (workflow, status) => {
        this.workflowRunsInProgress.dec({ workflow });
        this.workflowRuns.inc({ workflow, status });
      },
      stepAttempted: (workflow, step, status, seconds) =>
        this.workflowStepDuration.observe({ workflow, step, status }, seconds),
    };
  }

  /** The embedder, timed: every embed() call lands in the embedding histogram under the model's provider. */
  timedEmbedder(inner: Embedder): Embedder {
    const metrics = this;
    // The provider is the model id's first segment (`static:…`, `openai:…`): one label value per process.
    const provider = inner.id.split(':')[0] ?? 'unknown';
    return {
      get id() {
        return inner.id;
      },
      // An OpenAI-compatible model learns its dimension from its first answer: read it through, never copy it.
      get dimension() {
        return inner.dimension;
      },
      get maxBatch() {
        return inner.maxBatch;
      },
      prepare: async () => inner.prepare?.(),
      async embed(texts) {
        const end = metrics.embeddingDuration.startTimer({ provider });
        try {
          return await inner.embed(texts);
        } finally {
          end();
          metrics.embeddedTexts.inc({ provider }, texts.length);
        }
      },
    };
  }

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics !== false)
      collectDefaultMetrics({ register: this.registry, prefix: 'frontline_' });
  }
}
