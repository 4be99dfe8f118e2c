import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJobFilters } from '../../src/catalog/filters.js';
import { backfillJobPlaces } from '../../src/catalog/sql/job-places.js';
import { listJobs } from '../../src/catalog/sql/jobs.js';
import { readCatalogVersion } from '../../src/catalog/version.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addCompany, addListingRows, type ListingRow } from './fixtures.js';

/**
 * The place filters of GET /jobs (src/catalog/fields/place-filters.ts): country by code or name, each region,
 * remote_scope, and jobs with several places, through HTTP (the in-memory replica) and the SQL listing alike.
 */

let t: TestApp;

const JOBS: ListingRow<'co'>[] = [
  ['Berlin', 'co', 'fde', 'Berlin, Germany', false, null, null],
  ['London', 'co', 'fde', 'London, United Kingdom', false, null, null],
  ['Remote US', 'co', 'fde', 'Remote - US', true, null, null],
  ['Remote EMEA', 'co', 'fde', 'Remote - EMEA', true, null, null],
  ['Remote Europe', 'co', 'fde', 'Remote - Europe', true, null, null],
  ['SF hybrid', 'co', 'fde', 'San Francisco, CA (Hybrid)', false, null, null],
  ['Toronto or Stockholm', 'co', 'fde', 'Toronto, Canada; Stockholm, Sweden', false, null, null],
  ['São Paulo', 'co', 'fde', 'São Paulo, Brazil', false, null, null],
  ['Singapore', 'co', 'fde', 'Singapore', false, null, null],
  ['Anywhere', 'co', 'fde', 'Remote - Worldwide', true, null, null],
  ['Zurich', 'co', 'fde', 'Zurich, Switzerland', false, null, null],
  ['Nowhere said', 'co', 'fde', '', false, null, null],
];

beforeAll(async () => {
  t = await startTestApp();
  const now = t.clock.now();
  const co = await addCompany(t.deps.db, { name: 'Place Co', domain: 'place.co' }, now);
  await addListingRows(t.deps.db, { co: { id: co.id, name: 'Place Co' } }, JOBS, now);
});
afterAll(async () => t?.close());

/** The titles (sorted) a query selects; HTTP and the SQL listing must agree, totals included. */
async function select(query: Record<string, string>): Promise<string[]> {
  const qs = new URLSearchParams({ ...query, limit: '50' }).toString();
  const res = await t.get(`/api/v1/jobs?${qs}`, t.token);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { data: { title: string }[]; meta: { total: number } };
  const titles = body.data.map((j) => j.title).sort();
  const sql = await listJobs(t.deps.db, parseJobFilters(query, t.clock.now()), { limit: 50, offset: 0 });
  expect(sql.items.map((j) => j.title).sort(), JSON.stringify(query)).toEqual(titles);
  expect(body.meta.total).toBe(titles.length);
  return titles;
}

/** A 400 in the error envelope whose message holds each of `parts`. */
async function refused(qs: string, ...parts: string[]): Promise<void> {
  const res = await t.get(`/api/v1/jobs?${qs}`, t.token);
  expect(res.statusCode, qs).toBe(400);
  expect(res.json().error.code).toBe('BAD_REQUEST');
  for (const part of parts) expect(res.json().error.message).toContain(part);
}

describe('country', () => {
  it('takes ISO codes and names, case-insensitively, any of several', async () => {
    expect(await select({ country: 'DE' })).toEqual(['Berlin']);
    expect(await select({ country: 'germany' })).toEqual(['Berlin']);
    expect(await select({ country: 'us' })).toEqual(['Remote US', 'SF hybrid']);
    expect(await select({ country: 'United Kingdom, SE' })).toEqual(['London', 'Toronto or Stockholm']);
    expect(await select({ country: 'UK' })).toEqual(['London']);
  });

  it('refuses an unknown country with a 400 naming the parameter', async () => {
    await refused('country=Atlantis', "'country'", "'Atlantis'");
  });
});

