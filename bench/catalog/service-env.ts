import { MALLOC_ENV } from '../../src/runtime/malloc-env.js';
import { embeddingsCacheDir } from './generate.js';
import { BENCH_TOKEN } from './scenarios.js';

// Bench-level limits: the spec's 20/min would stop a bench after 20 requests. Config caps a limit at 10,000,000;
// the 1 s window keeps the in-memory sliding log (one timestamp per allowed request in the window) at one second
// of traffic, where a 60 s window would make every request shift a log of up to a minute of bench traffic.
export const RATE_LIMIT_ENV = {
  RATE_LIMIT_ANONYMOUS: '10000000',
  RATE_LIMIT_TOKEN: '10000000',
  RATE_LIMIT_PAGES: '10000000',
  RATE_LIMIT_WINDOW_MS: '1000',
};

/**
 * The environment of a benched service process. Minimal, so the caller's DATABASE_URL, REDIS_URL or SAMPLE_DATA
 * cannot leak into the run; server mode still keeps the word-vector cache in DATA_DIR (the generator's, under
 * `cacheDir`), so no run rebuilds it. `extra` comes last and wins.
 */
export function benchServiceEnv(
  port: number,
  target: { dataDir?: string; databaseUrl?: string },
  cacheDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    API_TOKENS: BENCH_TOKEN,
    ...RATE_LIMIT_ENV,
    // The malloc settings every production start sets (npm start, the image): see src/runtime/malloc-env.ts.
    ...MALLOC_ENV,
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    DATA_DIR: target.dataDir ?? embeddingsCacheDir(cacheDir),
    ...extra,
  };
}
