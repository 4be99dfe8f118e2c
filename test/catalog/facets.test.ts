import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleCategory } from '../../src/catalog/types.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addCompany, addJobs } from './fixtures.js';

/**
 * meta.facets of GET /jobs and GET /companies, checked against the listing itself: every count must equal what
 * paging through the listing (with the facet's own filter left out) and counting gives, or the total of the
 * listing filtered by that value.
 */

let t: TestApp;
const HOUR = 3_600_000;

interface Count {
  value: string;
  count: number;
}
interface JobItem {
  roleCategory: string;
  remote: boolean;
  company: { slug: string };
  location: string;
}
interface CompanyItem {
  slug: string;
  tags: { dimension: string; slug: string }[];
}
type Body<T> = { data: T[]; meta: { total: number; facets?: Record<string, Count[]> } };

async function get<T>(url: string): Promise<Body<T>> {
  const res = await t.get(url, t.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every item of a listing, page by page. */
async function all<T>(path: string, query: URLSearchParams): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const q = new URLSearchParams(query);
    q.set('limit', '50');
    q.set('page', String(page));
    const body = await get<T>(`${path}?${q}`);
    out.push(...body.data);
    if (out.length >= body.meta.total || body.data.length === 0) return out;
  }
}

/** Counts sorted as meta.facets reports them: count descending, then value; blank values are not counted. */
function tally(values: string[]): Count[] {
  const by = new Map<string, number>();
  for (const v of values) if (v !== '') by.set(v, (by.get(v) ?? 0) + 1);
  return [...by]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, 20);
}

const without = (query: string, ...names: string[]) => {
  const q = new URLSearchParams(query);
  for (const n of names) q.delete(n);
  return q;
};

/** The job facets, each as the listing without its own filter counts it. */
const JOB_KEYS: Record<string, [string[], (j: JobItem) => string]> = {
  role_category: [['role_category', 'client_facing'], (j) => j.roleCategory],
  remote: [['remote_only'], (j) => String(j.remote)],
  company: [['company'], (j) => j.company.slug],
  location: [['location'], (j) => j.location],
};

async function expectJobFacets(query: string) {
  const body = await get<JobItem>(`/api/v1/jobs?${query}&facets=${Object.keys(JOB_KEYS)},department`);
  const facets = body.meta.facets ?? {};
  for (const [name, [params, key]] of Object.entries(JOB_KEYS)) {
    const items = await all<JobItem>('/api/v1/jobs', without(query, ...params));
    expect(facets[name], `${name} of ${query}`).toEqual(tally(items.map(key)));
  }
  // Departments are not in list items: each count is the total of the listing filtered by that department.
  const rest = without(query, 'department');
  for (const { value, count } of facets.department ?? []) {
    rest.set('department', value);
    expect((await get(`/api/v1/jobs?${rest}`)).meta.total, `department ${value}`).toBe(count);
  }
  return facets;
}

const ROLES: RoleCategory[] = ['fde', 'csm', 'engineering', 'sales', 'fde', 'tam'];
const LOCATIONS = ['San Francisco, CA', 'New York, NY', 'London, UK', ''];
const DEPARTMENTS = ['Sales', 'sales', 'Engineering', 'Field', null];

beforeAll(async () => {
  t = await startTestApp();
  const now = t.clock.now();
  const db = t.deps.db;
  const tag = (dimension: 'industry' | 'stage', value: string) => ({ dimension, value });
  // Three companies without jobs, each left out of industry=robotics&stage=series-a&category=ai_native by one of
  // its filters alone: a facet counted without lifting its own filter misses exactly one of them.
  for (const [name, category, tags] of [
    ['Only Industry Differs', 'ai_native', [tag('industry', 'Healthcare'), tag('stage', 'Series A')]],
    ['Only Stage Differs', 'ai_native', [tag('industry', 'Robotics'), tag('stage', 'Seed')]],
    ['Only Category Differs', 'enterprise_ai', [tag('industry', 'Robotics'), tag('stage', 'Series A')]],
  ] as const) {
    await addCompany(
      db,
      { name, domain: `${name.toLowerCase().replaceAll(' ', '-')}.com`, category, tags: [...tags] },
      now,
    );
  }
  const cos = [
    await addCompany(
      db,
      { name: 'Facet Alpha', domain: 'fa.com', category: 'ai_native', tags: [tag('industry', 'Robotics')] },
      now,
    ),
    await addCompany(
      db,
      {
        name: 'Facet Beta',
        domain: 'fb.com',
        category: 'ai_native',
        tags: [tag('industry', 'Robotics'), tag('industry', 'Legal'), tag('stage', 'Series A')],
      },
      now,
    ),
    await addCompany(
      db,
      { name: 'Facet Gamma', domain: 'fg.com', category: 'enterprise_ai', tags: [tag('stage', 'Series B')] },
      now,
    ),
  ];
  const names = ['Facet Alpha', 'Facet Beta', 'Facet Gamma'];
  const jobs = Array.from({ length: 47 }, (_, i) => ({
    companyId: cos[i % 3]!.id,
    companyName: names[i % 3]!,
    title: `${i % 2 ? 'Widget' : 'Gadget'} specialist ${i}`,
    roleCategory: ROLES[i % ROLES.length]!,
    location: LOCATIONS[i % 4]!,
    remote: i % 3 === 1 || i % 7 === 0,
    postedAt: new Date(now - (i + 1) * HOUR),
  }));
  const ids = await addJobs(db, jobs, now);
  for (const [i, id] of ids.entries()) {
    await db.query('UPDATE jobs SET department = $2 WHERE id = $1', [id, DEPARTMENTS[i % 5]]);
  }
});
afterAll(async () => t.close());

