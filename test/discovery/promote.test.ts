import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companySite,
  type Fixture,
  generatePostings,
  hostMapEnv,
  startFixture,
} from '../pipeline/support.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * POST /promote_and_onboard end to end: sightings through /discover, the promote workflow on the real DBOS engine,
 * validation against fake company sites (qualified, platform, no careers page, one that never answers), and the
 * onboarding child runs scraping fake ATS boards.
 */

let t: TestApp;
let fx: Fixture;
const stalled: Array<() => void> = [];

beforeAll(async () => {
  fx = await startFixture({
    greenhouse: { acme: generatePostings(3, 'a'), globex: generatePostings(2, 'g') },
    sites: {
      'acme.com': companySite('Acme', ['https://boards.greenhouse.io/acme']),
      'globex.io': companySite('Globex', ['https://boards.greenhouse.io/globex']),
      'plainsite.ai': { '/': '<html><head><title>Plain</title></head><body>Just a page.</body></html>' },
    },
  });
  fx.sites.setRoute('stall.ai', '/', {
    handler: (_req, res) => {
      stalled.push(() => res.destroy());
    },
  });
  const hostMap = { ...fx.hostMap, 'stall.ai': fx.sites.origin, 'www.stall.ai': fx.sites.origin };
  t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(hostMap) } });
  await t.deps.pipeline.start();
});
afterAll(async () => {
  for (const release of stalled) release();
  await t?.close();
  await fx?.close();
});

const promote = (payload?: string, contentType = true) =>
  t.request({
    method: 'POST',
    url: '/api/v1/promote_and_onboard',
    token: t.token,
    ...(payload === undefined ? {} : { payload }),
    ...(contentType && payload !== undefined ? { headers: { 'content-type': 'application/json' } } : {}),
  });

type Result = {
  args: { limit: number; maxValidations: number };
  intake: Record<string, number>;
  validation: {
    selected: number;
    qualified: number;
    rejected: number;
    tracked: number;
    reasons: Record<string, number>;
  };
  onboarding: { handedOff: number; onboarded: number; failed: number; running: number };
};

async function finished(workflowId: string) {
  await t.deps.pipeline.engine.waitFor(workflowId);
  const res = await t.get(`/api/v1/workflows/${workflowId}`, t.token);
  expect(res.statusCode).toBe(200);
  return res.json().data as { status: string; name: string; steps: { name: string }[]; result: Result };
}

describe('POST /promote_and_onboard through the engine', () => {
  it('collapses concurrent triggers, then processes sightings into onboarded companies with reasons', async () => {
    await t.deps.db.query(
      "INSERT INTO companies (name, slug, domain) VALUES ('Tracked', 'tracked', 'tracked.io')",
    );
    const submitted = await t.request({
      method: 'POST',
      url: '/api/v1/discover',
      token: t.token,
      payload: {
        label: 'e2e',
        items: [
          { source: 'hn', key: { domain: 'https://www.acme.com/careers' } },
          { source: 'yc', key: { domain: 'acme.com' } },
          { source: 'hn', key: { domain: 'globex.io' } },
          { source: 'hn', key: { domain: 'plainsite.ai' } },
          { source: 'hn', key: { domain: 'stall.ai' } },
          { source: 'hn', key: { domain: 'github.com/someone' } },
          { source: 'hn', key: { domain: 'tracked.io' } },
          { source: 'hn', key: { id: 'no-domain' } },
        ],
      },
    });
    expect(submitted.json().data).toMatchObject({ inserted: 8, invalid: 0 });

    const [a, b, c] = await Promise.all([
      promote(JSON.stringify({ limit: 1000, maxValidations: 10 })),
      promote(JSON.stringify({ maxOnboards: 7 })),
      promote(),
    ]);
    for (const r of [a, b, c]) expect(r.statusCode).toBe(202);
    // One trigger started the run; the two others joined it and report its arguments.
    const started = [a, b, c].filter((r) => r.json().data.merged === false);
    expect(started).toHaveLength(1);
    for (const r of [a, b, c]) expect(r.json().data.args).toEqual(started[0]?.json().data.args);
    const id = a.json().data.workflowId;
    expect(b.json().data.workflowId).toBe(id);
    expect(c.json().data.workflowId).toBe(id);

    const view = await finished(id);
    expect(view.status, JSON.stringify(view)).toBe('succeeded');
    expect(view.name).toBe('promote');
    const r = view.result;
    expect(r.intake).toMatchObject({
      takenIn: 8,
      withoutDomain: 1,
      domains: 6,
      candidatesCreated: 6,
      tracked: 1,
    });
    expect(r.validation).toMatchObject({
      selected: 5,
      qualified: 2,
      rejected: 3,
      reasons: { blocklisted: 1, no_careers_page: 1, timeout: 1 },
    });
    expect(r.onboarding).toMatchObject({ handedOff: 2, onboarded: 2, failed: 0, running: 0 });
    expect(view.steps.map((s) => s.name)).toEqual(
      expect.arrayContaining(['intake', 'reconcile', 'select', 'validate:acme.com', 'onboard:globex.io']),
    );

    const list = await t.get('/api/v1/candidates?limit=100', t.token);
    const byDomain = Object.fromEntries(
      (list.json().data as { domain: string; status: string; reason: string | null }[]).map((x) => [
        x.domain,
        x,
      ]),
    );
    expect(byDomain['acme.com']).toMatchObject({
      status: 'onboarded',
      reason: null,
      siteName: 'Acme',
      companyId: expect.any(String),
      evidence: { sources: ['hn', 'yc'], sightingCount: 2 },
    });
    expect(byDomain['globex.io']).toMatchObject({ status: 'onboarded' });
    expect(byDomain['plainsite.ai']).toMatchObject({ status: 'rejected', reason: 'no_careers_page' });
    expect(byDomain['stall.ai']).toMatchObject({ status: 'rejected', reason: 'timeout' });
    expect(byDomain['github.com']).toMatchObject({ status: 'rejected', reason: 'blocklisted' });
    expect(byDomain['tracked.io']).toMatchObject({ status: 'tracked', companyId: expect.any(String) });

    const companies = await t.get('/api/v1/companies?limit=100', t.token);
    const domains = (companies.json().data as { domain: string }[]).map((x) => x.domain).sort();
    expect(domains).toEqual(expect.arrayContaining(['acme.com', 'globex.io']));
    expect(domains).not.toContain('plainsite.ai');
    const jobs = await t.get('/api/v1/jobs?company=acme&limit=50', t.token);
    expect(jobs.json().meta.total).toBe(3);

    // The run is over: the next trigger is a new run, with nothing left to do.
    const next = await promote('', true);
    expect(next.statusCode).toBe(202);
    expect(next.json().data.args).toEqual({ limit: 200, maxValidations: 20 });
    expect(next.json().data.workflowId).not.toBe(id);
    const idle = await finished(next.json().data.workflowId);
    expect(idle.result.intake.takenIn).toBe(0);
    expect(idle.result.validation.selected).toBe(0);
  });
});
