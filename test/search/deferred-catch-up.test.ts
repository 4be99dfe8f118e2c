import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

/**
 * `serve` builds its dependencies with the embedding catch-up deferred and starts it once its first answers are
 * out (src/server.ts): nothing is embedded before that, and everything after. Runs on PGlite and PostgreSQL.
 */
let database: TestDatabase;
let deps: Deps;

const embedded = async () => {
  const [row] = await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM job_embeddings');
  return row!.n;
};

beforeAll(async () => {
  database = await freshDatabase();
  const config = parseConfig({ SAMPLE_DATA: '1', LOG_LEVEL: 'silent' });
  deps = await createDeps(config, { db: database.db, deferCatchUp: true });
});
afterAll(async () => {
  await deps?.close();
  await database?.drop();
});

it('embeds nothing until the caller starts the catch-up, then the whole sample catalog', async () => {
  await deps.searchParts.idle();
  expect(await embedded()).toBe(0);

  deps.startEmbeddingCatchUp();
  deps.startEmbeddingCatchUp(); // idempotent: one catch-up chain
  await deps.searchParts.idle();
  const [active] = await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE active');
  expect(active!.n).toBeGreaterThan(0);
  expect(await embedded()).toBeGreaterThanOrEqual(active!.n);
});
