import { join } from 'node:path';
import { TokenService } from './auth/tokens.js';
import type { CatalogReadModel } from './catalog/read-model.js';
import { CatalogReplica } from './catalog/replica/catalog-replica.js';
import { ReplicaReadModel } from './catalog/replica/read-model.js';
import { ReplicaGate } from './catalog/replica/replica-gate.js';
import { loadSampleCatalog } from './catalog/sample.js';
import { CatalogService } from './catalog/service.js';
import { backfillJobPlaces } from './catalog/sql/job-places.js';
import { SqlReadModel } from './catalog/sql/sql-read-model.js';
import type { CatalogVersionFeed } from './catalog/version-feed.js';
import type { Config } from './config.js';
import { migrate } from './db/migrate.js';
import { openDb } from './db/open.js';
import type { Db } from './db/port.js';
import { openReads, startVersionFeed } from './deps-reads.js';
import { ResponseCache } from './http/caching/response-cache.js';
import { MemoryRateLimitStore, type RateLimitStore } from './http/limits/store.js';
import { buildTiers, SEARCH_SHORTLIST, type TierTable } from './http/limits/tiers.js';
import { jobFilters } from './http/routes/jobs/list-jobs.js';
import { componentLogger } from './logger.js';
import { Metrics } from './metrics.js';
import { hostLabel } from './net/host-label.js';
import { Pipeline } from './pipeline/workflows/pipeline.js';
import { ResearchParts } from './research/index.js';
import type { ResearchService } from './research/service.js';
import type { PhaseClock } from './runtime/phase-clock.js';
import { SearchGate } from './search/admission.js';
import { createEmbedder } from './search/embedders/index.js';
import type { VectorBuildListener } from './search/embedders/static.js';
import { createSearchParts, type SearchParts } from './search/service.js';
import { timedSearch } from './search/timed.js';
import type { SearchService } from './search/types.js';
import { ReplicaSignalReads, SIGNALS_MIN_RELOAD_MS } from './signals/replica/replica-reads.js';
import { loadSampleHistory } from './signals/sample-history.js';
import { SignalsService } from './signals/service.js';
import { Warmup } from './warmup.js';
import { createWatchParts, type WatchMatcher, type WatchService } from './watches/index.js';
import { newestJobEvent } from './watches/store.js';

/** Everything the HTTP app and the workers need, built once in one place (the composition root). */
export interface Deps {
  config: Config;
  /** The database every write and every read of its own writes goes to (DATABASE_URL, or the embedded one). */
  db: Db;
  /**
   * Where the public catalog reads go: listings, details, search, hiring signals, the in-process catalog copy and
   * the catalog version the response cache keys on. DATABASE_READ_URL's read replica, else db itself.
   */
  readDb: Db;
  /** Wall clock in ms; injected so tests control time (rate-limit windows, "today"). */
  now: () => number;
  tokens: TokenService;
  rateLimits: RateLimitStore;
  tiers: TierTable;
  /** Ranked retrieval for ?search=: hybrid keyword + semantic (src/search/hybrid.ts), behind searchGate. */
  search: SearchService;
  /** Admission control every search passes (SEARCH_MAX_IN_FLIGHT, SEARCH_MAX_QUEUED, SEARCH_MAX_WAIT_MS). */
  searchGate: SearchGate;
  /** Embedder, vector index and embedding writer; the pipeline calls searchParts.indexer.embedIds after writes. */
  searchParts: SearchParts;
  /** Starts the embedding catch-up where this role runs it (not FRONTLINE_ROLE=api); idempotent. */
  startEmbeddingCatchUp(): void;
  /** Ingestion: the workflow engine (enqueue, status), the embedded worker and the freshness scheduler. */
  pipeline: Pipeline;
  /** Saved searches with webhook targets (POST /watches). */
  watches: WatchService;
  /** Matches new job events to watches; started by processes that run workflows. */
  watchMatcher: WatchMatcher;
  /** Deep research (POST/GET /deep-research): its workflow runs on the pipeline's engine. */
  research: ResearchService;
  /** The catalog read side the public routes serve. */
  catalog: CatalogService;
  /** Hiring signals (series, trends, newly hiring, time to close) for the API and the site. */
  signals: SignalsService;
  metrics: Metrics;
  /** Rendered catalog responses, valid until the catalog changes (see CatalogVersionFeed). */
  responseCache: ResponseCache;
  /** Whether the start's warm-up is done (serve settles it; GET /readyz?warm=true reads it). */
  warmup: Warmup;
  /** Closes everything createDeps opened, in reverse order. */
  close(): Promise<void>;
}

