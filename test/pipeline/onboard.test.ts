import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { companySite, type Fixture, generatePostings, hostMapEnv, startFixture, titled } from './support.js';

/**
 * Onboarding, re-enrichment and freshness end to end through the HTTP surface, against fake company sites and
 * fake ATS servers reached through OUTBOUND_HOST_MAP, with the real DBOS engine on this file's database.
 */

const GREENHOUSE_TITLES = [
  'Forward Deployed Engineer',
  'Solutions Architect',
  'Technical Account Manager',
  'Senior Backend Engineer',
  'Customer Success Manager',
];
const LEVER_TITLES = ['Implementation Consultant', 'Product Designer', 'Account Executive'];

let t: TestApp;
let fx: Fixture;

const onboard = (body: unknown, token: string | null = t.token) =>
  t.request({ method: 'POST', url: '/api/v1/onboard', payload: body as object, token });
const enrich = (body: unknown, token: string | null = t.token) =>
  t.request({ method: 'POST', url: '/api/v1/enrich', payload: body as object, token });

async function finished(workflowId: string) {
  const view = await t.deps.pipeline.engine.waitFor(workflowId);
  const res = await t.get(`/api/v1/workflows/${workflowId}`, t.token);
  expect(res.statusCode).toBe(200);
  expect(res.json().data.status).toBe(view.status);
  return res.json().data as {
    status: string;
    name: string;
    steps: Array<{ name: string; status: string; error?: string; startedAt: string | null }>;
    result?: Record<string, unknown>;
    error?: string;
  };
}

const stepStatus = (view: Awaited<ReturnType<typeof finished>>) =>
  Object.fromEntries(view.steps.map((s) => [s.name, s.status]));

async function activeJobs(slug: string): Promise<Array<{ title: string; roleCategory: string }>> {
  const res = await t.get(`/api/v1/jobs?company=${slug}&limit=50`, t.token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

beforeAll(async () => {
  fx = await startFixture({
    greenhouse: { acme: titled(GREENHOUSE_TITLES, 'g'), globex: generatePostings(3, 'x') },
    lever: { acme: titled(LEVER_TITLES, 'l') },
    sites: {
      'acme.com': companySite('Acme', ['https://boards.greenhouse.io/acme', 'https://jobs.lever.co/acme']),
      'globex.io': companySite('Globex', ['https://boards.greenhouse.io/globex']),
    },
  });
  t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap) } });
  await t.deps.pipeline.start();
});
afterAll(async () => {
  await t?.close();
  await fx?.close();
});

describe('the workflow catalog', () => {
  it('holds every durable workflow, and the engine registers exactly it', () => {
    expect([...t.deps.pipeline.engine.workflowNames].sort()).toEqual([
      'deep-research',
      'deliver-watch',
      'enrich',
      'onboard',
      'promote',
      'scrape',
    ]);
  });
});

