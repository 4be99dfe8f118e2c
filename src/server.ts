import { buildApp } from './app.js';
import type { Config } from './config.js';
import { createDeps } from './deps.js';
import { loggerOptions } from './logger.js';
import { MALLOC_ENV, missingMallocEnv } from './malloc-env.js';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the HTTP API on the configured host and port. Shutdown order: stop accepting, let in-flight requests
 * finish (Fastify's close waits for them), then close the database.
 */
export async function runServer(config: Config): Promise<RunningServer> {
  const deps = await createDeps(config);
  const app = await buildApp(deps, { logger: loggerOptions(config) });
  try {
    // FRONTLINE_ROLE=all (default) runs the embedded worker and the freshness scheduler here; =api only enqueues.
    await deps.pipeline.start();
    const url = await app.listen({ host: config.host, port: config.port });
    // After listen: a restart answers catalog reads at once while the search index loads behind them.
    deps.searchParts.warm();
    void deps.catalog.warm();
    const missing = missingMallocEnv();
    if (missing.length > 0) {
      app.log.info(
        { missing, recommended: MALLOC_ENV },
        'glibc malloc settings not set: RSS grows ~100 MB higher without them (docs/deployment.md, Memory)',
      );
    }
    return {
      url,
      stop: async () => {
        await app.close();
        await deps.close();
      },
    };
  } catch (err) {
    await app.close().catch(() => {});
    await deps.close();
    throw err;
  }
}

export interface RunningWorker {
  stop(): Promise<void>;
}

/** `frontline worker`: runs pipeline workflows and the freshness scheduler, without the HTTP API. */
export async function runWorker(config: Config): Promise<RunningWorker> {
  const deps = await createDeps({ ...config, role: 'worker' });
  // DBOS's queue polling may not hold the event loop open by itself; this does, until stop().
  const keepAlive = setInterval(() => {}, 1 << 30);
  try {
    await deps.pipeline.start();
  } catch (err) {
    clearInterval(keepAlive);
    await deps.close();
    throw err;
  }
  return {
    stop: async () => {
      clearInterval(keepAlive);
      await deps.close();
    },
  };
}