export interface DepsOverrides {
  db?: Db;
  now?: () => number;
  /** The wall clock that bounds request waits (deep research's DEEP_RESEARCH_WAIT_S); Date.now by default. */
  wallClock?: () => number;
  rateLimits?: RateLimitStore;
  metrics?: Metrics;
  /**
   * true: the caller starts the embedding catch-up itself (Deps.startEmbeddingCatchUp). `serve` does once its
   * first answers are out: the catch-up's first pass reads the rows changed since its mark, which otherwise ran
   * beside the routes being built, before the server listened.
   */
  deferCatchUp?: boolean;
  /** Marks the start's phases (database open, migrations, the rest), for the start's log line. */
  clock?: PhaseClock;
}

export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const mark = (phase: string) => overrides.clock?.mark(phase);
  const db = overrides.db ?? (await openDb(config));
  mark('database');
  // An injected database belongs to the caller, who closes it.
  const closers: (() => Promise<void>)[] = overrides.db ? [] : [() => db.close()];
  try {
    await migrate(db);
    // Rows stored before their places were derived (migration 0170) get them once; later starts find none.
    await backfillJobPlaces(db, (overrides.now ?? Date.now)());
    mark('migrations');
    const now = overrides.now ?? Date.now;
    // REDIS_URL shares one allowance across every API process; otherwise limits are per process.
    const rateLimits: RateLimitStore =
      overrides.rateLimits ??
      (config.redisUrl ? await redisStore(config.redisUrl) : new MemoryRateLimitStore());
    if (!overrides.rateLimits) closers.push(async () => rateLimits.close?.());
    // SAMPLE_DATA=1 fills an empty catalog once; a catalog with any company is left alone.
    if (config.sampleData) await loadSampleCatalog(db, now(), loadSampleHistory);
    const metrics = overrides.metrics ?? new Metrics();
    const readDb = await openReads(config, db, metrics, closers);
    const shared: Shared = { config, db, readDb, now, metrics, closers };
    const { searchParts, gate, search, startEmbeddingCatchUp } = createSearchSide(shared, overrides);
    const versionFeed = await startVersionFeed(readDb, config.cacheCoherenceMs, closers);
    // The one place the read model is chosen: SQL, or the in-process replica of the catalog (the one search
    // retrieves from) in front of it, exact under the response cache's rule.
    const replica = searchParts.replica;
    const read: CatalogReadModel =
      config.readModel === 'memory' && replica
        ? new ReplicaReadModel(new ReplicaGate(replica, () => versionFeed.token()), readDb)
        : new SqlReadModel(readDb);
    let catalog: CatalogService | undefined;
    const { researchParts, pipeline, watchParts } = createWorkflows(
      shared,
      searchParts,
      overrides.wallClock,
      () => catalog,
    );
    catalog = new CatalogService({ read, search, now, shortlist: SEARCH_SHORTLIST });
    mark('services');
    return {
      config,
      db,
      readDb,
      now,
      search,
      searchGate: gate,
      searchParts,
      startEmbeddingCatchUp,
      pipeline,
      research: researchParts.service(pipeline.engine),
      watches: watchParts.service,
      watchMatcher: watchParts.matcher,
      catalog,
      signals: new SignalsService(readDb, createSignalReads(shared, versionFeed)),
      warmup: new Warmup(() => replica?.ready ?? true),
      tokens: new TokenService(db, config.apiTokens, now),
      rateLimits,
      tiers: buildTiers(config.rateLimit),
      // The UTC day is part of validity: "today" (stats.newToday) changes at midnight with no write at all.
      responseCache: new ResponseCache({
        validity: () => `${versionFeed.token()}:${Math.floor(now() / 86_400_000)}`,
      }),
      metrics,
      close: async () => {
        for (const close of closers.reverse()) await close();
      },
    };
  } catch (err) {
    // Everything opened so far, the database last (unless injected): a start that fails is retried.
    for (const close of closers.reverse()) await close().catch(() => {});
    throw err;
  }
}

