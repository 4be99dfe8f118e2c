import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addJobs } from '../catalog/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addSearchCompany, addSearchJobs, listed } from './search-jobs.js';

/**
 * With SEARCH=sql and READ_MODEL=sql a process holds no replica of the catalog: search is ranked in the database
 * and still understands what it is asked (misspellings, company names, filters inside retrieval). Through HTTP
 * on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */

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
}, 120_000);

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
});
