import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJobFilters } from '../../src/catalog/filters.js';
import { listJobs } from '../../src/catalog/sql/jobs.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addCompany, addListingRows, type ListingRow } from './fixtures.js';

/**
 * Each filter of GET /jobs (src/catalog/fields/job-filters.ts) against literal expectations, on both paths that
 * apply it: HTTP (the in-memory replica) and the SQL listing with its totals (a page of one, so the total is
 * counted: from the count tables where the filters declare a condition over them, else over the jobs).
 */

let t: TestApp;

/** [title, company, role category, location, remote, department, pay]; posted one hour apart, newest first. */
const JOBS: ListingRow<'pay' | 'other'>[] = [
  ['Annual USD', 'pay', 'fde', 'New York, NY', true, 'Sales', [150_000, 'USD', 'year']],
  ['Hourly USD', 'pay', 'csm', 'Remote - US', true, 'Customer Success', [80, 'USD', 'hour']],
  ['Monthly USD', 'pay', 'engineering', 'London, UK', false, 'Engineering', [12_000, 'USD', 'month']],
  ['Annual EUR', 'pay', 'tam', 'Berlin, DE', false, 'sales', [140_000, 'EUR', 'year']],
  ['No pay', 'pay', 'sales', 'San Francisco, CA', false, null, null],
  ['Weekly USD', 'pay', 'solutions_engineer', 'new york', false, 'Ops', [3_000, 'USD', 'week']],
  ['Daily USD', 'pay', 'other', 'Austin, TX', true, 'ops', [600, 'USD', 'day']],
  ['Other FDE', 'other', 'fde', 'New York, NY', false, 'Sales', null],
];
const ALL = JOBS.map(([title]) => title).sort();

beforeAll(async () => {
  t = await startTestApp();
  const now = t.clock.now();
  const pay = await addCompany(t.deps.db, { name: 'Pay Co', domain: 'pay.co' }, now);
  const other = await addCompany(t.deps.db, { name: 'Other Co', domain: 'other.co' }, now);
  await addListingRows(
    t.deps.db,
    { pay: { id: pay.id, name: 'Pay Co' }, other: { id: other.id, name: 'Other Co' } },
    JOBS,
    now,
  );
  // Not remote: one hybrid, two on site, the rest not stated.
  await t.deps.db.query(`UPDATE jobs SET workplace = 'hybrid' WHERE title = 'Monthly USD'`);
  await t.deps.db.query(`UPDATE jobs SET workplace = 'onsite' WHERE title IN ('Annual EUR', 'Other FDE')`);
});
afterAll(async () => t?.close());

/** The titles (sorted) and total a query selects, the same through HTTP and through the SQL listing. */
async function select(query: Record<string, string | number | boolean>): Promise<[string[], number]> {
  const qs = Object.entries(query)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  const res = await t.get(`/api/v1/jobs?${qs}&limit=50`, t.token);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { data: { title: string }[]; meta: { total: number } };
  const viaHttp: [string[], number] = [body.data.map((j) => j.title).sort(), body.meta.total];
  const filters = parseJobFilters(query, t.clock.now());
  const all = await listJobs(t.deps.db, filters, { limit: 50, offset: 0 });
  const first = await listJobs(t.deps.db, filters, { limit: 1, offset: 0 });
  expect(first.items.map((j) => j.title)).toEqual(all.items.slice(0, 1).map((j) => j.title));
  expect([all.items.map((j) => j.title).sort(), first.total], JSON.stringify(query)).toEqual(viaHttp);
  return viaHttp;
}

const refused = async (qs: string, message: string) => {
  const res = await t.get(`/api/v1/jobs?${qs}`, t.token);
  expect(res.statusCode, qs).toBe(400);
  expect(res.json().error).toEqual({ code: 'BAD_REQUEST', message });
};

describe('no filter', () => {
  it('lists every active job, counted', async () => {
    expect(await select({})).toEqual([ALL, 8]);
  });
});

