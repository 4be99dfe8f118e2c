/**
 * The one place that reads the environment. `parseConfig(env)` is pure: it either returns a complete,
 * typed config or throws a ConfigError listing every bad key at once, so an operator fixes them in one go.
 */

import { availableParallelism } from 'node:os';
import { type Env, Reader } from './config-reader.js';
import { PROVIDERS, type Provider } from './sources/types.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type Role = 'all' | 'api' | 'worker';
export type EmbeddingsProvider = 'static' | 'openai';

export interface Config {
  host: string;
  port: number;
  /** Directory for the embedded database and caches (default ./data). */
  dataDir: string;
  /** PostgreSQL server URL; unset means the embedded PGlite database in dataDir. */
  databaseUrl: string | undefined;
  /** The embedded database's page cache (PostgreSQL shared_buffers) in MB; it lives in the process's memory. */
  embeddedCacheMb: number;
  /** How far V8's old generation may grow past its last live size before a full collection, % (0: V8's own). */
  heapGrowingPercent: number;
  /**
   * A PostgreSQL read replica of databaseUrl's server (DATABASE_READ_URL, optional): the public catalog reads go
   * there (listings, details, search, hiring signals, the in-process catalog copy's loads); every write and every
   * read of its own writes stays on databaseUrl. Unset: everything uses databaseUrl.
   */
  databaseReadUrl: string | undefined;
  /** Max connections in the node-postgres pool (server mode only). */
  databasePoolSize: number;
  /** Max connections in the read replica's pool (DATABASE_READ_POOL_SIZE, default 10; with databaseReadUrl only). */
  databaseReadPoolSize: number;
  /** Per-statement timeout in ms (server mode only). */
  databaseStatementTimeoutMs: number;
  redisUrl: string | undefined;
  /** How long a stopping process may finish its work before it exits anyway, ms (SHUTDOWN_GRACE_MS, 10 s). */
  shutdownGraceMs: number;
  /** Tokens accepted in addition to the database ones (comma-separated in API_TOKENS). */
  apiTokens: string[];
  sampleData: boolean;
  /** The site's public origin (PUBLIC_BASE_URL) for canonical links and the sitemap; unset: the request's host. */
  publicBaseUrl: string | undefined;
  /** Fastify trustProxy value: false, true, a hop count, or a comma-separated list of addresses/CIDRs. */
  trustProxy: boolean | number | string;
  logLevel: LogLevel;
  logPretty: boolean;
  role: Role;
  /** Listings and details: 'memory' (default) from the replica, SQL while it loads; 'sql' always the database. */
  readModel: 'memory' | 'sql';
  /** Where `?search=` ranks: 'memory' (default) over the replica; 'sql' in the database (docs/deployment.md). */
  search: 'memory' | 'sql';
  rateLimit: {
    windowMs: number;
    anonymous: number;
    token: number;
    /** Failed authentication attempts (bad API or metrics tokens) allowed per IP and window. */
    failedAuth: number;
    /** Web pages (the site for people) per IP and window: a budget of their own, apart from the API's. */
    pages: number;
    /**
     * When the shared (Redis) store is unreachable: 'open' falls back to per-process limits, 'closed' answers 503,
     * 'auto' is open for reads (GET/HEAD) and closed for pipeline writes.
     */
    onStoreFailure: 'auto' | 'open' | 'closed';
  };
  /** A request (headers and body) must arrive whole within this many ms, or it is answered 408; 0 never. */
  requestTimeoutMs: number;
  /** How often a process polls catalog_version on a PostgreSQL server (how long others' writes may go unseen), ms. */
  cacheCoherenceMs: number;
  /** Per-process admission control for searches (src/search/admission.ts). */
  searchLimits: { maxInFlight: number; maxQueued: number; maxWaitMs: number };
  /** From this many job vectors, scans run their kernel on a worker thread (src/search/vectors/scan-thread.ts); 0 never. */
  searchScanThreadRows: number;
  embeddings: {
    provider: EmbeddingsProvider;
    baseUrl: string | undefined;
    model: string | undefined;
    apiKey: string | undefined;
  };
  llm: { baseUrl: string | undefined; model: string | undefined; apiKey: string | undefined };
  parallelApiKey: string | undefined;
  deepResearchWaitS: number;
  /** host=origin pairs: requests for host go to origin instead (tests and demos only). */
  outboundHostMap: Record<string, string>;
  /** Outbound time to response headers, and the longest stall between body chunks, ms (default 10000). */
  outboundHeadersTimeoutMs: number;
  /**
   * Ceiling on any one outbound call's whole budget (redirects, retries, waits), ms; 0 (default) leaves every
   * call its own budget (pages 20 s, ATS APIs 45 s, model calls up to 120 s).
   */
  outboundTimeoutCapMs: number;
  /** Outbound requests in flight per host (OUTBOUND_HOST_CONCURRENCY, default 2). */
  outboundHostConcurrency: number;
  /** Least spacing between the starts of two requests to one vendor API host, ms (OUTBOUND_API_GAP_MS, 100). */
  outboundApiGapMs: number;
  /**
   * Least spacing of requests to named hosts, ms (OUTBOUND_HOST_GAPS, `host=ms,...`): vendors' published limits.
   * Default `api.rippling.com=6000`, Rippling's 100 requests every 10 minutes; `none` for no such spacing.
   */
  outboundHostGapsMs: Record<string, number>;
  /**
   * `frontline track` (docs/tracking.md): the vendors whose boards it tracks (TRACK_VENDORS; default every vendor
   * but SmartRecruiters, whose API terms forbid scraping and use by AI agents), and its politeness towards each
   * host: requests in flight (TRACK_HOST_CONCURRENCY, 1) and the least gap between their starts (TRACK_HOST_GAP_MS,
   * 1000 ms).
   */
  track: { vendors: Provider[]; hostConcurrency: number; hostGapMs: number };
  /** Who a site's operator reaches about our crawler (USER_AGENT_CONTACT); unset: PUBLIC_BASE_URL, or none. */
  userAgentContact: string | undefined;
  scrapeIntervalMinutes: number;
  /** Workflow runs one worker process executes at once. */
  workerConcurrency: number;
  /** How often a worker polls the queue for runs, ms. */
  queuePollMs: number;
  /** Watches: how often new job events are matched (ms), the first retry delay (ms), and how long to retry (ms). */
  watches: { pollMs: number; retryBaseMs: number; retryForMs: number };
  workerId: string;
  /** How often a worker on a PostgreSQL server records that it is alive, ms. */
  workerHeartbeatMs: number;
  /** A worker silent this long is taken for dead and its unfinished runs are resumed elsewhere, ms. */
  workerDeadAfterMs: number;
  metricsToken: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

function parseTrustProxy(r: Reader): boolean | number | string {
  const v = r.raw('TRUST_PROXY');
  if (v === undefined) return false;
  const lower = v.toLowerCase();
  if (['0', 'false', 'no', 'off'].includes(lower)) return false;
  if (['true', 'yes', 'on'].includes(lower)) return true;
  if (/^\d+$/.test(v)) return Number(v);
  // A list of addresses or CIDRs, validated loosely; Fastify (proxy-addr) rejects malformed entries at start.
  if (/^[0-9a-fA-F.:/,\s]+$/.test(v)) return v;
  r.problems.push('TRUST_PROXY must be true/false, a hop count, or comma-separated addresses/CIDRs');
  return false;
}

function parseHostMap(r: Reader): Record<string, string> {
  const v = r.raw('OUTBOUND_HOST_MAP');
  const map: Record<string, string> = {};
  if (v === undefined) return map;
  for (const pair of v.split(',')) {
    const [host, origin] = pair.split('=').map((s) => s.trim());
    if (!host || !origin || !/^[a-z0-9.-]+$/i.test(host)) {
      r.problems.push(`OUTBOUND_HOST_MAP entry "${pair}" must look like host=http://127.0.0.1:8081`);
      continue;
    }
    try {
      const u = new URL(origin);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
      map[host.toLowerCase()] = u.origin;
    } catch {
      r.problems.push(`OUTBOUND_HOST_MAP origin "${origin}" for ${host} is not an http(s) URL`);
    }
  }
  return map;
}

/** Vendors' published request limits as spacing: Rippling allows 100 requests every 10 minutes. */
const HOST_GAPS_DEFAULT = 'api.rippling.com=6000';

function parseHostGaps(r: Reader): Record<string, number> {
  const v = r.raw('OUTBOUND_HOST_GAPS') ?? HOST_GAPS_DEFAULT;
  const gaps: Record<string, number> = {};
  if (v.toLowerCase() === 'none') return gaps;
  for (const pair of v.split(',').filter((p) => p.trim() !== '')) {
    const [host, ms] = pair.split('=').map((x) => x.trim());
    if (!host || !/^[a-z0-9.-]+$/i.test(host) || !ms || !/^\d{1,7}$/.test(ms)) {
      r.problems.push(`OUTBOUND_HOST_GAPS entry "${pair}" must look like api.rippling.com=6000`);
      continue;
    }
    gaps[host.toLowerCase()] = Number(ms);
  }
  return gaps;
}

/** Vendors `track` may read, by default all but SmartRecruiters (docs/tracking.md says why); `all` for every one. */
export const TRACK_VENDORS_DEFAULT: readonly Provider[] = PROVIDERS.filter((p) => p !== 'smartrecruiters');

function parseVendors(r: Reader): Provider[] {
  const v = r.raw('TRACK_VENDORS');
  if (v === undefined) return [...TRACK_VENDORS_DEFAULT];
  if (v.toLowerCase() === 'all') return [...PROVIDERS];
  const names = v
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
  const unknown = names.filter((n) => !(PROVIDERS as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) {
    r.problems.push(
      `TRACK_VENDORS must be "all" or a comma-separated list of ${PROVIDERS.join(', ')} (got "${v}")`,
    );
    return [...TRACK_VENDORS_DEFAULT];
  }
  return names as Provider[];
}

/** The process, database and logging settings. */
function readCoreSettings(r: Reader) {
  return {
    host: r.str('HOST', '0.0.0.0'),
    port: r.int('PORT', 3000, 0, 65535),
    dataDir: r.str('DATA_DIR', './data'),
    databaseUrl: r.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    embeddedCacheMb: r.int('EMBEDDED_CACHE_MB', 16, 1, 65_536),
    heapGrowingPercent: r.int('HEAP_GROWING_PERCENT', 40, 0, 1_000),
    databaseReadUrl: r.url('DATABASE_READ_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: r.int('DATABASE_POOL_SIZE', 10, 1, 500),
    databaseReadPoolSize: r.int('DATABASE_READ_POOL_SIZE', 10, 1, 500),
    databaseStatementTimeoutMs: r.int('DATABASE_STATEMENT_TIMEOUT_MS', 15_000, 100, 3_600_000),
    redisUrl: r.url('REDIS_URL', ['redis:', 'rediss:']),
    shutdownGraceMs: r.int('SHUTDOWN_GRACE_MS', 10_000, 100, 86_400_000),
    apiTokens: (r.raw('API_TOKENS') ?? '').split(',').flatMap((t) => (t.trim() ? [t.trim()] : [])),
    sampleData: r.bool('SAMPLE_DATA', false),
    publicBaseUrl: r.url('PUBLIC_BASE_URL', ['http:', 'https:'])?.replace(/\/+$/, ''),
    trustProxy: parseTrustProxy(r),
    logLevel: r.oneOf(
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    logPretty: r.bool('LOG_PRETTY', false),
    role: r.oneOf('FRONTLINE_ROLE', ['all', 'api', 'worker'] as const, 'all'),
    readModel: r.oneOf('READ_MODEL', ['memory', 'sql'] as const, 'memory'),
    search: r.oneOf('SEARCH', ['memory', 'sql'] as const, 'memory'),
  } satisfies Partial<Config>;
}

function readRateLimit(r: Reader): Config['rateLimit'] {
  return {
    windowMs: r.int('RATE_LIMIT_WINDOW_MS', 60_000, 1_000, 86_400_000),
    anonymous: r.int('RATE_LIMIT_ANONYMOUS', 20, 1, 10_000_000),
    token: r.int('RATE_LIMIT_TOKEN', 100, 1, 10_000_000),
    failedAuth: r.int('RATE_LIMIT_FAILED_AUTH', 10, 1, 10_000_000),
    pages: r.int('RATE_LIMIT_PAGES', 300, 1, 10_000_000),
    onStoreFailure: r.oneOf('RATE_LIMIT_ON_STORE_FAILURE', ['auto', 'open', 'closed'] as const, 'auto'),
  };
}

/** Request timeouts, cache coherence and the search admission and scan settings. */
function readServingSettings(r: Reader) {
  return {
    requestTimeoutMs: r.int('REQUEST_TIMEOUT_MS', 30_000, 0, 3_600_000),
    cacheCoherenceMs: r.int('CACHE_COHERENCE_MS', 2_000, 0, 60_000),
    // The embedded database runs one query at a time on the event loop, so fewer searches run at once there. How
    // many wait is bounded by their expected wait (search/admission.ts); the count is only a cap.
    searchLimits: {
      maxInFlight: r.int('SEARCH_MAX_IN_FLIGHT', r.raw('DATABASE_URL') ? 8 : 2, 1, 1_000),
      maxQueued: r.int('SEARCH_MAX_QUEUED', 256, 0, 100_000),
      maxWaitMs: r.int('SEARCH_MAX_WAIT_MS', 1_000, 1, 60_000),
    },
    // A second core does the job scans' kernel; with one core the thread would only take turns with the loop.
    // On the embedded database too: the idle workflow engine does not load DBOS, and the thread's memory fits
    // what the 100k catalog bench allows (docs/search.md).
    searchScanThreadRows: r.int('SEARCH_SCAN_THREAD_ROWS', availableParallelism() > 1 ? 20_000 : 0, 0, 1e9),
  } satisfies Partial<Config>;
}

/** The embeddings and LLM providers. */
function readModelProviders(r: Reader, embeddingsProvider: Config['embeddings']['provider']) {
  return {
    embeddings: {
      provider: embeddingsProvider,
      baseUrl: r.url('EMBEDDINGS_BASE_URL', ['http:', 'https:']),
      model: r.raw('EMBEDDINGS_MODEL'),
      apiKey: r.raw('EMBEDDINGS_API_KEY'),
    },
    llm: {
      baseUrl: r.url('LLM_BASE_URL', ['http:', 'https:']),
      model: r.raw('LLM_MODEL'),
      apiKey: r.raw('LLM_API_KEY'),
    },
  } satisfies Partial<Config>;
}

/** Outbound calls: the research API, host overrides, timeouts and the User-Agent contact. */
function readOutbound(r: Reader) {
  return {
    parallelApiKey: r.raw('PARALLEL_API_KEY'),
    deepResearchWaitS: r.int('DEEP_RESEARCH_WAIT_S', 150, 1, 3_600),
    outboundHostMap: parseHostMap(r),
    outboundHeadersTimeoutMs: r.int('OUTBOUND_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    outboundTimeoutCapMs: r.int('OUTBOUND_TIMEOUT_CAP_MS', 0, 0, 3_600_000),
    outboundHostConcurrency: r.int('OUTBOUND_HOST_CONCURRENCY', 2, 1, 64),
    outboundApiGapMs: r.int('OUTBOUND_API_GAP_MS', 100, 0, 600_000),
    outboundHostGapsMs: parseHostGaps(r),
    track: {
      vendors: parseVendors(r),
      hostConcurrency: r.int('TRACK_HOST_CONCURRENCY', 1, 1, 64),
      hostGapMs: r.int('TRACK_HOST_GAP_MS', 1_000, 0, 600_000),
    },
    userAgentContact: r.url('USER_AGENT_CONTACT', ['http:', 'https:', 'mailto:']),
  } satisfies Partial<Config>;
}

/** The scheduler and the pipeline workers. */
function readWorker(r: Reader) {
  return {
    scrapeIntervalMinutes: r.int('SCRAPE_INTERVAL_MINUTES', 360, 1, 10_080),
    workerConcurrency: r.int('WORKER_CONCURRENCY', 4, 1, 256),
    queuePollMs: r.int('QUEUE_POLL_MS', 200, 20, 60_000),
    watches: {
      pollMs: r.int('WATCH_POLL_MS', 2_000, 10, 3_600_000),
      retryBaseMs: r.int('WATCH_RETRY_BASE_MS', 5_000, 1, 3_600_000),
      retryForMs: r.int('WATCH_RETRY_FOR_MS', 86_400_000, 1, 604_800_000),
    },
    workerId: r.str('DBOS__VMID', r.str('WORKER_ID', 'local')),
    workerHeartbeatMs: r.int('WORKER_HEARTBEAT_MS', 10_000, 100, 600_000),
    workerDeadAfterMs: r.int('WORKER_DEAD_AFTER_MS', 120_000, 1_000, 86_400_000),
  } satisfies Partial<Config>;
}

/** Settings that are valid one by one but not together. */
function checkCombinations(r: Reader, config: Config): void {
  if (config.embeddings.provider === 'openai' && !config.embeddings.baseUrl) {
    r.problems.push('EMBEDDINGS=openai requires EMBEDDINGS_BASE_URL');
  }
  if (config.databaseReadUrl && !config.databaseUrl) {
    r.problems.push(
      'DATABASE_READ_URL requires DATABASE_URL: it names a read replica of that PostgreSQL server',
    );
  }
  if (config.databaseReadUrl && config.cacheCoherenceMs === 0) {
    r.problems.push(
      "CACHE_COHERENCE_MS must be above 0 with DATABASE_READ_URL: the replica's changes are seen only by polling",
    );
  }
  if (config.workerDeadAfterMs < 3 * config.workerHeartbeatMs) {
    r.problems.push(
      'WORKER_DEAD_AFTER_MS must be at least 3 x WORKER_HEARTBEAT_MS: a live worker must not be taken for dead',
    );
  }
}

export function parseConfig(env: Env): Config {
  const r = new Reader(env);
  const embeddingsProvider = r.oneOf('EMBEDDINGS', ['static', 'openai'] as const, 'static');
  // Read in this order so the problems are listed in the order of the settings.
  const config: Config = {
    ...readCoreSettings(r),
    rateLimit: readRateLimit(r),
    ...readServingSettings(r),
    ...readModelProviders(r, embeddingsProvider),
    ...readOutbound(r),
    ...readWorker(r),
    metricsToken: r.raw('METRICS_TOKEN'),
  };
  checkCombinations(r, config);
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}
