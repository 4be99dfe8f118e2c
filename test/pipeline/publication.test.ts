import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FaultyAts, startFaultyAts } from '../support/fake-ats-faults.js';
import { companySite, type Fixture, hostMapEnv, startFixture, titled } from './support.js';

/**
 * Publication of onboarded companies (docs/pipeline.md, Publication), through HTTP against fake company sites and
 * fake ATS servers: a company whose onboarding failed is nowhere in the public catalog (lists, details, search,
 * jobs, tags, stats, feed), token callers follow it through the workflow endpoint, and a retry that succeeds
 * publishes it with its jobs.
 */

let t: TestApp;
let fx: Fixture;
/** In front of the fake Greenhouse API: breaks a board's full listing, which only the scrape reads. */
let faults: FaultyAts;
const listing = (token: string) => `/v1/boards/${token}/jobs?content=true`;
const NOT_A_BOARD = { kind: 'huge', bytes: 2_000 } as const;

const TITLES = ['Forward Deployed Engineer', 'Solutions Engineer', 'Customer Success Manager'];

const onboard = (name: string, domain: string) =>
  t.request({ method: 'POST', url: '/api/v1/onboard', payload: { name, domain }, token: t.token });

async function run(name: string, domain: string) {
  const res = await onboard(name, domain);
  expect(res.statusCode).toBe(202);
  const workflowId = res.json().data.workflowId as string;
  await t.deps.pipeline.engine.waitFor(workflowId, 60_000);
  const view = await t.get(`/api/v1/workflows/${workflowId}`, t.token);
  expect(view.statusCode).toBe(200);
  return view.json().data as {
    status: string;
    error?: string;
    steps: Array<{ name: string; status: string }>;
    result?: { companyId: string; scrape: { published?: boolean } };
  };
}

const companyId = async (domain: string) =>
  (await t.deps.db.query<{ id: string }>('SELECT id FROM companies WHERE domain = $1', [domain]))[0]?.id;

/** Everything an anonymous caller can read about the catalog, as one comparable value. */
async function publicCatalog() {
  const read = async (url: string) => {
    const res = await t.get(url);
    expect(res.statusCode, url).toBe(200);
    return url.endsWith('.atom') ? res.body.replace(/<updated>[^<]*<\/updated>/g, '') : res.json();
  };
  const stats = (await read('/api/v1/stats')) as { data: Record<string, unknown> };
  return {
    companies: await read('/api/v1/companies?limit=20'),
    jobs: await read('/api/v1/jobs?limit=20'),
    tags: await read('/api/v1/tags'),
    // The sample figure `newToday` and the freshness stamps move with the clock, not with the catalog.
    stats: { totalJobs: stats.data.totalJobs, totalCompanies: stats.data.totalCompanies },
    feed: await read('/api/v1/jobs/feed.atom'),
  };
}

/** The company is unknown to every public read: by slug and id, in lists, searches and job filters. */
async function expectHidden(name: string, slug: string, id: string) {
  for (const url of [`/api/v1/companies/${slug}`, `/api/v1/companies/${id}`]) {
    const res = await t.get(url);
    expect(res.statusCode, url).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  }
  const listed = await t.get('/api/v1/companies?limit=20');
  expect(listed.json().data.map((c: { slug: string }) => c.slug)).not.toContain(slug);
  const searched = await t.get(`/api/v1/companies?search=${encodeURIComponent(name)}`);
  expect(searched.statusCode).toBe(200);
  expect(searched.json().data.map((c: { slug: string }) => c.slug)).not.toContain(slug);
  const jobs = await t.get(`/api/v1/jobs?company=${slug}`);
  expect(jobs.statusCode).toBe(200);
  expect(jobs.json().data).toEqual([]);
  const searchJobs = await t.get(`/api/v1/jobs?search=${encodeURIComponent(name)}`);
  expect(searchJobs.json().data.map((j: { company: { slug: string } }) => j.company.slug)).not.toContain(
    slug,
  );
}

async function expectListed(slug: string, jobs: number) {
  const res = await t.get(`/api/v1/companies/${slug}`);
  expect(res.statusCode).toBe(200);
  expect(res.json().data).toMatchObject({ slug, active: true, activeJobCount: jobs });
  const listed = await t.get('/api/v1/companies?limit=20');
  expect(listed.json().data.map((c: { slug: string }) => c.slug)).toContain(slug);
  const listedJobs = await t.get(`/api/v1/jobs?company=${slug}&limit=20`);
  expect(listedJobs.json().data).toHaveLength(jobs);
  // Semantic company search has its embedding from the moment it is public.
  const embedded = await t.deps.db.query(
    'SELECT 1 FROM company_embeddings e JOIN companies c ON c.id = e.company_id WHERE c.slug = $1',
    [slug],
  );
  expect(embedded).toHaveLength(1);
}