describe('salary_min and salary_currency', () => {
  it('keeps jobs whose annualised top of range reaches the minimum, in USD by default', async () => {
    // Annualised: 150,000; 80 × 2,080 = 166,400; 12,000 × 12 = 144,000; 3,000 × 52 = 156,000; 600 × 260 = 156,000.
    expect(await select({ salary_min: 150_000 })).toEqual([
      ['Annual USD', 'Daily USD', 'Hourly USD', 'Weekly USD'],
      4,
    ]);
    expect(await select({ salary_min: 156_000 })).toEqual([['Daily USD', 'Hourly USD', 'Weekly USD'], 3]);
    expect(await select({ salary_min: 156_001 })).toEqual([['Hourly USD'], 1]);
    expect(await select({ salary_min: 144_000 })).toEqual([
      ['Annual USD', 'Daily USD', 'Hourly USD', 'Monthly USD', 'Weekly USD'],
      5,
    ]);
    expect(await select({ salary_min: 166_401 })).toEqual([[], 0]);
  });

  it('leaves out jobs that state no pay, or pay in another currency, even at a minimum of 0', async () => {
    expect(await select({ salary_min: 0 })).toEqual([
      ['Annual USD', 'Daily USD', 'Hourly USD', 'Monthly USD', 'Weekly USD'],
      5,
    ]);
    expect(await select({ salary_min: 0, salary_currency: 'eur' })).toEqual([['Annual EUR'], 1]);
    expect(await select({ salary_min: 140_000, salary_currency: 'EUR' })).toEqual([['Annual EUR'], 1]);
    expect(await select({ salary_min: 140_001, salary_currency: 'EUR' })).toEqual([[], 0]);
    expect(await select({ salary_min: 0, salary_currency: 'GBP' })).toEqual([[], 0]);
  });

  it('combines with the other filters', async () => {
    expect(await select({ salary_min: 150_000, remote_only: true })).toEqual([
      ['Annual USD', 'Daily USD', 'Hourly USD'],
      3,
    ]);
    expect(await select({ salary_min: 100_000, location: 'new york' })).toEqual([
      ['Annual USD', 'Weekly USD'],
      2,
    ]);
  });

  it('refuses a currency without a minimum, and a malformed currency', async () => {
    await refused('salary_currency=usd', "Invalid query parameter 'salary_currency': only with 'salary_min'");
    const res = await t.get('/api/v1/jobs?salary_min=1&salary_currency=dollars', t.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('salary_currency');
  });
});

describe('role_category and client_facing', () => {
  it('select one category, the client-facing ones, or their intersection', async () => {
    expect(await select({ role_category: 'fde' })).toEqual([['Annual USD', 'Other FDE'], 2]);
    expect(await select({ client_facing: true })).toEqual([
      ['Annual USD', 'Hourly USD', 'Other FDE', 'Weekly USD', 'Annual EUR'].sort(),
      5,
    ]);
    expect(await select({ client_facing: false })).toEqual([ALL, 8]);
    expect(await select({ role_category: 'tam', client_facing: true })).toEqual([['Annual EUR'], 1]);
    expect(await select({ role_category: 'sales', client_facing: true })).toEqual([[], 0]);
    expect(await select({ role_category: 'sales', client_facing: false })).toEqual([['No pay'], 1]);
  });
});

describe('company, location, remote_only', () => {
  it('company by slug, any case; location contained, any case; remote only when true', async () => {
    expect(await select({ company: 'Other-Co' })).toEqual([['Other FDE'], 1]);
    expect(await select({ company: 'pay-co', role_category: 'fde' })).toEqual([['Annual USD'], 1]);
    expect(await select({ location: 'NEW YORK' })).toEqual([['Annual USD', 'Other FDE', 'Weekly USD'], 3]);
    expect(await select({ location: 'york', role_category: 'fde' })).toEqual([
      ['Annual USD', 'Other FDE'],
      2,
    ]);
    expect(await select({ remote_only: true })).toEqual([['Annual USD', 'Daily USD', 'Hourly USD'], 3]);
    expect(await select({ remote_only: false })).toEqual([ALL, 8]);
    expect(await select({ remote_only: true, client_facing: true })).toEqual([
      ['Annual USD', 'Hourly USD'],
      2,
    ]);
  });

  it('refuses a company that is not a slug', async () => {
    await refused(
      'company=pay_co',
      "Invalid query parameter 'company': 'pay_co' is not a slug (lower-case letters, digits and single hyphens)",
    );
  });
});

describe('workplace', () => {
  it('selects any of the listed workplaces, in any case; remote_only is remote alone', async () => {
    expect(await select({ workplace: 'hybrid' })).toEqual([['Monthly USD'], 1]);
    expect(await select({ workplace: 'onsite, HYBRID' })).toEqual([
      ['Annual EUR', 'Monthly USD', 'Other FDE'],
      3,
    ]);
    expect(await select({ workplace: 'remote' })).toEqual([['Annual USD', 'Daily USD', 'Hourly USD'], 3]);
    expect(await select({ workplace: 'unknown', role_category: 'sales' })).toEqual([['No pay'], 1]);
    expect(await select({ workplace: 'hybrid', remote_only: true })).toEqual([[], 0]);
    expect(await select({ workplace: ' , ' })).toEqual([ALL, 8]);
  });

  it("shows each job's workplace on its detail, remote exactly when the workplace is", async () => {
    const res = await t.get('/api/v1/jobs?limit=50', t.token);
    const seen: Record<string, [string, boolean]> = {};
    for (const { id, title } of res.json().data as { id: string; title: string }[]) {
      const { data } = (await t.get(`/api/v1/jobs/${id}`)).json();
      seen[title] = [data.workplace, data.remote];
    }
    expect(seen).toEqual({
      'Annual USD': ['remote', true],
      'Hourly USD': ['remote', true],
      'Daily USD': ['remote', true],
      'Monthly USD': ['hybrid', false],
      'Annual EUR': ['onsite', false],
      'Other FDE': ['onsite', false],
      'No pay': ['unknown', false],
      'Weekly USD': ['unknown', false],
    });
  });

  it('refuses a workplace it does not know, listing the ones it does', async () => {
    await refused(
      'workplace=remote,office',
      "Invalid query parameter 'workplace': 'office' is not one of remote, hybrid, onsite, unknown",
    );
  });
});

describe('department', () => {
  it('matches any of the listed departments whole, in any case', async () => {
    expect(await select({ department: 'SALES' })).toEqual([['Annual EUR', 'Annual USD', 'Other FDE'], 3]);
    expect(await select({ department: 'ops, engineering' })).toEqual([
      ['Daily USD', 'Monthly USD', 'Weekly USD'],
      3,
    ]);
    expect(await select({ department: 'sales', company: 'pay-co' })).toEqual([
      ['Annual EUR', 'Annual USD'],
      2,
    ]);
  });

  it('takes at most 50 departments', async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`).join(',');
    expect(await select({ department: `${names(49)},sales` })).toEqual([
      ['Annual EUR', 'Annual USD', 'Other FDE'],
      3,
    ]);
    await refused(`department=${names(51)}`, "Invalid query parameter 'department': at most 50 departments");
  });
});

describe('posted_since and posted_before', () => {
  // The clock reads 2026-11-22T12:00:00Z; Annual USD was posted at 11:00:00.000, Hourly USD at 10:00:00.000.
  it('compares to the microsecond, on both paths', async () => {
    expect(await select({ posted_since: '2026-11-22T11:00:00.000001Z' })).toEqual([[], 0]);
    expect(await select({ posted_since: '2026-11-22T10:59:59.999999Z' })).toEqual([['Annual USD'], 1]);
    expect(await select({ posted_since: '2026-11-22T10:00:00.5Z' })).toEqual([['Annual USD'], 1]);
    expect(await select({ posted_since: '2026-11-22T09:59:59.5Z' })).toEqual([
      ['Annual USD', 'Hourly USD'],
      2,
    ]);
    expect(await select({ posted_before: '2026-11-22T11:00:00.000001Z' })).toEqual([ALL, 8]);
    expect(await select({ posted_before: '2026-11-22T11:00:00Z' })).toEqual([
      ALL.filter((title) => title !== 'Annual USD'),
      7,
    ]);
    expect(
      await select({ posted_since: '2026-11-22T09:30:00Z', posted_before: '2026-11-22T10:30:00Z' }),
    ).toEqual([['Hourly USD'], 1]);
  });

  it('takes an offset that moves the instant to another day, and minutes without seconds', async () => {
    // 01:00 at +02:00 is 23:00 the day before: the date need not read back as written when an offset is given.
    expect(await select({ posted_since: '2026-11-23T01:00:00+02:00' })).toEqual([[], 0]);
    expect(await select({ posted_since: '2026-11-22T12:30+02:00' })).toEqual([['Annual USD'], 1]);
    await refused(
      'posted_since=2026-11-31',
      "Invalid query parameter 'posted_since': '2026-11-31' is not an ISO 8601 date (2026-11-20) or date-time " +
        '(2026-11-20T09:30:00Z)',
    );
  });
});

describe('an instant without an offset', () => {
  it('is UTC whatever the host’s time zone', async (ctx) => {
    // Run in New York (a worker thread keeps its process's zone: the mutation runs set TZ for the process).
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      if (new Date(2026, 10, 22).getTimezoneOffset() !== 300)
        ctx.skip('the zone cannot change in this thread');
      // 10:30 in New York would be 15:30 UTC, after every job; 2026-11-22 there would start at 05:00 UTC.
      expect(await select({ posted_since: '2026-11-22T10:30:00' })).toEqual([['Annual USD'], 1]);
      expect(await select({ posted_since: '2026-11-22T10:30' })).toEqual([['Annual USD'], 1]);
      expect(await select({ posted_before: '2026-11-22T03:30:00.5' })).toEqual([[], 0]);
      expect((await select({ posted_since: '2026-11-22' }))[1]).toBe(8);
      expect(await select({ posted_before: '2026-11-22' })).toEqual([[], 0]);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('updated_since and after_id', () => {
  it('refuses after_id alone and updated_since with a search; takes after_id in any case', async () => {
    const id = '7FFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF';
    await refused(`after_id=${id}`, "Invalid query parameter 'after_id': only with 'updated_since'");
    await refused(
      'updated_since=2026-11-01T00:00:00Z&search=engineer',
      "Invalid query parameter 'updated_since': cannot be combined with 'search'",
    );
    const res = await t.get(
      `/api/v1/jobs?updated_since=2000-01-01T00:00:00Z&after_id=${id}&limit=50`,
      t.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const lower = await t.get(
      `/api/v1/jobs?updated_since=2000-01-01T00:00:00Z&after_id=${id.toLowerCase()}&limit=50`,
      t.token,
    );
    expect(res.json().data).toEqual(lower.json().data);
  });
});

describe('the replica memo', () => {
  it('never answers one filter value with the jobs of another', async () => {
    // The same listing asked in turn with values that select different jobs: a memo key that confused two values
    // would answer the second with the first's jobs.
    const rounds: [Record<string, string | number | boolean>, string[]][] = [
      [{ department: 'sales' }, ['Annual EUR', 'Annual USD', 'Other FDE']],
      [{ department: 'ops' }, ['Daily USD', 'Weekly USD']],
      [{ location: 'york' }, ['Annual USD', 'Other FDE', 'Weekly USD']],
      [{ location: 'austin' }, ['Daily USD']],
      [{ role_category: 'fde' }, ['Annual USD', 'Other FDE']],
      [{ role_category: 'csm' }, ['Hourly USD']],
      [{ salary_min: 150_000 }, ['Annual USD', 'Daily USD', 'Hourly USD', 'Weekly USD']],
      [{ salary_min: 160_000 }, ['Hourly USD']],
      [{ salary_min: 100_000, salary_currency: 'EUR' }, ['Annual EUR']],
      [
        { posted_before: '2026-11-22T09:30:00Z' },
        ALL.filter((title) => title !== 'Annual USD' && title !== 'Hourly USD'),
      ],
      [{ posted_before: '2026-11-22T11:30:00Z' }, ALL],
      [{ company: 'pay-co' }, ALL.filter((title) => title !== 'Other FDE')],
      [{ company: 'other-co' }, ['Other FDE']],
    ];
    for (let pass = 0; pass < 2; pass++) {
      for (const [query, titles] of rounds)
        expect((await select(query))[0], JSON.stringify(query)).toEqual(titles);
    }
  });
});