describe('region', () => {
  it.each([
    ['europe', ['Berlin', 'London', 'Remote Europe', 'Toronto or Stockholm', 'Zurich']],
    // EMEA is more than Europe: a job remote within EMEA is in emea, not in europe.
    ['emea', ['Berlin', 'London', 'Remote EMEA', 'Remote Europe', 'Toronto or Stockholm', 'Zurich']],
    ['dach', ['Berlin', 'Zurich']],
    ['nordics', ['Toronto or Stockholm']],
    ['uk_ireland', ['London']],
    ['north_america', ['Remote US', 'SF hybrid', 'Toronto or Stockholm']],
    ['latam', ['São Paulo']],
    ['americas', ['Remote US', 'SF hybrid', 'São Paulo', 'Toronto or Stockholm']],
    ['apac', ['Singapore']],
  ])('%s', async (region, titles) => {
    expect(await select({ region })).toEqual(titles);
  });

  it('combines with the other filters', async () => {
    expect(await select({ region: 'europe', workplace: 'remote' })).toEqual(['Remote Europe']);
    expect(await select({ region: 'europe', country: 'CH' })).toEqual(['Zurich']);
  });

  it('refuses an unknown region with a 400 naming the parameter and the regions', async () => {
    await refused('region=atlantis', "'region'", 'north_america');
  });
});

describe('remote_scope', () => {
  it.each([
    ['US', ['Remote US']],
    ['north_america', ['Remote US']],
    ['emea', ['Remote EMEA', 'Remote Europe']],
    ['Europe', ['Remote Europe']],
    ['worldwide', ['Anywhere']],
    ['Germany', []],
  ])('%s', async (scope, titles) => {
    expect(await select({ remote_scope: scope })).toEqual(titles);
  });

  it('refuses an unknown scope with a 400 naming the parameter', async () => {
    await refused('remote_scope=the%20moon', "'remote_scope'", 'worldwide');
  });
});

describe('a job detail', () => {
  it('shows the places the filters match', async () => {
    const res = await t.get('/api/v1/jobs?search=remote%20us&limit=50', t.token);
    const row = (res.json().data as { id: string; title: string }[]).find((j) => j.title === 'Remote US');
    const detail = (await t.get(`/api/v1/jobs/${row!.id}`, t.token)).json().data;
    expect(detail.places).toEqual({
      countries: ['US'],
      regions: ['americas', 'north_america'],
      remoteScopes: ['US', 'americas', 'north_america'],
    });
  });
});

describe('rows stored before their places were derived', () => {
  it('are filled by the backfill from their location text, and then found', async () => {
    const [row] = await t.deps.db.query<{ id: string }>(
      `INSERT INTO jobs (company_id, company_name, source, external_id, title, location, role_category, url, posted_at)
       SELECT company_id, company_name, 'test', 'unfilled', 'Dublin unfilled', 'Dublin, Ireland', 'fde',
              'https://example.com/unfilled', now() - interval '1 day'
       FROM jobs LIMIT 1 RETURNING id`,
    );
    expect(await select({ country: 'IE' })).toEqual([]);
    expect(await backfillJobPlaces(t.deps.db, t.clock.now())).toBe(1);
    // With nothing left, a start neither writes nor moves the catalog version (caches stay warm).
    const version = await readCatalogVersion(t.deps.db);
    expect(await backfillJobPlaces(t.deps.db, t.clock.now())).toBe(0);
    expect(await readCatalogVersion(t.deps.db)).toBe(version);
    const [filled] = await t.deps.db.query<{ countries: string[]; regions: string[] }>(
      'SELECT countries, regions FROM jobs WHERE id = $1',
      [row!.id],
    );
    expect(filled).toEqual({ countries: ['IE'], regions: ['emea', 'europe', 'uk_ireland'] });
    expect(await select({ country: 'IE' })).toEqual(['Dublin unfilled']);
    expect(await select({ region: 'uk_ireland' })).toEqual(['Dublin unfilled', 'London']);
  });
});