beforeAll(async () => {
  fx = await startFixture({
    greenhouse: {
      listed: titled(TITLES, 'l'),
      badboard: titled(TITLES, 'b'),
      partial: titled(TITLES, 'p'),
      partialbad: titled(['Implementation Consultant'], 'q'),
    },
    sites: {
      'listed.ai': companySite('Listed', ['https://boards.greenhouse.io/listed']),
      // No homepage (404): enrichment fails at once.
      'nohome.ai': { '/careers': companySite('Nohome', [])['/careers'] as string },
      'badboard.ai': companySite('Badboard', ['https://boards.greenhouse.io/badboard']),
      'noboard.ai': companySite('Noboard', []),
      'partial.ai': companySite('Partial', [
        'https://boards.greenhouse.io/partial',
        'https://boards.greenhouse.io/partialbad',
      ]),
    },
  });
  faults = await startFaultyAts(fx.ats.origin);
  t = await startTestApp({
    env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap, { 'boards-api.greenhouse.io': faults.origin }) },
  });
  await t.deps.pipeline.start();
  const listed = await run('Listed', 'listed.ai');
  expect(listed.status, JSON.stringify(listed)).toBe('succeeded');
  expect(listed.result?.scrape.published).toBe(true);
});
afterAll(async () => {
  await t?.close();
  await faults?.close();
  await fx?.close();
});

describe('a failed onboarding', () => {
  it('leaves a company that failed enrichment out of every public read; token callers see the failed run', async () => {
    const before = await publicCatalog();
    const view = await run('Nohome', 'nohome.ai');
    expect(view.status).toBe('failed');
    expect(view.steps.map((s) => [s.name, s.status])).toEqual([
      ['company', 'succeeded'],
      ['enrich', 'failed'],
    ]);
    const id = await companyId('nohome.ai');
    expect(id).toBeDefined();
    await expectHidden('Nohome', 'nohome', id as string);
    expect(await publicCatalog()).toEqual(before);
  });

  it('leaves a company whose every board failed to scrape out of every public read', async () => {
    const before = await publicCatalog();
    // Discovery confirms the board (its listing without content); the scrape gets garbage and fails at once.
    faults.fault(listing('badboard'), NOT_A_BOARD);
    const view = await run('Badboard', 'badboard.ai');
    expect(view.status).toBe('failed');
    expect(view.error).toContain('greenhouse/badboard');
    expect(Object.fromEntries(view.steps.map((s) => [s.name, s.status]))).toMatchObject({
      enrich: 'succeeded',
      'discover-boards': 'succeeded',
      'scrape:greenhouse/badboard': 'failed',
      finalize: 'succeeded',
    });
    await expectHidden('Badboard', 'badboard', (await companyId('badboard.ai')) as string);
    expect(await publicCatalog()).toEqual(before);
  });
});

describe('publication', () => {
  it('publishes on a successful retry, with its jobs, in every public read', async () => {
    const before = await publicCatalog();
    faults.fault(listing('badboard'), null);
    const view = await run('Badboard', 'badboard.ai');
    expect(view.status, JSON.stringify(view)).toBe('succeeded');
    // The earlier run's markers stand: only the scrape runs again.
    expect(Object.fromEntries(view.steps.map((s) => [s.name, s.status]))).toMatchObject({
      enrich: 'skipped',
      'discover-boards': 'skipped',
      'scrape:greenhouse/badboard': 'succeeded',
    });
    expect(view.result?.scrape.published).toBe(true);
    await expectListed('badboard', 3);
    const after = await publicCatalog();
    expect(after.stats).toEqual({
      totalJobs: (before.stats.totalJobs as number) + 3,
      totalCompanies: (before.stats.totalCompanies as number) + 1,
    });
    expect(after.feed).toContain('Badboard');

    fx.sites.setRoute('nohome.ai', '/', companySite('Nohome', [])['/'] as string);
    const retried = await run('Nohome', 'nohome.ai');
    expect(retried.status, JSON.stringify(retried)).toBe('succeeded');
    await expectListed('nohome', 0);
  });

  it('lists an enriched company whose site names no job board, with no jobs', async () => {
    const view = await run('Noboard', 'noboard.ai');
    expect(view.status, JSON.stringify(view)).toBe('succeeded');
    expect(view.result?.scrape.published).toBe(true);
    await expectListed('noboard', 0);
    const tags = (await t.get('/api/v1/companies/noboard')).json().data.tags as unknown[];
    expect(tags.length).toBeGreaterThan(0);
  });

  it('lists a company as soon as one of its boards is stored, though another fails', async () => {
    faults.fault(listing('partialbad'), NOT_A_BOARD);
    const view = await run('Partial', 'partial.ai');
    expect(view.status).toBe('failed');
    expect(view.error).toContain('greenhouse/partialbad');
    await expectListed('partial', 3);
  });

  it('keeps a published company public when a later onboarding of it fails', async () => {
    faults.fault(listing('listed'), NOT_A_BOARD);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name: 'Listed', domain: 'listed.ai', force: true },
      token: t.token,
    });
    const view = await t.deps.pipeline.engine.waitFor(res.json().data.workflowId, 60_000);
    expect(view.status).toBe('failed');
    await expectListed('listed', 3);
  });
});
