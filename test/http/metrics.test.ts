import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

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
});
