import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addJobs } from '../catalog/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addSearchCompany, addSearchJobs, listed } from './search-jobs.js';

/**
 * With SEARCH=sql and READ_MODEL=sql a process holds no replica of the catalog: search is ranked in the database
 * and still understands what it is asked (misspellings, company names, filters inside retrieval). Through HTTP
 * on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */

const HOUR = 3_600_000;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: { SEARCH: 'sql', READ_MODEL: 'sql' } });
  const acme = await addSearchCompany(t, 'Anthropic', 'anthropic.com');
  const globex = await addSearchCompany(t, 'Globex Data', 'globex.com');
  await addSearchJobs(t, [
    [acme, 'Solutions Architect', 'solutions_engineer', 'London, United Kingdom'],
    [acme, 'Security Engineer', 'engineering', 'San Francisco, CA'],
    [globex, 'Solutions Engineer', 'solutions_engineer', 'Remote - US'],
    [globex, 'Customer Success Manager', 'csm', 'New York, NY'],
  ]);
});

afterAll(async () => {
  await t?.close();
});

const titles = async (url: string) =>
  (await listed<{ title?: string; name?: string }>(t, url)).map((d) => d.title ?? d.name);

describe('search ranked in the database', () => {
  it('holds no replica of the catalog', () => {
    expect(t.deps.searchParts.replica).toBeUndefined();
  });

  it('answers job searches with typos corrected and filters inside retrieval', async () => {
    expect((await titles('/api/v1/jobs?search=solutons%20engineer'))[0]).toBe('Solutions Engineer');
    expect(await titles('/api/v1/jobs?search=solutions&remote_only=true')).toEqual(['Solutions Engineer']);
    expect(await titles('/api/v1/jobs?search=customer%20sucess')).toEqual(['Customer Success Manager']);
  });

  it('reads places and company names', async () => {
    expect((await titles('/api/v1/jobs?search=solutions%20london'))[0]).toBe('Solutions Architect');
    expect((await titles('/api/v1/jobs?search=antropic'))[0]).toMatch(
      /Solutions Architect|Security Engineer/,
    );
    expect((await titles('/api/v1/companies?search=antrhopic'))[0]).toBe('Anthropic');
    expect((await titles('/api/v1/companies?search=globex'))[0]).toBe('Globex Data');
  });

  it('sees a write at the next search', async () => {
    const now = t.clock.now();
    const [c] = await t.deps.db.query<{ id: string }>(`SELECT id FROM companies WHERE name = 'Globex Data'`);
    await addJobs(
      t.deps.db,
      [
        {
          companyId: c!.id,
          companyName: 'Globex Data',
          title: 'Deployment Strategist',
          roleCategory: 'fde',
          postedAt: new Date(now),
        },
      ],
      now,
    );
    expect(await titles('/api/v1/jobs?search=deployment%20strategist')).toEqual(['Deployment Strategist']);
  });

  it('corrects to words a write adds, and keeps the counts it reads them from exact', async () => {
    const now = t.clock.now();
    const [c] = await t.deps.db.query<{ id: string }>(`SELECT id FROM companies WHERE name = 'Anthropic'`);
    const job = { companyId: c!.id, companyName: 'Anthropic', roleCategory: 'engineering' as const };
    const [wrangler, other] = await addJobs(
      t.deps.db,
      [
        { ...job, title: 'Kubernetes Wrangler', postedAt: new Date(now) },
        { ...job, title: 'Kubernetes Wrangler', postedAt: new Date(now - HOUR) },
      ],
      now,
    );
    // "wrangler" is a word of no title before this write: the typo is corrected only from the words read since.
    expect((await titles('/api/v1/jobs?search=wranlger'))[0]).toBe('Kubernetes Wrangler');
    // Closing, re-titling and deleting jobs move the counts as a grouping of the active jobs would.
    await t.deps.db.transaction(async (tx) => {
      await tx.query('UPDATE jobs SET active = false WHERE id = $1', [wrangler]);
      await tx.query(`UPDATE jobs SET title = 'Cluster Wrangler' WHERE id = $1`, [other]);
      await tx.query(`DELETE FROM jobs WHERE title = 'Security Engineer'`);
      await tx.query('UPDATE catalog_version SET version = version + 1');
    });
    const counted = await t.deps.db.query(
      'SELECT title, text, n FROM job_text_counts WHERE n > 0 ORDER BY title, text',
    );
    const grouped = await t.deps.db.query(
      `SELECT * FROM (SELECT true AS title, title AS text, count(*)::int AS n FROM jobs WHERE active GROUP BY 2
        UNION ALL SELECT false, company_name, count(*)::int FROM jobs WHERE active GROUP BY 2) g
       ORDER BY title, text`,
    );
    expect(counted).toEqual(grouped);
    expect(counted).toContainEqual({ title: true, text: 'Cluster Wrangler', n: 1 });
    expect(counted).not.toContainEqual(expect.objectContaining({ text: 'Kubernetes Wrangler' }));
    expect((await titles('/api/v1/jobs?search=clustr%20wranlger'))[0]).toBe('Cluster Wrangler');
  });

  it('reads a compound in every form as one word, in titles and queries alike', async () => {
    const now = t.clock.now();
    const [c] = await t.deps.db.query<{ id: string }>(`SELECT id FROM companies WHERE name = 'Anthropic'`);
    const job = { companyId: c!.id, companyName: 'Anthropic', roleCategory: 'sales_engineer' as const };
    await addJobs(
      t.deps.db,
      [
        { ...job, title: 'Sales Engineer (Pre-Sales)', postedAt: new Date(now) },
        { ...job, title: 'Presales Consultant', postedAt: new Date(now - HOUR) },
      ],
      now,
    );
    for (const q of ['presales', 'pre-sales', 'pre sales', 'Pre-Sale']) {
      const found = await titles(`/api/v1/jobs?search=${encodeURIComponent(q)}`);
      expect(new Set(found.slice(0, 2)), q).toEqual(
        new Set(['Sales Engineer (Pre-Sales)', 'Presales Consultant']),
      );
    }
  });
});

/** Whether the database offers pgvector (PGlite with @electric-sql/pglite-pgvector installed, or a server with it). */
async function offersVectors(): Promise<boolean> {
  const rows = await t.deps.db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
  return rows.length > 0;
}

type Explained = { title: string; explain: { lists: Record<string, number> } };

describe('semantic lists', () => {
  it('are ranked exactly where the database offers pgvector', async () => {
    const vectors = await offersVectors();
    expect(await t.deps.searchParts.semantic()).toBe(vectors);
    const res = await t.get('/api/v1/jobs?search=solutions%20engineer&explain=true', t.token);
    expect(res.statusCode).toBe(200);
    const items = res.json().data as Explained[];
    expect(items[0]?.title).toBe('Solutions Engineer');
    expect(items.some((j) => (j.explain.lists.semantic ?? 0) > 0)).toBe(vectors);
  });

  it('rank a job that shares no word with the query by its meaning', async (ctx) => {
    if (!(await offersVectors()))
      ctx.skip('the database offers no pgvector: search ranks keyword lists only');
    const res = await t.get('/api/v1/jobs?search=client%20retention&explain=true', t.token);
    expect(res.statusCode).toBe(200);
    const items = res.json().data as Explained[];
    expect(items[0]?.title).toBe('Customer Success Manager');
    expect(items[0]?.explain.lists.semantic).toBeGreaterThan(0);
  });
});
