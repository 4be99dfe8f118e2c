import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companySite,
  type Fixture,
  generatePostings,
  hostMapEnv,
  startFixture,
} from '../pipeline/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { serverUrl } from '../support/db.js';

/** One sample of the Prometheus text format: `name{a="x",b="y"} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1] as string] = l[2] as string;
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and these labels (others may be present), or undefined. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

describe('GET /metrics', () => {
  let open: TestApp;
  let secured: TestApp;
  beforeAll(async () => {
    [open, secured] = await Promise.all([
      startTestApp(),
      startTestApp({ env: { METRICS_TOKEN: 'scrape-secret' } }),
    ]);
  });
  afterAll(async () => {
    await open.close();
    await secured.close();
  });

  it('serves Prometheus text to loopback scrapers when no METRICS_TOKEN is set', async () => {
    await open.get('/api/v1/openapi.json');
    await open.get('/api/v1/nope');
    await open.get('/api/v1/jobs?search=engineer');
    const res = await open.get('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain(
      'frontline_http_requests_total{route="/api/v1/openapi.json",method="GET",status="200"} 1',
    );
    expect(res.body).toContain(
      'frontline_http_requests_total{route="unmatched",method="GET",status="404"} 1',
    );
    expect(res.body).toContain('frontline_rate_limit_decisions_total{tier="anonymous",outcome="allowed"}');
    expect(res.body).toContain('frontline_search_duration_seconds_count{kind="jobs",retriever="hybrid"} 1');
    expect(res.body).toContain('frontline_response_cache_total{outcome="miss"}');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    const remote = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
    expect(remote.json().error.code).toBe('FORBIDDEN');
  });

  it('with TRUST_PROXY, judges the forwarded client: a public one is refused without METRICS_TOKEN', async () => {
    const proxied = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const scrape = (forwarded?: string) =>
        proxied.app.inject({
          method: 'GET',
          url: '/metrics',
          remoteAddress: '127.0.0.1',
          headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
        });
      const outside = await scrape('203.0.113.9');
      expect(outside.statusCode).toBe(403);
      expect(outside.json().error.code).toBe('FORBIDDEN');
      expect((await scrape('127.0.0.1')).statusCode).toBe(200);
      expect((await scrape()).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('requires the separate metrics token when one is configured', async () => {
    const missing = await secured.get('/metrics');
    expect(missing.statusCode).toBe(401);
    const apiToken = await secured.get('/metrics', secured.token);
    expect(apiToken.statusCode).toBe(403);
    const ok = await secured.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      headers: { authorization: 'Bearer scrape-secret' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('frontline_process_cpu_seconds_total');
  });

  it('reports the database pool in server mode, and nothing invented on the embedded database', async () => {
    const samples = parseSamples((await open.get('/metrics')).body);
    const total = value(samples, 'frontline_db_pool_connections', { state: 'total' });
    if (serverUrl()) {
      expect(total).toBeGreaterThanOrEqual(1);
      // Idle connections are among the pool's: an integer no larger than its total.
      const idle = value(samples, 'frontline_db_pool_connections', { state: 'idle' });
      expect(Number.isInteger(idle)).toBe(true);
      expect(idle).toBeLessThanOrEqual(total ?? 0);
      expect(value(samples, 'frontline_db_pool_connections', { state: 'waiting' })).toBe(0);
    } else {
      expect(total).toBeUndefined();
    }
  });
});

/**
 * Workflow and embedding metrics, produced by real runs: two onboardings through HTTP against fake sites and a
 * fake ATS (one board healthy, one answering a malformed payload), then a third that finds every step done.
 */
