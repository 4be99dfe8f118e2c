import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Embedder } from '../../src/search/embedders/types.js';
import { EmbeddingIndexer } from '../../src/search/indexer.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { SEARCH_TEST_DATA_DIR } from './support.js';

/**
 * A restart resumes embedding from the recorded mark: only rows changed since are embedded, unless the model
 * changed, which needs a full pass. Runs on PGlite and PostgreSQL.
 */
let t: TestApp;
let active: number;

beforeAll(async () => {
  t = await startTestApp({ env: { DATA_DIR: SEARCH_TEST_DATA_DIR, SAMPLE_DATA: '1' } });
  await t.deps.searchParts.idle();
  await t.deps.searchParts.indexer.catchUp();
  const [n] = await t.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE active');
  active = n!.n;
});
afterAll(async () => {
  await t?.close();
});

/** The same vectors under another identity: a "model change" without a second model. */
const renamed = (inner: Embedder, id: string): Embedder => ({
  id,
  get dimension() {
    return inner.dimension;
  },
  maxBatch: inner.maxBatch,
  embed: (texts) => inner.embed(texts),
});

it('records a mark per kind for the current model after a full pass', async () => {
  const marks = await t.deps.db.query<{ kind: string; model: string }>(
    'SELECT kind, model FROM search_embedding_marks ORDER BY kind',
  );
  expect(marks).toEqual([
    { kind: 'company', model: t.deps.searchParts.embedder.id },
    { kind: 'job', model: t.deps.searchParts.embedder.id },
  ]);
});

it('after a restart embeds only the rows changed while it was down', async () => {
  await t.deps.db.query(
    `UPDATE jobs SET title = title || ' (Remote-first)' WHERE id IN (SELECT id FROM jobs WHERE active ORDER BY id LIMIT 3)`,
  );
  const restarted = new EmbeddingIndexer(t.deps.db, t.deps.searchParts.embedder, t.clock.now);
  expect(await restarted.countStale('job')).toBe(3);
  expect(await restarted.resume()).toBe(3);
  expect(await restarted.countStale('job')).toBe(0);
});

it('re-embeds everything when the model changed, and records the new model', async () => {
  const next = renamed(t.deps.searchParts.embedder, 'test:renamed-model');
  const restarted = new EmbeddingIndexer(t.deps.db, next, t.clock.now);
  const [companies] = await t.deps.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM companies WHERE active',
  );
  expect(await restarted.resume()).toBe(active + companies!.n);
  const marks = await t.deps.db.query<{ model: string }>('SELECT DISTINCT model FROM search_embedding_marks');
  expect(marks).toEqual([{ model: 'test:renamed-model' }]);
  // And a second restart on that model has nothing to do.
  expect(await new EmbeddingIndexer(t.deps.db, next, t.clock.now).resume()).toBe(0);
});
