import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every Prometheus metric the service exposes, in one registry per process (tests build several apps in one
 * process, so nothing here is a global singleton). Labels stay low-cardinality: route patterns, not URLs.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'frontline_http_requests_total',
    help: 'HTTP requests by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'frontline_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  readonly rateLimitDecisions = new Counter({
    name: 'frontline_rate_limit_decisions_total',
    help: 'Rate-limit decisions by tier and outcome (allowed, limited, store_error_open, store_error_closed)',
    labelNames: ['tier', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly responseCache = new Counter({
    name: 'frontline_response_cache_total',
    help: 'Catalog response cache lookups by outcome (hit, miss)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly outboundRequests = new Counter({
    name: 'frontline_outbound_requests_total',
    help: 'Outbound HTTP requests by host and outcome (ok, http_4xx, http_5xx, blocked, timeout, error)',
    labelNames: ['host', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly searchDuration = new Histogram({
    name: 'frontline_search_duration_seconds',
    help: 'Search latency by kind (jobs, companies) and retriever (keyword, semantic, hybrid)',
    labelNames: ['kind', 'retriever'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    registers: [this.registry],
  });

  private poolStats: (() => { total: number; idle: number; waiting: number }) | undefined;

  readonly dbPool = new Gauge({
    name: 'frontline_db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting); server mode only',
    labelNames: ['state'] as const,
    registers: [this.registry],
    collect: () => {
      const stats = this.poolStats?.();
      if (!stats) return;
      for (const [state, value] of Object.entries(stats)) this.dbPool.set({ state }, value);
    },
  });

  /** Reports the database pool's connection counts at every scrape. */
  observePool(stats: () => { total: number; idle: number; waiting: number }): void {
    this.poolStats = stats;
  }

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics !== false)
      collectDefaultMetrics({ register: this.registry, prefix: 'frontline_' });
  }
}