describe('GET /jobs?facets=', () => {
  it('counts each facet over the whole filtered set, its own filter left out', async () => {
    const facets = await expectJobFacets('role_category=fde&remote_only=true');
    // The disjunctive rule, stated directly: role categories over remote jobs, remote over fde jobs.
    expect(facets.role_category?.map((c) => c.value)).toContain('csm');
    expect(facets.remote?.map((c) => c.value).sort()).toEqual(['false', 'true']);
    // Jobs stating no location or no department are not counted under a blank value.
    expect(facets.location?.some((c) => c.value === '')).toBe(false);
    expect(facets.department?.map((c) => c.value).sort()).toEqual(['engineering', 'field', 'sales']);
  });

  it('counts anew once a write changes what the same filters select', async () => {
    const query = 'role_category=fde&remote_only=true';
    const before = await expectJobFacets(query);
    const [co] = await t.deps.db.query<{ id: string }>("SELECT id FROM companies WHERE slug = 'facet-gamma'");
    const posted = new Date(t.clock.now() - 30 * 60_000);
    const spec = { companyId: co!.id, companyName: 'Facet Gamma', remote: true, postedAt: posted };
    await addJobs(
      t.deps.db,
      [
        { ...spec, title: 'Remote fde late', roleCategory: 'fde', location: 'Tokyo, Japan' },
        { ...spec, title: 'Remote csm late', roleCategory: 'csm', location: 'Tokyo, Japan' },
      ],
      t.clock.now(),
    );
    const after = await expectJobFacets(query);
    expect(after.location).not.toEqual(before.location);
    expect(after.role_category).not.toEqual(before.role_category);
  });

  it('agrees with the listing with no filter, and with every facetable filter at once', async () => {
    await expectJobFacets('');
    await expectJobFacets('company=facet-beta&location=new%20york&department=SALES&client_facing=true');
  });

  it('counts over the search shortlist (computed with every filter) when search is given', async () => {
    const query = 'search=widget&remote_only=true';
    const body = await get<JobItem>(`/api/v1/jobs?${query}&limit=50&facets=role_category,remote`);
    const items = await all<JobItem>('/api/v1/jobs', new URLSearchParams(query));
    expect(items.length).toBeGreaterThan(0);
    expect(body.meta.facets?.role_category).toEqual(tally(items.map((j) => j.roleCategory)));
    expect(body.meta.facets?.remote).toEqual([{ value: 'true', count: items.length }]);
  });

  it('leaves meta.facets out unless asked', async () => {
    expect((await get('/api/v1/jobs?facets=')).meta.facets).toBeUndefined();
    expect((await get('/api/v1/jobs')).meta.facets).toBeUndefined();
  });

  it.each([
    ['facets=nope', "unknown facet 'nope'"],
    ['facets=role_category,industry', "unknown facet 'industry'"],
  ])('400s naming facets for %s', async (query, detail) => {
    const res = await t.get(`/api/v1/jobs?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('facets');
    expect(res.json().error.message).toContain(detail);
  });
});

describe('GET /companies?facets=', () => {
  const DIMENSIONS = ['industry', 'stage', 'business_model', 'ai_role', 'funding_tier'];

  async function expectCompanyFacets(query: string) {
    const body = await get<CompanyItem>(`/api/v1/companies?${query}&facets=${DIMENSIONS},category`);
    const facets = body.meta.facets ?? {};
    for (const d of DIMENSIONS) {
      const items = await all<CompanyItem>('/api/v1/companies', without(query, d));
      const slugs = items.flatMap((c) => c.tags.filter((g) => g.dimension === d).map((g) => g.slug));
      expect(facets[d], `${d} of ${query}`).toEqual(tally(slugs));
    }
    const rest = without(query, 'category');
    for (const { value, count } of facets.category ?? []) {
      rest.set('category', value);
      expect((await get(`/api/v1/companies?${rest}`)).meta.total, `category ${value}`).toBe(count);
    }
    return facets;
  }

  it('counts tag dimensions and categories, each without its own filter', async () => {
    await expectCompanyFacets('');
    const facets = await expectCompanyFacets('industry=robotics&stage=series-a&category=ai_native');
    // industry is counted over the stage=series-a, ai_native companies, whatever their industry: Beta (robotics,
    // legal) and Only Industry Differs (healthcare).
    expect(facets.industry).toEqual([
      { value: 'healthcare', count: 1 },
      { value: 'legal', count: 1 },
      { value: 'robotics', count: 1 },
    ]);
    // stage over the robotics, ai_native ones: Beta (series-a) and Only Stage Differs (seed); Alpha has none.
    expect(facets.stage).toEqual([
      { value: 'seed', count: 1 },
      { value: 'series-a', count: 1 },
    ]);
    // category over the robotics, series-a ones: Beta and Only Category Differs.
    expect(facets.category).toEqual([
      { value: 'ai_native', count: 1 },
      { value: 'enterprise_ai', count: 1 },
    ]);
  });

  it('counts over the search shortlist when search is given', async () => {
    const body = await get<CompanyItem>('/api/v1/companies?search=facet&facets=industry');
    const items = await all<CompanyItem>('/api/v1/companies', new URLSearchParams('search=facet'));
    const slugs = items.flatMap((c) => c.tags.filter((g) => g.dimension === 'industry').map((g) => g.slug));
    expect(items.length).toBe(3);
    expect(body.meta.facets?.industry).toEqual(tally(slugs));
  });

  it('400s naming facets for a job facet', async () => {
    const res = await t.get('/api/v1/companies?facets=role_category');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain("'facets'");
  });
});