/**
 * The hiring series' reads: SQL alone (undefined: READ_MODEL=sql), or an in-process copy of the rollups in front
 * of it, exact under the response cache's rule.
 */
function createSignalReads(
  { config, readDb, closers }: Shared,
  versionFeed: CatalogVersionFeed,
): ReplicaSignalReads | undefined {
  if (config.readModel !== 'memory') return undefined;
  const log = componentLogger(config, 'signals');
  const reads = new ReplicaSignalReads(readDb, {
    validity: () => versionFeed.token(),
    minReloadMs: SIGNALS_MIN_RELOAD_MS,
    onError: (err) => log.error({ err }, 'hiring rollups load failed'),
    onLoad: ({ kept, ms, bytes }) =>
      log.info(
        { ms, bytes },
        kept ? 'hiring rollups copied' : 'hiring rollups copy discarded: the catalog moved',
      ),
  });
  closers.push(() => reads.close());
  return reads;
}

/** Counts every outbound request's outcome by host. */
function outboundMetric(metrics: Metrics): (host: string, outcome: string) => void {
  return (host, outcome) => metrics.outboundRequests.inc({ host: hostLabel(host), outcome });
}

/** What the parts createDeps builds share; each part adds its own closer to closers. */
interface Shared {
  config: Config;
  db: Db;
  /** Deps.readDb: the public catalog reads' database. */
  readDb: Db;
  now: () => number;
  metrics: Metrics;
  closers: (() => Promise<void>)[];
}

/**
 * The embedder, the catalog replica (the read model's and search's in-process copy of the catalog), search and its
 * admission gate; starts the embedding catch-up unless deferred.
 */
function createSearchSide(
  shared: Shared,
  overrides: DepsOverrides,
): {
  searchParts: SearchParts;
  gate: SearchGate;
  search: SearchService;
  startEmbeddingCatchUp: () => void;
} {
  const { config, db, readDb, now, metrics, closers } = shared;
  const searchLog = componentLogger(config, 'search');
  const embedder = metrics.timedEmbedder(
    createEmbedder(config, vectorBuildLog(searchLog), outboundMetric(metrics)),
  );
  const gate = new SearchGate(config.searchLimits, (reason) => metrics.searchRejections.inc({ reason }));
  // The replica exists for search in memory and for the replica read model; with both in the database, a process
  // holds nothing in proportion to the catalog.
  const replica =
    config.search === 'memory' || config.readModel === 'memory'
      ? buildReplica(shared, overrides, embedder.id, searchLog)
      : undefined;
  // Closers run in reverse: search stops (its catch-up settles) before the replica saves its snapshot and closes.
  if (replica) closers.push(async () => replica.close());
  const searchParts = createSearchParts({
    db,
    readDb,
    now,
    embedder,
    replica: config.search === 'memory' ? replica : undefined,
    gate,
    logger: searchLog,
  });
  closers.push(() => searchParts.stop());
  // API-only processes read embeddings; workers (and the all-in-one default) keep them complete.
  const startEmbeddingCatchUp = () => {
    if (config.role !== 'api') searchParts.startCatchUp();
  };
  if (!overrides.deferCatchUp) startEmbeddingCatchUp();
  const search: SearchService = timedSearch(
    searchParts.search,
    metrics,
    config.search === 'sql' ? 'sql' : 'hybrid',
  );
  if (replica) metrics.observeScans(() => replica.jobs.scanCounts);
  return { searchParts: { ...searchParts, replica }, gate, search, startEmbeddingCatchUp };
}