describe('POST /onboard', () => {
  it('needs a token and a valid body', async () => {
    expect((await onboard({ name: 'Acme', domain: 'acme.com' }, null)).statusCode).toBe(401);
    expect((await onboard({ name: 'Acme', domain: 'acme.com' }, 'fl_wrong_token_value')).statusCode).toBe(
      403,
    );
    for (const [body, field] of [
      [{ domain: 'acme.com' }, 'name'],
      [{ name: 'Acme' }, 'domain'],
      [{ name: '   ', domain: 'acme.com' }, 'name'],
      [{ name: 'Acme', domain: 'localhost' }, 'domain'],
      [{ name: 'Acme', domain: 'http://127.0.0.1:8080' }, 'domain'],
      [{ name: 'Acme', domain: 'intranet' }, 'domain'],
      [{ name: 'Acme', domain: 'acme.internal' }, 'domain'],
      [{ name: 'Acme', domain: 'ac me.com' }, 'domain'],
      [{ name: 'A'.repeat(201), domain: 'acme.com' }, 'name'],
      [{ name: 'Acme', domain: 'acme.com', force: 'maybe' }, 'force'],
      [{ name: 'Acme', domain: 'acme.com', extra: 1 }, 'extra'],
    ] as const) {
      const res = await onboard(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.message).toContain(field);
    }
  });

  it('answers 202 at once, collapses concurrent calls, and runs every step', async () => {
    const homepageHits = () =>
      fx.sites.requests.filter((r) => r.host.startsWith('acme.com') && r.path === '/').length;
    const calls = await Promise.all([
      onboard({ name: 'Acme', domain: 'https://WWW.Acme.com/careers?x=1' }),
      onboard({ name: 'Acme', domain: 'acme.com' }),
      onboard({ name: 'Acme', domain: 'http://jobs.acme.com' }),
    ]);
    for (const c of calls) {
      expect(c.statusCode).toBe(202);
      expect(c.json().data).toMatchObject({ domain: 'acme.com', status: 'enqueued' });
    }
    const ids = new Set(calls.map((c) => c.json().data.workflowId));
    expect(ids.size).toBe(1);
    const workflowId = [...ids][0] as string;

    const view = await finished(workflowId);
    expect(view.status, JSON.stringify(view)).toBe('succeeded');
    expect(view.name).toBe('onboard');
    expect(view.steps.map((s) => s.name)).toEqual([
      'company',
      'enrich',
      'discover-boards',
      'load-boards',
      'scrape:greenhouse/acme',
      'scrape:lever/acme',
      'finalize',
    ]);
    expect(view.steps.every((s) => s.status === 'succeeded' && s.startedAt)).toBe(true);
    expect(view.result).toMatchObject({ domain: 'acme.com', slug: 'acme', created: true });
    // Enrichment fetched the homepage; discovery, the next step, reused it.
    expect(homepageHits()).toBe(1);

    const jobs = await activeJobs('acme');
    expect(jobs.map((j) => j.title).sort()).toEqual([...GREENHOUSE_TITLES, ...LEVER_TITLES].sort());
    const byTitle = Object.fromEntries(jobs.map((j) => [j.title, j.roleCategory]));
    expect(byTitle['Forward Deployed Engineer']).toBe('fde');
    expect(byTitle['Technical Account Manager']).toBe('tam');

    const company = await t.get('/api/v1/companies/acme', t.token);
    expect(company.statusCode).toBe(200);
    expect(company.json().data).toMatchObject({ domain: 'acme.com', name: 'Acme', activeJobCount: 8 });
    expect(company.json().data.oneLiner).toContain('AI agents');
  });

  it('starts a new run after the last one ended; markers skip finished steps unless forced', async () => {
    const homepage = () =>
      fx.sites.requests.filter((r) => r.host.startsWith('acme.com') && r.path === '/').length;
    const homepageHits = homepage();
    const again = await onboard({ name: 'Acme', domain: 'acme.com' });
    expect(again.statusCode).toBe(202);
    const view = await finished(again.json().data.workflowId);
    expect(view.status).toBe('succeeded');
    expect(stepStatus(view)).toEqual({
      company: 'succeeded',
      enrich: 'skipped',
      'discover-boards': 'skipped',
      'load-boards': 'skipped',
    });
    expect(homepage()).toBe(homepageHits);

    const forced = await onboard({ name: 'Acme', domain: 'acme.com', force: true });
    const fv = await finished(forced.json().data.workflowId);
    expect(fv.status).toBe('succeeded');
    expect(fv.steps.filter((s) => s.status === 'skipped')).toEqual([]);
    expect(fv.steps.map((s) => s.name)).toContain('scrape:lever/acme');
    // Forced enrich and discovery fetch the homepage again (the skipped run above did not).
    expect(homepage()).toBeGreaterThan(homepageHits);
    // A re-scrape rewrites the same rows: no duplicates.
    expect(await activeJobs('acme')).toHaveLength(8);
    const rows = await t.deps.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs j JOIN companies c ON c.id = j.company_id WHERE c.domain = 'acme.com'`,
    );
    expect(rows[0]?.n).toBe(8);
  });
});

describe('freshness: vanished postings and boards', () => {
  it('deactivates postings that left a board, reactivates those that come back (same ids), and keeps a company whose boards are all gone', async () => {
    fx.ats.setBoard('greenhouse', 'acme', titled(GREENHOUSE_TITLES, 'g').slice(0, 3));
    t.clock.advance(7 * 3_600_000);
    const ids = await t.deps.pipeline.scheduler.tick();
    expect(ids).toHaveLength(1);
    const view = await finished(ids[0] as string);
    expect(view.status, JSON.stringify(view)).toBe('succeeded');
    expect(view.name).toBe('scrape');
    expect(await activeJobs('acme')).toHaveLength(6);
    const returning = `SELECT id, external_id, active FROM jobs WHERE external_id IN ('g4', 'g5') ORDER BY external_id`;
    const gone = await t.deps.db.query<{ id: string; external_id: string; active: boolean }>(returning);
    expect(gone.map((g) => g.active)).toEqual([false, false]);
    const goneIds = gone.map((g) => g.id);
    expect((await activeJobs('acme')).map((j) => (j as unknown as { id: string }).id)).not.toContain(
      goneIds[0],
    );
    // Nothing is due right after a scrape.
    expect(await t.deps.pipeline.scheduler.tick()).toEqual([]);

    // The two postings come back to the board: the next scrape makes the same rows active again (same ids).
    fx.ats.setBoard('greenhouse', 'acme', titled(GREENHOUSE_TITLES, 'g'));
    t.clock.advance(7 * 3_600_000);
    const [back] = await t.deps.pipeline.scheduler.tick();
    expect((await finished(back as string)).status).toBe('succeeded');
    const listed8 = await activeJobs('acme');
    expect(listed8).toHaveLength(8);
    expect(listed8.map((j) => (j as unknown as { id: string }).id)).toEqual(expect.arrayContaining(goneIds));
    const again = await t.deps.db.query<{ id: string; external_id: string; active: boolean }>(returning);
    expect(again).toEqual(gone.map((g) => ({ ...g, active: true })));

    fx.ats.removeBoard('greenhouse', 'acme');
    fx.ats.removeBoard('lever', 'acme');
    t.clock.advance(7 * 3_600_000);
    const [next] = await t.deps.pipeline.scheduler.tick();
    const v2 = await finished(next as string);
    expect(v2.status).toBe('succeeded');
    expect(v2.result).toMatchObject({ activeJobs: 0 });
    expect(await activeJobs('acme')).toEqual([]);
    const company = await t.get('/api/v1/companies/acme', t.token);
    expect(company.json().data).toMatchObject({ activeJobCount: 0 });
    const listed = await t.get('/api/v1/companies?limit=100', t.token);
    expect(listed.json().data.map((c: { slug: string }) => c.slug)).toContain('acme');
    // No active board is left, so the scheduler has nothing more to do for it.
    t.clock.advance(7 * 3_600_000);
    expect(await t.deps.pipeline.scheduler.tick()).toEqual([]);
  });
});

describe('POST /enrich', () => {
  it('answers 404 for an untracked domain and 400 for an invalid one', async () => {
    const res = await enrich({ domain: 'unknown-company.com' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect((await enrich({ domain: '10.0.0.1' })).statusCode).toBe(400);
    expect((await enrich({ domain: 'acme.com' }, null)).statusCode).toBe(401);
  });

  it('re-acquires facts of a tracked company with force, re-derives tags and collapses per domain', async () => {
    const first = await onboard({ name: 'Globex', domain: 'globex.io' });
    expect((await finished(first.json().data.workflowId)).status).toBe('succeeded');
    fx.sites.setRoute(
      'globex.io',
      '/',
      '<html><head><meta name="description" content="Globex sells fintech payment software to banks."></head><body><h1>Globex</h1></body></html>',
    );
    const calls = await Promise.all([
      enrich({ domain: 'https://www.globex.io' }),
      enrich({ domain: 'globex.io' }),
    ]);
    for (const c of calls) expect(c.statusCode).toBe(202);
    expect(calls[0]?.json().data).toMatchObject({
      company: { name: 'Globex', domain: 'globex.io' },
      status: 'enqueued',
    });
    expect(calls[0]?.json().data.workflowId).toBe(calls[1]?.json().data.workflowId);
    const view = await finished(calls[0]?.json().data.workflowId);
    expect(view.status).toBe('succeeded');
    expect(stepStatus(view)).toMatchObject({ enrich: 'succeeded', embed: 'succeeded' });
    const company = await t.get('/api/v1/companies/globex', t.token);
    expect(company.json().data.oneLiner).toContain('fintech payment');
  });
});

describe('a board that answers garbage', () => {
  it('fails its own step with a clear error, leaves its jobs untouched and fails the run', async () => {
    const before = await activeJobs('globex');
    expect(before).toHaveLength(3);
    fx.ats.setRaw('greenhouse', 'globex', '{"jobs": "not a list"}');
    const res = await onboard({ name: 'Globex', domain: 'globex.io', force: true });
    const view = await finished(res.json().data.workflowId);
    expect(view.status).toBe('failed');
    const step = view.steps.find((s) => s.name === 'scrape:greenhouse/globex');
    expect(step?.status).toBe('failed');
    expect(step?.error).toBeTruthy();
    expect(view.error).toContain('greenhouse/globex');
    expect(stepStatus(view)).toMatchObject({ enrich: 'succeeded', finalize: 'succeeded' });
    expect(await activeJobs('globex')).toHaveLength(3);
  });
});

describe('GET /workflows/:workflowId', () => {
  it('answers 404 for unknown ids and 401 without a token; is in the OpenAPI document', async () => {
    const res = await t.get('/api/v1/workflows/00000000-0000-4000-8000-000000000000', t.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect((await t.get('/api/v1/workflows/x')).statusCode).toBe(401);
    const doc = (await t.get('/api/v1/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/onboard', '/api/v1/enrich', '/api/v1/workflows/{workflowId}']),
    );
  });
});
