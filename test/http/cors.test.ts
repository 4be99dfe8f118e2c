import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

const EXPOSED =
  'X-Api-Tier, X-RateLimit-Limit, X-RateLimit-Remaining, RateLimit, RateLimit-Policy, Retry-After, ETag, X-Request-Id';

describe('CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    // hooks.test stands for a webhook receiver on this machine (never contacted: no watch is delivered here).
    t = await startTestApp({ env: { OUTBOUND_HOST_MAP: 'hooks.test=http://127.0.0.1:9' } });
  });
  afterAll(async () => t.close());

  it('opens every response to any origin, without credentials, exposing the API headers', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/v1/tags',
      headers: { origin: 'https://a.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('answers a preflight with 204 and the allowed methods and headers, outside the rate limit', async () => {
    for (const url of ['/api/v1/onboard', '/no/such/path']) {
      const res = await t.request({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'https://a.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(res.statusCode, url).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-headers': 'Authorization, Content-Type, If-None-Match, X-Request-Id',
        'access-control-max-age': '600',
        'access-control-expose-headers': EXPOSED,
        'content-length': '0',
      });
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    }
  });

  it('allows in a preflight every method the API has: a browser app can delete a watch', async () => {
    const doc = (await t.get('/api/v1/openapi.json')).json() as { paths: Record<string, object> };
    const used = new Set(
      Object.values(doc.paths).flatMap((ops) => Object.keys(ops).map((m) => m.toUpperCase())),
    );
    expect(used).toContain('DELETE');
    const res = await t.request({
      method: 'OPTIONS',
      url: '/api/v1/watches/00000000-0000-4000-8000-000000000000',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'DELETE' },
    });
    expect(res.statusCode).toBe(204);
    const allowed = String(res.headers['access-control-allow-methods']).split(', ');
    for (const method of [...used, 'HEAD', 'OPTIONS']) expect(allowed, method).toContain(method);
    // And the call it precedes works from any origin, its answer readable (the CORS headers on it).
    const body = { filters: { client_facing: true }, url: 'https://hooks.test/frontline' };
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/watches',
      token: t.token,
      payload: body,
    });
    expect(created.statusCode, created.body).toBe(201);
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/v1/watches/${created.json().data.id}`,
      token: t.token,
      headers: { origin: 'https://a.example' },
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data.deleted).toBe(true);
    expect(deleted.headers['access-control-allow-origin']).toBe('*');
  });

  it('refuses a webhook to a local address saying how to test one locally', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost:8080/hook']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/watches',
        token: t.token,
        payload: { url },
      });
      expect(res.statusCode, url).toBe(400);
      const message = res.json().error.message as string;
      expect(message).toMatch(/^Invalid body field 'url': .*not a public/);
      expect(message).toContain('OUTBOUND_HOST_MAP=hooks.test=http://127.0.0.1:8080');
    }
  });

  it('answers an OPTIONS request that is not a preflight in the envelope (405 with Allow)', async () => {
    for (const headers of [{}, { origin: 'https://a.example' }]) {
      const res = await t.request({ method: 'OPTIONS', url: '/api/v1/jobs', headers });
      expect(res.statusCode).toBe(405);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.json().error.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('keeps the preflight route out of the OpenAPI document and out of Allow', async () => {
    const doc = (await t.get('/api/v1/openapi.json')).json() as { paths: Record<string, object> };
    expect(Object.keys(doc.paths).some((p) => p === '*' || p === '/*')).toBe(false);
    const wrong = await t.request({ method: 'DELETE', url: '/api/v1/jobs' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD');
  });
});
