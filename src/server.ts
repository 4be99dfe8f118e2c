import { buildApp } from './app.js';
import type { Config } from './config.js';
import { type RetryLogger, retryWhileUnavailable } from './db/retry.js';
import { createDeps, type Deps, type DepsOverrides } from './deps.js';
import { componentLogger, loggerOptions } from './logger.js';
import { collectAfterLoad, limitHeapGrowth } from './runtime/heap-growth.js';
import { holdEventLoop } from './runtime/hold-event-loop.js';
import { MALLOC_ENV, missingMallocEnv } from './runtime/malloc-env.js';
import { PhaseClock } from './runtime/phase-clock.js';
import { firstToken, startLine } from './runtime/start-line.js';

export interface RunningServer {
  url: string;
  /**
   * For the person who started it (serve prints it to stderr once): "Frontline up at http://localhost:3000 — N jobs,
   * M companies (embedded database at ./data)", and on the embedded database's first start a one-time token.
   */
  greeting: string;
  /**
   * Settles once what a start leaves until after the server answers is done: the route schemas not used yet are
   * compiled, then the workflow engine launches (catalog reads need none of it). Rejects when either fails;
   * `serve` then exits. Pipeline requests that arrive before the launch wait for it (the engine starts on first
   * use), and a route used before its schemas were compiled compiles them itself. Once all of it and the search
   * side's warm-up are done, the process is warm (deps.warmup, `GET /readyz?warm=true`; logged as `warm`).
   */
  startupTasks: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the HTTP API on the configured host and port. Shutdown order: stop accepting, let in-flight requests
 * finish (Fastify's close waits for them), then close the database.
 */
export async function runServer(config: Config): Promise<RunningServer> {
  // Until listen() no socket keeps the loop busy (see holdEventLoop); released once the server's socket does.
  const release = holdEventLoop();
  try {
    return await startServer(config);
  } finally {
    release();
  }
}

async function startServer(config: Config): Promise<RunningServer> {
  // Where a start's time goes, in its log line: process boot and module loading, then each phase.
  const clock = new PhaseClock();
  clock.mark('boot');
  const deps = await depsOnceReachable(config, { deferCatchUp: true, clock });
  const app = await buildApp(deps, { logger: loggerOptions(config) });
  clock.mark('app');
  let url: string;
  try {
    url = await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await app.close().catch(() => {});
    await deps.close();
    throw err;
  }
  clock.mark('listen');
  const stats = await deps.catalog.stats();
  const totals = { jobs: stats.totalJobs, companies: stats.totalCompanies };
  app.log.info({ ms: clock.ms, total: clock.total, ...totals }, 'started');
  await warnIfKeywordOnly(deps, app.log);
  const token = await firstToken(config, deps);
  const greeting = [startLine(config, url, totals), token].filter(Boolean).join('\n');
  // Capped from here, once listening: the index load's garbage at V8's own heuristic set the process's RSS peak
  // on a first start, and capped from the very start, loading modules and the database collected about twice as
  // often (a restart's first answer came later; docs/performance.md).
  limitHeapGrowth(config.heapGrowingPercent);
  // After listen: a restart answers catalog reads at once (from the database) while the catalog replica loads.
  const searchWarmed = deps.searchParts.warm();
  const warmed = deps.catalog.warm().catch(() => {});
  // Once the index is in: the embedding catch-up (its first pass is ~0.1 s of queries the first answers need
  // not wait for), the route schemas not compiled yet, then the workflow engine (DBOS: ~0.2 s to import, then its own
  // queries; started together with the index load, the first answers waited ~0.35 s longer). A pipeline request
  // before then starts the engine on its own. FRONTLINE_ROLE=all (default) runs the embedded worker and the
  // freshness scheduler here; =api only enqueues. On the embedded database the engine waits for work
  // (Pipeline.startOnDemand).
  let stopping = false;
  const startupTasks = warmed.then(async () => {
    // Stopped before the index was in (a SIGTERM right after a start): nothing to launch into a closed database.
    if (stopping) return;
    // The collection's pause lands on the requests that waited for the load, not later ones.
    if (config.heapGrowingPercent > 0) collectAfterLoad();
    deps.startEmbeddingCatchUp();
    try {
      await app.compileSchemas();
    } catch (err) {
      app.log.error({ err }, 'route schemas could not compile');
      throw err;
    }
    if (stopping) return;
    // The engine logs its launch, or why it could not launch (then serve exits 1).
    if (!(await launchEngine(deps, app.log, () => stopping))) {
      app.log.info('workflow engine idle: it launches with the first pipeline request or due re-scrape');
    }
    if (config.role !== 'api') deps.watchMatcher.start();
    // Search's warm-up and the in-process copy of the hiring rollups (the series read SQL until it is in).
    await Promise.all([searchWarmed, deps.signals.reads.warm()]);
    deps.warmup.settle();
    app.log.info({ total: clock.total }, 'warm');
  });
  // The caller handles a failure; this keeps it from also surfacing as an unhandled rejection.
  startupTasks.catch(() => {});
  const missing = missingMallocEnv();
  if (missing.length > 0) {
    app.log.info(
      { missing, recommended: MALLOC_ENV },
      'glibc malloc settings not set: RSS grows ~100 MB higher without them (docs/deployment.md, Memory)',
    );
  }
  return {
    url,
    greeting,
    startupTasks,
    stop: async () => {
      stopping = true;
      await requestsAlreadyReceived();
      await app.close();
      await deps.close();
    },
  };
}

/**
 * Two turns of the event loop before closing. A request whose bytes came in while the loop was busy (a start's
 * engine launch, a heavy search) is in the same poll as the signal, or in the next one when its connection was
 * still to be accepted. Closed first, Fastify answers such a request 503 although it arrived before the signal;
 * after these turns it is in flight, and close() lets it finish.
 */
async function requestsAlreadyReceived(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
}

export interface RunningWorker {
  stop(): Promise<void>;
}

/** `frontline worker`: runs pipeline workflows and the freshness scheduler, without the HTTP API. */
export async function runWorker(config: Config): Promise<RunningWorker> {
  limitHeapGrowth(config.heapGrowingPercent);
  // Held until stop(): DBOS's queue polling may not keep the loop open by itself, and see holdEventLoop.
  const release = holdEventLoop();
  let deps: Deps | undefined;
  try {
    const workerConfig: Config = { ...config, role: 'worker' };
    deps = await depsOnceReachable(workerConfig);
    const { pipeline } = deps;
    await retryWhileUnavailable('workflow engine launch', () => pipeline.start(), {
      logger: componentLogger(workerConfig, 'start'),
    });
    deps.watchMatcher.start();
  } catch (err) {
    release();
    await deps?.close();
    throw err;
  }
  const started = deps;
  return {
    stop: async () => {
      release();
      await started.close();
    },
  };
}

/**
 * The engine's start for serve, retried while the database refuses or drops connections (requests that need the
 * engine answer 503 meanwhile); resolves true when it launched (Pipeline.startOnDemand).
 */
function launchEngine(deps: Deps, logger: RetryLogger, stopped: () => boolean): Promise<boolean> {
  return retryWhileUnavailable('workflow engine launch', () => deps.pipeline.startOnDemand(), {
    logger,
    stopped,
  });
}

/**
 * createDeps, retried with capped exponential backoff while the database refuses or drops connections (opening
 * it, applying migrations): a process started before its database, or during an outage, waits for it and logs
 * each retry, instead of exiting. Every attempt that fails closes what it opened.
 */
function depsOnceReachable(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  return retryWhileUnavailable('start', () => createDeps(config, overrides), {
    logger: componentLogger(config, 'start'),
  });
}

/** Says once, at start, when search ranked in the database has no semantic lists (the database lacks pgvector). */
async function warnIfKeywordOnly(deps: Deps, log: { warn(msg: string): void }): Promise<void> {
  if (await deps.searchParts.semantic().catch(() => true)) return;
  log.warn(
    'SEARCH=sql without pgvector: the database offers no `vector` extension, so searches rank keyword lists only (docs/deployment.md#which-search-mode)',
  );
}
