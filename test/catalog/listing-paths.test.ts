import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJobFilters } from '../../src/catalog/filters.js';
import { listJobs } from '../../src/catalog/sql/jobs.js';
import type { Queryable } from '../../src/db/port.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { serverUrl } from '../support/db.js';
import { addCompany, addListingRows, type ListingRow } from './fixtures.js';

/**
 * Which of the two exact paths answers a listing, observed where the product and the database show it: a SQL
 * listing's total is summed from the trigger-maintained count table its filters name (PostgreSQL's scan counters
 * of the current transaction tell which tables the listing read), and a listing the in-process replica can apply
 * is answered from memory, which follows another process's writes only when the catalog's validity moves.
 */

let t: TestApp;

/** [title, company, role category, location, remote, department, stated pay]; posted an hour apart. */
const JOBS: ListingRow<'a' | 'b'>[] = [
  ['FDE York', 'a', 'fde', 'New York, NY', true, 'Sales', [150_000, 'USD', 'year']],
  ['CSM Remote', 'a', 'csm', 'Remote - US', true, 'Success', [90_000, 'USD', 'year']],
  ['Engineer London', 'a', 'engineering', 'London, UK', false, 'Engineering', [200_000, 'USD', 'year']],
  ['FDE Berlin', 'b', 'fde', 'Berlin, DE', false, 'sales', null],
  ['Sales York', 'b', 'sales', 'new york', false, null, [120_000, 'USD', 'year']],
  ['Ops Vienna', 'b', 'other', 'Hauptstrasse 5, Wien', false, null, null],
];

const COUNT_TABLES = [
  'job_counts',
  'job_place_counts',
  'job_department_counts',
  'job_day_counts',
  'job_pay_counts',
];

beforeAll(async () => {
  t = await startTestApp();
  const now = t.clock.now();
  const companies = {
    a: await addCompany(
      t.deps.db,
      {
        name: 'Alpha Paths',
        domain: 'alpha-paths.co',
        category: 'enterprise_ai',
        tags: [{ dimension: 'industry', value: 'Legal' }],
      },
      now,
    ),
    b: await addCompany(t.deps.db, { name: 'Beta Paths', domain: 'beta-paths.co' }, now),
  };
  await addListingRows(
    t.deps.db,
    { a: { ...companies.a, name: 'Alpha Paths' }, b: { ...companies.b, name: 'Beta Paths' } },
    JOBS,
    now,
  );
});
afterAll(async () => t?.close());

/**
 * The SQL listing of one job per page (so its total is counted, not read off a short page), in one transaction
 * whose scan counters then name the count tables it read.
 */
async function countedBy(query: Record<string, string | number | boolean>): Promise<[number, string[]]> {
  return t.deps.db.transaction(async (tx: Queryable) => {
    // Sequential scans of each table and index scans of its indexes, as the backend counts them before
    // reporting: read before and after the listing, their difference is the listing's.
    const scans = async () =>
      tx.query<{ name: string; n: number }>(
        `SELECT name, (pg_stat_get_xact_numscans(name::regclass) + coalesce((SELECT sum(
           pg_stat_get_xact_numscans(i.indexrelid)) FROM pg_index i WHERE i.indrelid = name::regclass), 0))::int AS n
         FROM unnest($1::text[]) WITH ORDINALITY AS u(name, o) ORDER BY o`,
        [COUNT_TABLES],
      );
    const before = await scans();
    const { total } = await listJobs(tx, parseJobFilters(query, t.clock.now()), { limit: 1, offset: 0 });
    const after = await scans();
    return [total, after.filter((s, i) => s.n > before[i]!.n).map((s) => s.name)];
  });
}

describe('a SQL listing’s total', () => {
  it('is summed from the count table the filters name', async () => {
    expect(await countedBy({})).toEqual([6, ['job_counts']]);
    expect(await countedBy({ role_category: 'fde' })).toEqual([2, ['job_counts']]);
    expect(await countedBy({ client_facing: true, remote_only: true })).toEqual([2, ['job_counts']]);
    expect(await countedBy({ location: 'York' })).toEqual([2, ['job_place_counts']]);
    expect(await countedBy({ location: 'york', role_category: 'sales' })).toEqual([1, ['job_place_counts']]);
    expect(await countedBy({ location: 'york', remote_only: true })).toEqual([1, ['job_place_counts']]);
    expect(await countedBy({ department: 'SALES' })).toEqual([2, ['job_department_counts']]);
    expect(await countedBy({ department: 'sales,success', remote_only: true })).toEqual([
      2,
      ['job_department_counts'],
    ]);
    expect(await countedBy({ salary_min: 120_000 })).toEqual([3, ['job_pay_counts']]);
    expect(await countedBy({ salary_min: 100_000, remote_only: true })).toEqual([1, ['job_pay_counts']]);
    // Whole UTC days only; the posted window of the fixture lies inside 2026-11-22.
    expect(await countedBy({ posted_since: '2026-11-22' })).toEqual([6, ['job_day_counts']]);
    expect(await countedBy({ posted_before: '2026-11-23', role_category: 'fde' })).toEqual([
      2,
      ['job_day_counts'],
    ]);
    // A date-time cuts a day: the whole days from job_day_counts, the cut part counted over the jobs.
    expect(await countedBy({ posted_since: '2026-11-22T09:30:00Z' })).toEqual([2, ['job_day_counts']]);
  });

  it('is counted over the jobs when a filter names no count table, or two filters name two', async () => {
    expect(await countedBy({ company: 'alpha-paths' })).toEqual([3, []]);
    expect(await countedBy({ company: 'beta-paths', role_category: 'fde' })).toEqual([1, []]);
    expect(await countedBy({ location: 'york', department: 'sales' })).toEqual([1, []]);
    expect(await countedBy({ salary_min: 100_000, location: 'york' })).toEqual([2, []]);
  });
});

