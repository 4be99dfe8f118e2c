import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_CATALOG, type SampleJob, sampleJobId } from '../../src/catalog/sample.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

/** GET /jobs?sort=: newest, relevance (with search) and pay, over the sample catalog's stated pay. */

let t: TestApp;
const clock = new TestClock(Date.UTC(2026, 10, 22, 9, 30, 0));

beforeAll(async () => {
  t = await startTestApp({ env: { SAMPLE_DATA: '1' }, clock });
});
afterAll(async () => t.close());

const PER_YEAR: Record<string, number> = { year: 1, hour: 2080, day: 260 };

/** Each sample job's id and its annual top of pay, from the bundled data (slugs are the companies' as loaded). */
async function sampleJobs(): Promise<Map<string, SampleJob>> {
  const rows = await t.deps.db.query<{ slug: string; domain: string }>('SELECT slug, domain FROM companies');
  const slugOf = new Map(rows.map((r) => [r.domain, r.slug]));
  const out = new Map<string, SampleJob>();
  for (const c of SAMPLE_CATALOG.companies) {
    c.jobs.forEach((j, i) => {
      out.set(sampleJobId(`sample-${slugOf.get(c.domain)}-${i + 1}`), j);
    });
  }
  return out;
}

const annual = (j: SampleJob) => (j.salary ? j.salary.max * (PER_YEAR[j.salary.period] ?? 1) : -1);

/** Every page of a listing with a token (50 a page), as ids. */
async function allIds(query: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const res = await t.get(`/api/v1/jobs?${query}&limit=50&page=${page}`, t.token);
    expect(res.statusCode, res.body).toBe(200);
    const { data, meta } = res.json();
    ids.push(...data.map((j: { id: string }) => j.id));
    if (page >= meta.totalPages) return ids;
  }
}

describe('GET /jobs sort', () => {
  it('refuses an unknown order and relevance without a search, naming sort', async () => {
    for (const q of ['sort=highest', 'sort=relevance', 'sort=relevance&search=']) {
      const res = await t.get(`/api/v1/jobs?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.message, q).toMatch(/sort/);
    }
    expect((await t.get('/api/v1/jobs?sort=highest')).json().error.message).toMatch(/newest.*relevance.*pay/);
  });

  it('pay: USD by annual top first, then other currencies, then no pay', async () => {
    const jobs = await sampleJobs();
    const ids = await allIds('sort=pay');
    expect(ids).toHaveLength(jobs.size);
    const listed = ids.map((id) => jobs.get(id)!);
    const group = (j: SampleJob) => (j.salary?.currency === 'USD' ? 0 : j.salary ? 1 : 2);
    for (let i = 1; i < listed.length; i++) {
      const [a, b] = [listed[i - 1]!, listed[i]!];
      expect(group(a)).toBeLessThanOrEqual(group(b));
      if (group(a) === group(b) && group(a) < 2) expect(annual(a)).toBeGreaterThanOrEqual(annual(b));
    }
    // The first is the best paid USD posting of the sample, annualised (an hourly rate × 2,080).
    const best = Math.max(...[...jobs.values()].filter((j) => j.salary?.currency === 'USD').map(annual));
    expect(annual(listed[0]!)).toBe(best);
    // The newest order lists the same jobs; the default is newest.
    expect(new Set(await allIds('sort=newest'))).toEqual(new Set(ids));
    expect((await t.get('/api/v1/jobs')).json().data).toEqual(
      (await t.get('/api/v1/jobs?sort=newest')).json().data,
    );
  });

  it('pay in salary_currency: EUR first with salary_min in EUR, and the total is the filter’s', async () => {
    const jobs = await sampleJobs();
    const res = (
      await t.get('/api/v1/jobs?sort=pay&salary_min=1&salary_currency=EUR&limit=50', t.token)
    ).json();
    const eur = [...jobs.values()].filter((j) => j.salary?.currency === 'EUR');
    expect(res.meta.total).toBe(eur.length);
    const tops = res.data.map((j: { id: string }) => annual(jobs.get(j.id)!));
    expect(tops).toEqual([...tops].sort((a: number, b: number) => b - a));
    expect(tops[0]).toBe(Math.max(...eur.map(annual)));
  });

  it('orders a search shortlist by date or pay: the same matches, the same total', async () => {
    const jobs = await sampleJobs();
    const relevance = await allIds('search=engineer');
    expect(await allIds('search=engineer&sort=relevance')).toEqual(relevance);
    const newest = await allIds('search=engineer&sort=newest');
    expect(new Set(newest)).toEqual(new Set(relevance));
    expect(newest).not.toEqual(relevance);
    const dated = (await t.get('/api/v1/jobs?search=engineer&sort=newest&limit=50', t.token)).json().data;
    const dates = dated.map((j: { postedAt: string }) => j.postedAt);
    expect(dates).toEqual([...dates].sort().reverse());
    const pay = await allIds('search=engineer&sort=pay');
    expect(new Set(pay)).toEqual(new Set(relevance));
    const usd = pay.map((id) => jobs.get(id)!).filter((j) => j.salary?.currency === 'USD');
    expect(usd.length).toBeGreaterThan(1);
    expect(jobs.get(pay[0]!)!.salary?.currency).toBe('USD');
    const tops = usd.map(annual);
    expect(tops).toEqual([...tops].sort((a, b) => b - a));
  });
});