describe('GET /metrics: workflows, steps and embeddings', () => {
  let t: TestApp;
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({
      greenhouse: { healthy: generatePostings(3, 'h'), broken: generatePostings(2, 'b') },
      sites: {
        'healthy.com': companySite('Healthy', ['https://boards.greenhouse.io/healthy']),
        'broken.com': companySite('Broken', ['https://boards.greenhouse.io/broken']),
      },
    });
    t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(fx.hostMap) } });
    await t.deps.pipeline.start();
  });
  afterAll(async () => {
    await t?.close();
    await fx?.close();
  });

  const onboard = async (name: string, domain: string): Promise<string> => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name, domain },
      token: t.token,
    });
    expect(res.statusCode).toBe(202);
    const id = res.json().data.workflowId as string;
    await t.deps.pipeline.engine.waitFor(id);
    return (await t.get(`/api/v1/workflows/${id}`, t.token)).json().data.status;
  };

  it('counts runs by workflow and status, and times every step attempt by step family', async () => {
    // Discovery counts the broken board through the listing without content; only the full scrape is garbage.
    fx.ats.setBoard('greenhouse', 'broken', generatePostings(2, 'b'));
    const statuses = await Promise.all([onboard('Healthy', 'healthy.com'), onboard('Broken', 'broken.com')]);
    expect(statuses).toEqual(['succeeded', 'succeeded']);
    fx.ats.setRaw('greenhouse', 'broken', '{"jobs": "not a list"}');
    expect(await onboard('Broken', 'broken.com')).toBe('succeeded'); // every step skipped: scraped already
    const forced = await t.request({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name: 'Broken', domain: 'broken.com', force: true },
      token: t.token,
    });
    const view = await t.deps.pipeline.engine.waitFor(forced.json().data.workflowId);
    expect(view.status).toBe('failed');

    const res = await t.get('/metrics');
    expect(res.statusCode).toBe(200);
    const s = parseSamples(res.body);
    const runs = (status: string) =>
      value(s, 'frontline_workflow_runs_total', { workflow: 'onboard', status });
    expect(runs('succeeded')).toBe(3);
    expect(runs('failed')).toBe(1);
    expect(value(s, 'frontline_workflow_runs_in_progress', { workflow: 'onboard' })).toBe(0);

    const steps = (step: string, status: string) =>
      value(s, 'frontline_workflow_step_duration_seconds_count', { workflow: 'onboard', step, status });
    // Four runs each create or update the company row.
    expect(steps('company', 'succeeded')).toBe(4);
    // Two first onboardings and the forced one enrich; the third run finds the marker set and skips.
    expect(steps('enrich', 'succeeded')).toBe(3);
    expect(steps('enrich', 'skipped')).toBe(1);
    expect(steps('load-boards', 'skipped')).toBe(1);
    // scrape:greenhouse/healthy and scrape:greenhouse/broken share one label value; the malformed payload is
    // not retryable, so the failed scrape is one attempt.
    expect(steps('scrape', 'succeeded')).toBe(2);
    expect(steps('scrape', 'failed')).toBe(1);
    expect(steps('finalize', 'succeeded')).toBe(3);
    expect(
      s.some((x) => x.name.startsWith('frontline_workflow_step') && /:|\//.test(x.labels.step ?? '')),
    ).toBe(false);
    const scrapeSeconds = value(s, 'frontline_workflow_step_duration_seconds_sum', {
      workflow: 'onboard',
      step: 'scrape',
      status: 'succeeded',
    });
    expect(scrapeSeconds).toBeGreaterThan(0);
  });

  it('times embeddings and searches', async () => {
    const before = parseSamples((await t.get('/metrics')).body);
    const calls = (s: Sample[]) =>
      value(s, 'frontline_embedding_duration_seconds_count', { provider: 'static' }) ?? 0;
    const texts = (s: Sample[]) => value(s, 'frontline_embedded_texts_total', { provider: 'static' }) ?? 0;
    // The onboardings embedded two companies and five jobs.
    expect(texts(before)).toBeGreaterThanOrEqual(7);
    expect(calls(before)).toBeGreaterThanOrEqual(2);
    const search = await t.get('/api/v1/jobs?search=forward%20deployed%20engineer');
    expect(search.statusCode).toBe(200);
    const after = parseSamples((await t.get('/metrics')).body);
    // The query is embedded once: one more call, one more text.
    expect(calls(after)).toBe(calls(before) + 1);
    expect(texts(after)).toBe(texts(before) + 1);
    expect(
      value(after, 'frontline_search_duration_seconds_count', { kind: 'jobs', retriever: 'hybrid' }),
    ).toBe(1);
  });
});
