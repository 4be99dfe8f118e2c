import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.js';
import { type Config, parseConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import type { RateLimitStore } from '../../src/http/limits/store.js';
import { freshDatabase, type TestDatabase } from './db.js';

/** A controllable clock: tests move time instead of sleeping. */
export class TestClock {
  constructor(public ms = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  clock: TestClock;
  config: Config;
  /** A valid token minted in the database for this app. */
  token: string;
  request(opts: InjectOptions & { token?: string | null }): Promise<LightMyRequestResponse>;
  get(url: string, token?: string | null): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** true: the rate limits are the configuration's defaults, not raised for tests (policy tests pin them). */
  defaultRateLimits?: boolean;
  clock?: TestClock;
  rateLimits?: RateLimitStore;
  /** The wall clock bounding request waits (deep research); Date.now unless a test moves it. */
  wallClock?: () => number;
  /** Passed to buildApp (a logger, say). */
  app?: AppOptions;
  /** Runs before app.ready(): hooks a test adds to watch the app. */
  beforeReady?: (app: FastifyInstance) => void;
  /** Load pgvector into the embedded database though the app searches in memory (a test of both models). */
  vector?: boolean;
  /** A database another app of the test already serves (two configurations over one catalog); its owner drops it. */
  database?: TestDatabase;
}

let sharedApps = 0;

/** A full app on a fresh database, driven through the real HTTP surface with app.inject. */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  // Tests raise the rate limits unless they are about rate limits, so unrelated tests never hit 429.
  const config = parseConfig({
    ...(opts.defaultRateLimits
      ? {}
      : {
          RATE_LIMIT_ANONYMOUS: '100000',
          RATE_LIMIT_TOKEN: '100000',
          RATE_LIMIT_FAILED_AUTH: '100000',
          RATE_LIMIT_PAGES: '100000',
        }),
    LOG_LEVEL: 'silent',
    // No catalog_version poll on a wall-clock interval (PostgreSQL only): every write of an in-process test goes
    // through the app's own Db, which moves the response cache's validity at once, while a poll landing between
    // two requests of a test (late on a loaded machine) would empty the cache under it. Coherence across
    // processes, which the poll is for, is tested with real processes (test/fleet, test/pipeline/fleet.test.ts).
    CACHE_COHERENCE_MS: '0',
    // TEST_READ_MODEL=sql runs a suite with the in-memory read model switched off.
    ...(process.env.TEST_READ_MODEL ? { READ_MODEL: process.env.TEST_READ_MODEL } : {}),
    // TEST_SEARCH=sql runs a suite with search ranked in the database.
    ...(process.env.TEST_SEARCH ? { SEARCH: process.env.TEST_SEARCH } : {}),
    ...opts.env,
  });
  // pgvector in the embedded database where search ranks in it (as src/db/open.ts loads it), or where asked.
  const database =
    opts.database ?? (await freshDatabase(undefined, { vector: opts.vector || config.search === 'sql' }));
  const clock = opts.clock ?? new TestClock();
  const deps = await createDeps(config, {
    db: database.db,
    now: clock.now,
    // No periodic embedding pass on a wall-clock interval: a test runs catch-up passes itself, so a background
    // pass can never land between two of its steps however long the file takes on a loaded machine.
    deferCatchUp: true,
    ...(opts.rateLimits ? { rateLimits: opts.rateLimits } : {}),
    ...(opts.wallClock ? { wallClock: opts.wallClock } : {}),
  });
  const app = await buildApp(deps, opts.app);
  opts.beforeReady?.(app);
  await app.ready();
  // The start-up embedding pass a worker runs (full on a new model, else rows changed since the mark), done before
  // the test begins so a write it did not make cannot land between two of its requests.
  await deps.searchParts.indexer.resume();
  // As a server does once listening (searchParts.warm): listings and searches then read the in-process replica,
  // or search ranked in the database has its vocabulary.
  await deps.searchParts.replica?.refresh();
  await deps.searchParts.warm();
  // Token names are unique per database: a second app over a shared one mints its own.
  const minted = await deps.tokens.create(opts.database ? `test-${sharedApps++}` : 'test');
  const request: TestApp['request'] = ({ token, ...rest }) => {
    const headers = { ...(rest.headers ?? {}) } as Record<string, string>;
    if (token) headers.authorization = `Bearer ${token}`;
    return app.inject({ ...rest, headers });
  };
  return {
    app,
    deps,
    clock,
    config,
    token: minted.secret,
    request,
    get: (url, token = null) => request({ method: 'GET', url, token }),
    close: async () => {
      await app.close();
      await deps.close();
      if (!opts.database) await database.drop();
    },
  };
}
