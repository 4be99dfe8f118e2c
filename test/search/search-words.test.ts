import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realCatalog } from '../../bench/relevance/real-catalog.js';
import { migrate } from '../../src/db/migrate.js';
import { distinctLexemes } from '../../src/search/keyword-index/lexemes.js';
import { FORMS } from '../../src/search/query/word-forms.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

/**
 * The database reads job titles and company names into full text (search_words, migration 0173) as the in-memory
 * keyword index does (keyword-index/lexemes.ts): the same lexemes for every form of every compound of
 * query/word-forms.ts and for every real title of the relevance bench, so a query's lexemes match the same jobs
 * whichever side searches. On a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */

let t: TestDatabase;

beforeAll(async () => {
  t = await freshDatabase();
  await migrate(t.db);
});

afterAll(async () => {
  await t?.drop();
});

/** Each text's lexemes as the database stores them for a job title, sorted. */
async function storedLexemes(texts: readonly string[]): Promise<string[][]> {
  const rows = await t.db.query<{ i: number; lexemes: string[] }>(
    `SELECT u.i::int AS i, coalesce(array_agg(l.lexeme ORDER BY l.lexeme) FILTER (WHERE l.lexeme IS NOT NULL),
            '{}') AS lexemes
       FROM unnest($1::text[]) WITH ORDINALITY AS u(text, i)
       LEFT JOIN LATERAL unnest(to_tsvector('english', search_words(u.text))) AS l ON true
      GROUP BY u.i ORDER BY u.i`,
    [texts],
  );
  return rows.map((r) => r.lexemes);
}

const memoryLexemes = (text: string) => distinctLexemes(text).sort();

describe('titles read into full text', () => {
  it('joins every form of every compound as word-forms.ts does', async () => {
    const texts = Object.entries(FORMS).flatMap(([joined, forms]) =>
      [joined, ...forms].flatMap((form) => [
        `Solutions Engineer, ${form}`,
        `${form.replaceAll(' ', '-')} lead`,
        `${form.toUpperCase().replaceAll(' ', ' – ')} (remote)`,
      ]),
    );
    const stored = await storedLexemes(texts);
    expect(stored).toEqual(texts.map(memoryLexemes));
    // The joined word itself, not its parts: "Pre-Sales" is 'presal' alone.
    expect(stored[texts.indexOf('pre-sales lead')]).toEqual(['lead', 'presal']);
  });

  it('splits words at punctuation and keeps letters of every script', async () => {
    const texts = [
      'AI/ML Engineer (GTM)',
      'Node.js Developer v2.5',
      "Women's Health Lead, Zürich",
      'R&D_ops',
    ];
    expect(await storedLexemes(texts)).toEqual(texts.map(memoryLexemes));
  });

  it('gives every real title of the relevance bench its in-memory lexemes', async () => {
    const titles = [...new Set(realCatalog().companies.flatMap((c) => c.jobs.map((j) => j.title)))];
    expect(titles.length).toBeGreaterThan(1000);
    const stored = await storedLexemes(titles);
    const differ = titles.filter((title, i) => stored[i]!.join(' ') !== memoryLexemes(title).join(' '));
    expect(differ).toEqual([]);
  });
});
