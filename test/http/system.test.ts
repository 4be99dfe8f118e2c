import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('system routes', () => {
  it('answers liveness and readiness outside the rate limit', async () => {
    const live = await t.get('/healthz');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ data: { status: 'ok' } });
    expect(live.headers['x-ratelimit-limit']).toBeUndefined();
    const ready = await t.get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data).toMatchObject({ status: 'ready', database: 'ok', pendingMigrations: [] });
  });

  it('says whether the warm-up is done, and refuses warm readiness until it is', async () => {
    // A test app never runs serve's start, so nothing settles its warm-up but the test.
    const plain = await t.get('/readyz');
    expect(plain.statusCode).toBe(200);
    expect(plain.json().data).toMatchObject({ status: 'ready', warm: false });
    const cold = await t.get('/readyz?warm=true');
    expect(cold.statusCode).toBe(503);
    expect(cold.json()).toEqual({
      data: { status: 'not_ready', database: 'ok', pendingMigrations: [], warm: false },
    });
    expect((await t.get('/readyz?warm=false')).statusCode).toBe(200);
    const bad = await t.get('/readyz?warm=soon');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain("'warm'");
    t.deps.warmup.settle();
    const warm = await t.get('/readyz?warm=true');
    expect(warm.statusCode).toBe(200);
    expect(warm.json().data).toMatchObject({ status: 'ready', warm: true });
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.get('/api/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/api/v1/me');
    const me = doc.paths['/api/v1/me'].get;
    expect(me.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(me.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '429', '500']));
    expect(me.responses['200'].headers['X-Api-Tier']).toEqual({ $ref: '#/components/headers/X-Api-Tier' });
    expect(me.responses['429'].headers['Retry-After']).toBeDefined();
    expect(doc.components.headers['X-RateLimit-Remaining']).toBeDefined();
  });

  it('serves the interactive reference at /docs without touching the rate limit', async () => {
    const res = await t.get('/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('renders unknown routes and wrong methods in the envelope', async () => {
    const missing = await t.get('/api/v1/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No route for GET /api/v1/nope' },
    });
    expect(missing.headers['x-api-tier']).toBe('anonymous');
    const wrong = await t.request({ method: 'DELETE', url: '/api/v1/me', token: t.token });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toContain('GET');
    expect(wrong.json().error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers URLs the router rejects in the envelope, with the usual headers', async () => {
    const long = await t.get(`/api/v1/companies/${'x'.repeat(600)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({
      error: { code: 'BAD_REQUEST', message: 'A path parameter is too long (at most 500 characters)' },
    });
    expect(long.headers['x-api-tier']).toBe('anonymous');
    expect(long.headers['x-ratelimit-limit']).toBeDefined();
    const encoding = await t.get('/api/v1/companies/%E0%A4%A');
    expect(encoding.statusCode).toBe(400);
    expect(encoding.json().error.code).toBe('BAD_REQUEST');
  });

  it('tells 401 from 403 and never downgrades a bad token', async () => {
    const anon = await t.get('/api/v1/me');
    expect(anon.statusCode).toBe(401);
    expect(anon.json().error.code).toBe('UNAUTHORIZED');
    const good = await t.get('/api/v1/me', t.token);
    expect(good.statusCode).toBe(200);
    expect(good.headers['x-api-tier']).toBe('token');
    expect(good.json().data).toMatchObject({ tier: 'token', tokenName: 'test' });
    const bad = await t.get('/healthz', 'fl_not-a-real-token-at-all');
    expect(bad.statusCode).toBe(403);
    const scheme = await t.request({
      method: 'GET',
      url: '/api/v1/openapi.json',
      headers: { authorization: 'Basic abc' },
    });
    expect(scheme.statusCode).toBe(403);
    expect(scheme.json().error.code).toBe('FORBIDDEN');
  });
});
