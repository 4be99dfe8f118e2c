import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSampleCatalog, SAMPLE_CATALOG, samplePostedAt } from '../../src/catalog/sample.js';
import { CLIENT_FACING_CATEGORIES, ROLE_CATEGORIES, TAG_DIMENSIONS } from '../../src/catalog/types.js';
import { bumpCatalogVersion } from '../../src/catalog/version.js';
import { REGION_IDS } from '../../src/sources/normalize/regions.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

const DAY = 86_400_000;
let t: TestApp;
// 09:30 UTC: "today" postings must fall between midnight and now.
const clock = new TestClock(Date.UTC(2026, 10, 22, 9, 30, 0));

beforeAll(async () => {
  t = await startTestApp({ env: { SAMPLE_DATA: '1' }, clock });
});
afterAll(async () => t.close());

const json = async (url: string, token?: string) => (await t.get(url, token)).json();
const expectedJobs = SAMPLE_CATALOG.companies.reduce((n, c) => n + c.jobs.length, 0);

describe('bundled sample catalog', () => {
  it('is loaded at start into an empty catalog', async () => {
    const { data } = await json('/api/v1/stats');
    expect(data.totalCompanies).toBe(SAMPLE_CATALOG.companies.length);
    expect(data.totalCompanies).toBeGreaterThanOrEqual(38);
    expect(data.totalJobs).toBe(expectedJobs);
    expect(data.newToday).toBeGreaterThan(0);
  });

  it('is idempotent: a second load (or a restart) adds nothing', async () => {
    const again = await loadSampleCatalog(t.deps.db, clock.now());
    expect(again).toEqual({ loaded: false, companies: 0, jobs: 0 });
    const { data } = await json('/api/v1/stats');
    expect(data.totalJobs).toBe(expectedJobs);
  });

  it('covers every role category, mostly client-facing, with several locations and both remote flags', async () => {
    const rows = await t.deps.db.query<{ role_category: string; n: number }>(
      'SELECT role_category, count(*)::int AS n FROM jobs WHERE active GROUP BY role_category',
    );
    const counts = new Map(rows.map((r) => [r.role_category, r.n]));
    for (const category of ROLE_CATEGORIES) expect(counts.get(category) ?? 0, category).toBeGreaterThan(0);
    const clientFacing = CLIENT_FACING_CATEGORIES.reduce((n, c) => n + (counts.get(c) ?? 0), 0);
    expect(clientFacing / expectedJobs).toBeGreaterThan(0.5);
    const { meta } = await json('/api/v1/jobs?client_facing=true');
    expect(meta.total).toBe(clientFacing);
    const [places] = await t.deps.db.query<{ locations: number; remote: number; onsite: number }>(
      `SELECT count(DISTINCT location)::int AS locations, count(*) FILTER (WHERE remote)::int AS remote,
         count(*) FILTER (WHERE NOT remote)::int AS onsite FROM jobs`,
    );
    expect(places!.locations).toBeGreaterThanOrEqual(5);
    expect(places!.remote).toBeGreaterThan(0);
    expect(places!.onsite).toBeGreaterThan(0);
  });

  it('marks every posting as a sample and dates them over the last 60 days including today', async () => {
    const rows = await t.deps.db.query<{
      is_sample: boolean;
      source: string;
      url: string;
      description: string;
      domain: string;
      posted_at: Date;
    }>(
      `SELECT j.is_sample, j.source, j.url, j.description, c.domain, j.posted_at
       FROM jobs j JOIN companies c ON c.id = j.company_id WHERE j.active`,
    );
    const now = clock.now();
    const midnight = Date.UTC(2026, 10, 22);
    for (const r of rows) {
      expect(r.is_sample).toBe(true);
      expect(r.source).toBe('sample');
      expect(new URL(r.url).hostname).toBe(r.domain);
      expect(r.url).toMatch(/\/careers#sample-\d+$/);
      expect(r.description).toMatch(/^Sample posting: this is not a real opening/);
      expect(r.posted_at.getTime()).toBeLessThanOrEqual(now);
      expect(r.posted_at.getTime()).toBeGreaterThan(now - 61 * DAY);
    }
    const today = rows.filter((r) => r.posted_at.getTime() >= midnight).length;
    expect(today).toBeGreaterThan(0);
    expect((await json('/api/v1/stats')).data.newToday).toBe(today);
    const oldest = Math.min(...rows.map((r) => r.posted_at.getTime()));
    expect(now - oldest).toBeGreaterThan(45 * DAY);
  });

  it('keeps today postings between midnight and now whatever the time of day', () => {
    for (const nowMs of [
      Date.UTC(2026, 0, 1, 0, 0, 0),
      Date.UTC(2026, 0, 1, 0, 0, 1),
      Date.UTC(2026, 0, 1, 23, 59),
    ]) {
      for (const minuteOfDay of [0, 720, 1439]) {
        const at = samplePostedAt({ daysAgo: 0, minuteOfDay }, nowMs).getTime();
        expect(at).toBeGreaterThanOrEqual(Date.UTC(2026, 0, 1));
        expect(at).toBeLessThanOrEqual(nowMs);
      }
    }
  });

  it('serves real companies with tags in all five dimensions', async () => {
    const anthropic = (await json('/api/v1/companies/anthropic')).data;
    expect(anthropic).toMatchObject({
      name: 'Anthropic',
      domain: 'anthropic.com',
      website: 'https://anthropic.com',
      category: 'ai_native',
      sample: true,
      active: true,
    });
    expect(anthropic.activeJobCount).toBeGreaterThan(0);
    expect((await json('/api/v1/jobs?company=anthropic')).meta.total).toBe(anthropic.activeJobCount);
    const tags = (await json('/api/v1/tags')).data;
    for (const dimension of TAG_DIMENSIONS) expect(tags[dimension].length, dimension).toBeGreaterThan(0);
    const { data, meta } = await json('/api/v1/companies?limit=100', t.token);
    expect(meta.total).toBe(SAMPLE_CATALOG.companies.length);
    for (const c of data) {
      const dims = new Set(c.tags.map((tag: { dimension: string }) => tag.dimension));
      expect(dims.size, c.name).toBe(5);
    }
    const counts = data.map((c: { slug: string }) => c.slug);
    expect(new Set(counts).size).toBe(data.length);
  });

  it('states structured pay on most postings, per year and per hour, in several currencies', async () => {
    const rows = await t.deps.db.query<{
      currency: string | null;
      period: string | null;
      source: string | null;
    }>(
      'SELECT salary_currency AS currency, salary_period AS period, salary_source AS source FROM jobs WHERE active',
    );
    const paid = rows.filter((r) => r.currency !== null);
    expect(paid.length / rows.length).toBeGreaterThan(0.7);
    expect(paid.every((r) => r.source === 'structured')).toBe(true);
    expect(new Set(paid.map((r) => r.currency))).toEqual(new Set(['USD', 'EUR', 'GBP', 'CAD', 'SGD']));
    expect(new Set(paid.map((r) => r.period))).toEqual(new Set(['year', 'hour', 'day']));
    // The API reference's example job states its pay, as the detail shows it.
    const example = SAMPLE_CATALOG.companies[0]!.jobs[0]!;
    const { data } = await json('/api/v1/jobs?company=anthropic&limit=20');
    const fde = data.find((j: { title: string }) => j.title === example.title);
    const detail = (await json(`/api/v1/jobs/${fde.id}`)).data;
    expect(detail.salary).toEqual({ ...example.salary, source: 'structured' });
    // salary_min finds it at the top of its own range.
    const top = await json(
      `/api/v1/jobs?company=anthropic&salary_min=${example.salary!.max}&salary_currency=USD`,
    );
    expect(top.data.map((j: { id: string }) => j.id)).toContain(fde.id);
  });

  it('has jobs in every region, a remote EMEA scope and a job with several places, as the place filters see them', async () => {
    for (const region of REGION_IDS) {
      expect((await json(`/api/v1/jobs?region=${region}`)).meta.total, region).toBeGreaterThan(0);
    }
    // Remote within EMEA is not remote within Europe: the two scopes list different jobs.
    const emea = (await json('/api/v1/jobs?remote_scope=emea&limit=50')).meta.total;
    const europe = (await json('/api/v1/jobs?remote_scope=europe&limit=50')).meta.total;
    expect(europe).toBeGreaterThan(0);
    expect(emea).toBeGreaterThan(europe);
    const both = await json('/api/v1/jobs?country=IE&location=london');
    expect(both.data.map((j: { location: string }) => j.location)).toEqual([
      'Dublin, Ireland; London, United Kingdom',
    ]);
  });

  it('flags remote only the postings that are remote only: a hybrid one is not remote', async () => {
    const hybrid = SAMPLE_CATALOG.companies
      .flatMap((c) => c.jobs)
      .filter((j) => j.location.includes('(Hybrid)'));
    expect(hybrid.length).toBeGreaterThan(0);
    expect(hybrid.every((j) => !j.remote)).toBe(true);
    const remote = await json('/api/v1/jobs?remote_only=true&limit=50', t.token);
    expect(remote.meta.total).toBeGreaterThan(0);
    for (const j of remote.data) expect(j.location, j.title).toMatch(/^Remote - /);
  });

  it('has companies newly hiring for client-facing roles in the last 30 days', async () => {
    const marked = SAMPLE_CATALOG.companies.filter((c) => c.newlyHiring).map((c) => c.domain);
    expect(marked.length).toBeGreaterThanOrEqual(3);
    const { data } = await json('/api/v1/signals/newly-hiring?client_facing=true');
    const slugs = data.companies.map((c: { company: { slug: string } }) => c.company.slug);
    const domains = await t.deps.db.query<{ slug: string; domain: string }>(
      'SELECT slug, domain FROM companies WHERE slug = ANY($1::text[])',
      [slugs],
    );
    expect(domains.map((d) => d.domain).sort()).toEqual([...marked].sort());
  });

  it('does not load into a catalog that already has companies', async () => {
    await t.deps.db.transaction(async (tx) => {
      await tx.query('DELETE FROM jobs');
      await bumpCatalogVersion(tx, clock.now());
    });
    const result = await loadSampleCatalog(t.deps.db, clock.now());
    expect(result.loaded).toBe(false);
    expect((await json('/api/v1/stats')).data.totalJobs).toBe(0);
  });
});
