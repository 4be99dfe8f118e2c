import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/port.js';
import { NameMatcher, trigrams, wordSimilarity } from '../../src/search/query/trigram.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

/** Names and queries of the relevance benchmark, plus misspellings and edge cases. */
const catalog = JSON.parse(
  readFileSync(new URL('../../bench/relevance/catalog.json', import.meta.url), 'utf8'),
) as {
  companies: { name: string }[];
};
const queries = (
  JSON.parse(readFileSync(new URL('../../bench/relevance/queries.json', import.meta.url), 'utf8')) as {
    queries: { query: string }[];
  }
).queries.map((q) => q.query);
const NAMES = [
  ...catalog.companies.map((c) => c.name),
  'Acme',
  'Acme Robotics',
  'A',
  'Company 12',
  'Ünïcode Labs',
];
const TEXTS = [
  ...queries,
  'antropic',
  'databriks solutions engineer',
  'anthropic anthropic',
  'acme robotcs',
  'company 123',
  'huging face',
  'weights and biases',
  'x',
  '',
  '  ',
  'ünicode',
];

let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await freshDatabase();
  db = t.db;
  await migrate(db);
});
afterAll(async () => t?.drop());

describe('pg_trgm word_similarity in memory', () => {
  it('pads and splits words like pg_trgm', () => {
    expect(trigrams('Ab-c')).toEqual(['  a', ' ab', 'ab ', '  c', ' c ']);
  });

  it('equals the database function on every name × query pair', async () => {
    const rows = await db.query<{ n: string; q: string; s: number }>(
      `SELECT n, q, word_similarity(lower(n), lower(q))::float8 AS s
         FROM unnest($1::text[]) n, unnest($2::text[]) q`,
      [NAMES, TEXTS],
    );
    expect(rows.length).toBe(NAMES.length * TEXTS.length);
    const wrong = rows.filter((r) => Math.abs(wordSimilarity(r.n, r.q) - r.s) > 1e-6);
    expect(wrong.map((r) => [r.n, r.q, r.s, wordSimilarity(r.n, r.q)])).toEqual([]);
  });

  it('matches names at a threshold like a scan of every name would', () => {
    const m = new NameMatcher();
    const names = new Map<string, string>();
    const put = (id: string, name: string) => {
      m.set(id, name);
      names.set(id, name);
    };
    const scanEqual = () => {
      for (const text of TEXTS) {
        const scan = [...names]
          .map(([id, name]) => ({ id, similarity: wordSimilarity(name, text) }))
          .filter((x) => x.similarity >= 0.5)
          .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
        expect(m.match(text, 0.5), text).toEqual(scan);
      }
    };
    for (const [i, name] of NAMES.entries()) put(`id-${String(i).padStart(3, '0')}`, name);
    scanEqual();
    // Removed names free their numbers for new ones; renames re-index.
    for (let i = 3; i < NAMES.length; i += 4) {
      const id = `id-${String(i).padStart(3, '0')}`;
      m.delete(id);
      names.delete(id);
    }
    for (let i = 0; i < 20; i++) put(`new-${i}`, `${NAMES[i]} Labs`);
    put('id-001', 'Hugging Face Labs');
    scanEqual();
    expect(m.size).toBe(names.size);
    expect(NAMES[Number(m.match('antropic', 0.5)[0]!.id.slice(3))]).toBe('Anthropic');
    m.set('id-000', 'Renamed');
    expect(m.match('antropic', 0.5).map((x) => x.id)).not.toContain('id-000');
    m.delete('id-002');
    expect(m.match('databriks', 0.5)).toEqual([]);
    expect(m.match('databriks', 0.5, () => false)).toEqual([]);
  });
});