describe('the replica’s memo of a filter', () => {
  it('is shared only by values that select the same jobs', async () => {
    // 'STRASSE' is the upper case of both: a memo keyed by it would answer one with the other's jobs.
    expect(await titles('location=strasse')).toEqual(['Ops Vienna']);
    expect(await titles('location=stra%C3%9Fe')).toEqual([]);
    expect(await titles('location=Stra%C3%9Fe')).toEqual([]);
    expect(await titles('location=STRASSE')).toEqual(['Ops Vienna']);
  });
});

describe('a company search’s filters', () => {
  // A misspelled name matches no keyword: the company is found by the replica's name lists alone, which apply
  // the filters as a predicate over the companies' attributes.
  const found = async (query: string): Promise<string[]> => {
    const res = await t.get(`/api/v1/companies?search=${query}`, t.token);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { name: string }[]).map((c) => c.name);
  };

  it('apply to the companies the replica finds by a misspelled name', async () => {
    expect(await found('alpah%20pahts')).toContain('Alpha Paths');
    expect(await found('alpah%20pahts&category=enterprise_ai')).toEqual(['Alpha Paths']);
    expect(await found('alpah%20pahts&industry=legal&category=enterprise_ai')).toEqual(['Alpha Paths']);
    expect(await found('alpah%20pahts&category=other')).not.toContain('Alpha Paths');
    expect(await found('alpah%20pahts&industry=legal&category=other')).not.toContain('Alpha Paths');
    expect(await found('alpah%20pahts&industry=healthcare&category=enterprise_ai')).toEqual([]);
  });
});

const titles = async (query: string): Promise<string[]> => {
  const res = await t.get(`/api/v1/jobs?${query}&limit=50`, t.token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { title: string }[]).map((j) => j.title).sort();
};

/** Titles the SQL listing selects (the database as it is now). */
const inDatabase = async (query: Record<string, string | number | boolean>): Promise<string[]> =>
  (await listJobs(t.deps.db, parseJobFilters(query, t.clock.now()), { limit: 50, offset: 0 })).items
    .map((j) => j.title)
    .sort();

// Another process's writes reach this one through the catalog_version poll, which the test app turns off
// (CACHE_COHERENCE_MS=0): on PostgreSQL, a write through another connection shows what answered a listing.
describe.skipIf(!serverUrl())('a listing the replica can apply (PostgreSQL: another process writes)', () => {
  it('is answered from memory until the catalog’s validity moves; updated_since from the database', async () => {
    const db = (await t.deps.db.query<{ name: string }>('SELECT current_database() AS name'))[0]!.name;
    const url = new URL(serverUrl()!);
    url.pathname = `/${db}`;
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    const queries = [
      '',
      'location=york',
      'role_category=fde',
      'client_facing=true',
      'company=alpha-paths',
      'remote_only=true',
      'department=sales',
      'posted_since=2026-11-22T06:00:00Z',
      'salary_min=100000',
    ];
    const before = new Map<string, string[]>();
    for (const q of queries) before.set(q, await titles(q));
    expect(before.get('location=york')).toEqual(['FDE York', 'Sales York']);
    try {
      await other.query(`UPDATE jobs SET active = false, updated_at = now() WHERE title = 'FDE York'`);
    } finally {
      await other.end();
    }
    expect(await inDatabase({ location: 'york' })).toEqual(['Sales York']);
    // New query strings (the response cache has not seen them) still answered from the replica: the closed job
    // stays listed until this process learns of the write.
    for (const q of queries) expect(await titles(`${q}&page=1`), q).toEqual(before.get(q));
    const changed = await titles('updated_since=2026-11-01T00:00:00Z');
    expect(changed).toContain('FDE York');
    // A write through this process moves the validity: the replica catches up with the change feed.
    await addCompany(t.deps.db, { name: 'Gamma Paths', domain: 'gamma-paths.co' }, t.clock.now());
    expect(await titles('location=YORK')).toEqual(['Sales York']);
    expect(await titles('remote_only=false')).not.toContain('FDE York');
  });
});