/** The in-process replica of the catalog, for search in memory and the replica read model. */
function buildReplica(
  { config, readDb, now }: Shared,
  overrides: DepsOverrides,
  model: string,
  log: ReturnType<typeof componentLogger>,
): CatalogReplica {
  // Loaded and kept current from the read database, like every other public read: the answers it gives and the
  // SQL ones it falls back to (while loading, for filters it does not serve, tags and stats) then describe one
  // state of the catalog, its refreshes follow the version read from that same database (ReplicaGate), and its
  // full loads, a fleet's heaviest reads, fall on the replica rather than on the primary that takes the writes.
  return new CatalogReplica(readDb, {
    model,
    now,
    // The snapshot describes one database: only the embedded one this process opened from its data directory.
    ...(!overrides.db && readDb.kind === 'pglite'
      ? { snapshotPath: join(config.dataDir, 'search-index.snapshot') }
      : {}),
    scanThreadRows: config.searchScanThreadRows,
    onError: (err, msg) => log.warn({ err }, msg),
  });
}

/**
 * The deep-research parts and the ingestion pipeline, sharing one workflow engine.
 * Built without I/O; server.ts / the worker command start it. Closed first (closers run in reverse).
 */
function createWorkflows(
  { config, db, readDb, now, metrics, closers }: Shared,
  searchParts: SearchParts,
  wallClock: (() => number) | undefined,
  catalog: () => CatalogService | undefined,
): { researchParts: ResearchParts; pipeline: Pipeline; watchParts: ReturnType<typeof createWatchParts> } {
  const embed = async (kind: 'job' | 'company', ids: readonly string[]) => {
    await searchParts.indexer.embedIds(kind, ids);
  };
  const onOutbound = outboundMetric(metrics);
  const researchParts = new ResearchParts({
    config,
    db,
    now,
    embed,
    onOutbound,
    ...(wallClock ? { wallClock } : {}),
  });
  closers.push(() => researchParts.close());
  const watchParts = createWatchParts({
    config,
    db,
    now,
    // Searches read readDb: a watch's search matches only the events that database has received so far.
    ...(readDb !== db ? { searchedUpTo: () => newestJobEvent(readDb) } : {}),
    engine: () => pipeline.engine,
    parseFilters: (filters) => jobFilters(filters as Parameters<typeof jobFilters>[0], now()),
    searchIds: async (filters, text) => {
      const shortlist = await catalog()?.listJobs(filters, text, { limit: SEARCH_SHORTLIST, offset: 0 });
      return new Set(shortlist?.items.map((j) => j.id) ?? []);
    },
    onOutbound,
    onDelivery: (outcome) => metrics.watchDeliveries.inc({ outcome }),
    onError: (err) => componentLogger(config, 'watches').error({ err }, 'watch matching failed'),
  });
  closers.push(() => watchParts.matcher.stop());
  const pipeline: Pipeline = new Pipeline({
    config,
    db,
    now,
    indexer: searchParts.indexer,
    onOutbound,
    counters: metrics,
    research: researchParts.definition,
    watches: watchParts.definition,
    observer: metrics.workflowObserver(),
  });
  closers.push(() => pipeline.stop());
  return { researchParts, pipeline, watchParts };
}

/**
 * The static model's word-vector cache is built once per data directory (seconds, from a 300 MB package file):
 * the log says so, since searches and the embedding of new rows wait for it while catalog reads do not.
 */
function vectorBuildLog(log: { info(obj: object, msg: string): void }): VectorBuildListener {
  return {
    building: (path) =>
      log.info(
        { path },
        'building the word-vector cache (first start on this data directory, a few seconds): semantic search and new embeddings wait for it',
      ),
    built: (path, ms) => log.info({ path, ms }, 'word-vector cache built'),
  };
}

/** ioredis is imported only when REDIS_URL is set: one process on the embedded database never loads it. */
async function redisStore(url: string): Promise<RateLimitStore> {
  const { RedisRateLimitStore } = await import('./http/limits/redis-store.js');
  return new RedisRateLimitStore({ url });
}
