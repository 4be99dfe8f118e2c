import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listJobs } from '../../src/catalog/sql/jobs.js';
import type { JobFilters } from '../../src/catalog/types.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addCompany, addJobs } from './fixtures.js';

/**
 * Filters of GET /jobs declared in src/catalog/fields/job-filters.ts alone: department, posted_since /
 * posted_before and max_age_days. Through HTTP (served by the in-memory replica) and against the SQL listing, with totals on
 * pages short of the end (the count tables cannot serve these filters, so the total must be counted).
 */

let t: TestApp;
const HOUR = 3_600_000;

interface Item {
  id: string;
  title: string;
  postedAt: string;
}
const list = async (query: string): Promise<{ data: Item[]; meta: { total: number } }> => {
  const res = await t.get(`/api/v1/jobs?${query}`, t.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const titles = async (query: string) => (await list(`${query}&limit=50`)).data.map((j) => j.title).sort();

beforeAll(async () => {
  t = await startTestApp();
  const now = t.clock.now();
  const co = await addCompany(t.deps.db, { name: 'Dept Co', domain: 'dept.co' }, now);
  const specs: [string, string | null, number][] = [
    ['Account Executive', 'Sales', 1],
    ['Sales Engineer', 'sales', 2],
    ['Customer Success Manager', 'Customer Success', 3],
    ['Backend Engineer', 'Engineering', 26],
    ['Support Engineer', 'Customer Success ', 30],
    ['Recruiter', null, 50],
  ];
  const ids = await addJobs(
    t.deps.db,
    specs.map(([title, , hoursAgo]) => ({
      companyId: co.id,
      companyName: 'Dept Co',
      title,
      roleCategory: 'other',
      postedAt: new Date(now - hoursAgo * HOUR),
    })),
    now,
  );
  for (const [i, [, department]] of specs.entries()) {
    await t.deps.db.query('UPDATE jobs SET department = $2 WHERE id = $1', [ids[i], department]);
  }
});
afterAll(async () => t.close());

describe('department', () => {
  it('matches any listed department, whole and case-insensitively; blank entries and a blank value are ignored', async () => {
    expect(await titles('department=SALES')).toEqual(['Account Executive', 'Sales Engineer']);
    expect(await titles('department=sales,%20customer%20success%20,,')).toEqual([
      'Account Executive',
      'Customer Success Manager',
      'Sales Engineer',
    ]);
    expect(await titles('department=Custom')).toEqual([]);
    expect((await list('department=%20,%20')).meta.total).toBe((await list('')).meta.total);
  });

  it('counts the total of a page short of the end, and applies inside search', async () => {
    const page = await list('department=sales,engineering&limit=1');
    expect(page.data).toHaveLength(1);
    expect(page.meta.total).toBe(3);
    const found = await list('department=sales&search=engineer');
    expect(found.data.map((j) => j.title)).toEqual(['Sales Engineer']);
  });

  it('follows a department changed in the database on the next request (the replica keeps it)', async () => {
    await t.deps.db.query(`UPDATE jobs SET department = 'Partnerships' WHERE title = 'Recruiter'`);
    expect(await titles('department=partnerships')).toEqual(['Recruiter']);
    await t.deps.db.query(`UPDATE jobs SET department = NULL WHERE title = 'Recruiter'`);
    expect(await titles('department=partnerships')).toEqual([]);
  });
});

describe('posted_since / posted_before', () => {
  it('windows posted_at: since inclusive, before exclusive, dates as UTC midnight', async () => {
    const now = t.clock.now();
    const iso = (hoursAgo: number) => new Date(now - hoursAgo * HOUR).toISOString();
    expect(await titles(`posted_since=${iso(2)}`)).toEqual(['Account Executive', 'Sales Engineer']);
    expect(await titles(`posted_before=${iso(26)}`)).toEqual(['Recruiter', 'Support Engineer']);
    expect(await titles(`posted_since=${iso(30)}&posted_before=${iso(3)}`)).toEqual([
      'Backend Engineer',
      'Support Engineer',
    ]);
    // The clock reads 12:00 UTC: a date is its midnight, so the jobs of the last three hours are today's.
    const day = iso(0).slice(0, 10);
    const today = ['Account Executive', 'Customer Success Manager', 'Sales Engineer'];
    expect(await titles(`posted_since=${day}`)).toEqual(today);
    expect(await titles(`posted_since=${day}T00:00:00Z`)).toEqual(today);
    expect(await titles(`posted_since=${day}T02:00:00%2B02:00`)).toEqual(today);
  });

  it('answers a bad value with a 400 naming the parameter', async () => {
    for (const [name, value] of [
      ['posted_since', 'yesterday'],
      ['posted_before', '2026-02-30'],
      ['posted_since', '2026-11-20T25:00:00Z'],
    ]) {
      const res = await t.get(`/api/v1/jobs?${name}=${value}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.message).toContain(`'${name}'`);
    }
  });
});

describe('max_age_days', () => {
  it('lists jobs first posted on the last N whole UTC days, today counted as 0, with their totals', async () => {
    // The clock reads 12:00 UTC: 1-3 hours ago is today, 26 and 30 yesterday, 50 the day before.
    expect(await titles('max_age_days=0')).toEqual([
      'Account Executive',
      'Customer Success Manager',
      'Sales Engineer',
    ]);
    expect(await titles('max_age_days=1')).toEqual([
      'Account Executive',
      'Backend Engineer',
      'Customer Success Manager',
      'Sales Engineer',
      'Support Engineer',
    ]);
    expect((await titles('max_age_days=2')).length).toBe(6);
    expect((await titles('max_age_days=36500')).length).toBe(6);
    // With the other filters: a page short of the end counts its total.
    expect((await list('max_age_days=1&limit=1')).meta.total).toBe(5);
    expect((await list('max_age_days=1&department=sales&limit=1')).meta.total).toBe(2);
    const before = new Date(t.clock.now() - 3 * HOUR).toISOString();
    expect(await titles(`max_age_days=1&posted_before=${before}`)).toEqual([
      'Backend Engineer',
      'Support Engineer',
    ]);
  });

  it('counts back from the injected clock, the same URL answered anew on the next day', async () => {
    expect(await titles('max_age_days=0&department=sales')).toEqual(['Account Executive', 'Sales Engineer']);
    t.clock.advance(24 * HOUR);
    try {
      expect(await titles('max_age_days=0&department=sales')).toEqual([]);
      expect(await titles('max_age_days=1&department=sales')).toEqual([
        'Account Executive',
        'Sales Engineer',
      ]);
    } finally {
      t.clock.advance(-24 * HOUR);
    }
  });

  it('answers a bad value with a 400 naming the parameter', async () => {
    for (const value of ['-1', '1.5', 'week', '36501', '']) {
      const res = await t.get(`/api/v1/jobs?max_age_days=${value}`);
      expect(res.statusCode, value).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.message).toContain('max_age_days');
    }
  });
});

describe('replica and SQL agree', () => {
  it('lists the same pages and totals for the new filters', async () => {
    const now = t.clock.now();
    const cases: JobFilters[] = [
      { department: ['sales'] },
      { department: ['customer success', 'engineering'] },
      { posted: { since: { us: (now - 27 * HOUR) * 1000, sql: new Date(now - 27 * HOUR).toISOString() } } },
      { maxAge: { sinceUs: (Math.floor(now / (24 * HOUR)) - 1) * 24 * HOUR * 1000 } },
    ];
    for (const filters of cases) {
      const viaHttp = await t.deps.catalog.listJobs(filters, undefined, { limit: 2, offset: 1 });
      const viaSql = await listJobs(t.deps.db, filters, { limit: 2, offset: 1 });
      expect(viaHttp).toEqual(viaSql);
    }
  });
});
