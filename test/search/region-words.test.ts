import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCompany, addListingRows, type ListingRow } from '../catalog/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * A region or country word in a search ranks the jobs whose places lie inside it first ("sales engineer europe":
 * Berlin before New York), in search ranked in memory and in the database alike. A job remote within EMEA is in
 * EMEA, not in Europe. Through HTTP on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */

/** Posted an hour apart, newest first: without the region, the US roles would lead. */
const JOBS: ListingRow<'co'>[] = [
  'New York, NY',
  'Austin, TX',
  'Remote - EMEA',
  'Berlin, Germany',
  'London, United Kingdom',
  'Tokyo, Japan',
].map((location) => [
  'Sales Engineer',
  'co',
  'sales_engineer',
  location,
  location.startsWith('Remote'),
  null,
  null,
]);

describe.each([
  ['in memory', {}],
  ['in the database', { SEARCH: 'sql', READ_MODEL: 'sql' }],
])('region words in search ranked %s', (_name, env) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env });
    const now = t.clock.now();
    const co = await addCompany(t.deps.db, { name: 'Region Co', domain: 'region.co' }, now);
    const recruiter: ListingRow<'co'> = ['Recruiter', 'co', 'hr', 'Berlin, Germany', false, null, null];
    await addListingRows(t.deps.db, { co: { id: co.id, name: 'Region Co' } }, [...JOBS, recruiter], now);
    await t.deps.searchParts.indexer.catchUp();
  });
  afterAll(async () => t?.close());

  /** The locations of the first `n` sales engineers a search returns. */
  const leading = async (search: string, n: number) => {
    const res = await t.get(`/api/v1/jobs?search=${encodeURIComponent(search)}&limit=20`, null);
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as { title: string; location: string }[];
    return rows
      .filter((r) => r.title === 'Sales Engineer')
      .slice(0, n)
      .map((r) => r.location)
      .sort();
  };

  it.each([
    ['sales engineer europe', ['Berlin, Germany', 'London, United Kingdom']],
    ['sales engineer emea', ['Berlin, Germany', 'London, United Kingdom', 'Remote - EMEA']],
    ['sales engineer north america', ['Austin, TX', 'New York, NY']],
    ['sales engineer germany', ['Berlin, Germany']],
    ['sales engineer dach', ['Berlin, Germany']],
    ['sales engineer uk', ['London, United Kingdom']],
    ['sales engineer apac', ['Tokyo, Japan']],
  ])('"%s" ranks the jobs inside the place first', async (search, inside) => {
    expect(await leading(search, inside.length)).toEqual(inside);
  });

  it('ranks the jobs inside the region first among those the location filter keeps', async () => {
    const at = async (location: string) => {
      const res = await t.get(`/api/v1/jobs?search=sales%20engineer%20europe&location=${location}`, null);
      expect(res.statusCode).toBe(200);
      const rows = res.json().data as { title: string; location: string }[];
      return rows.filter((r) => r.title === 'Sales Engineer').map((r) => r.location);
    };
    // "n" keeps New York, Austin, Berlin, London and Tokyo: the two in Europe first, though New York is newest.
    const kept = await at('n');
    expect(kept.slice(0, 2).sort()).toEqual(['Berlin, Germany', 'London, United Kingdom']);
    expect(kept.slice(2).sort()).toEqual(['Austin, TX', 'New York, NY', 'Tokyo, Japan']);
    // Tokyo is in no place the query names: found all the same.
    expect(await at('tokyo')).toEqual(['Tokyo, Japan']);
  });
});
