import { afterAll, beforeAll, expect, it } from 'vitest';
import { tsvRows } from '../../src/catalog/fields/tsv.js';
import { CatalogReplica } from '../../src/catalog/replica/catalog-replica.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { SEARCH_TEST_DATA_DIR } from './support.js';

/** The index's bulk read from the database: rows travel as escaped tab-separated text, decoded per field. */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: { DATA_DIR: SEARCH_TEST_DATA_DIR, SAMPLE_DATA: '1' } });
  await t.deps.searchParts.idle();
});
afterAll(async () => {
  await t?.close();
});

it('splits rows and fields on tab and newline bytes only, keeping empty fields and characters of any width', () => {
  expect(tsvRows('a\tb\t\tdé\n日本語\t🚀x\t\nlast')).toEqual([
    ['a', 'b', '', 'dé'],
    ['日本語', '🚀x', ''],
    ['last'],
  ]);
});

it('loads titles, places and URLs exactly as stored, escapes and non-ASCII characters included', async () => {
  const [job] = await t.deps.db.query<{ id: string; title: string; location: string; url: string }>(
    'SELECT id, title, location, url FROM jobs WHERE active ORDER BY id LIMIT 1',
  );
  const title = 'Ingénieur\tsolutions\\n 日本 \\ 🚀\r\nLead';
  const location = 'São Paulo\tBR';
  const url = 'https://example.com/jobs/ü?q=a\\tb';
  await t.deps.db.query('UPDATE jobs SET title = $2, location = $3, url = $4 WHERE id = $1', [
    job!.id,
    title,
    location,
    url,
  ]);
  try {
    // No snapshot: the load reads every job through the bulk chunks.
    const index = new CatalogReplica(t.deps.db, { model: t.deps.searchParts.embedder.id });
    await index.refresh();
    expect(index.loadedFrom).toBe('database');
    const got = index.jobs.attributes(job!.id)!;
    expect({ title: got.title, place: got.place, url: got.url }).toEqual({ title, place: location, url });
    expect(index.jobs.size).toBe(t.deps.searchParts.replica!.jobs.size);
    index.close();
  } finally {
    await t.deps.db.query('UPDATE jobs SET title = $2, location = $3, url = $4 WHERE id = $1', [
      job!.id,
      job!.title,
      job!.location,
      job!.url,
    ]);
  }
});
