import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

const EXPOSED =
  'X-Api-Tier, X-RateLimit-Limit, X-RateLimit-Remaining, RateLimit, RateLimit-Policy, Retry-After, ETag, X-Request-Id';

describe('CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
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
        'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
        'access-control-allow-headers': 'Authorization, Content-Type, If-None-Match, X-Request-Id',
        'access-control-max-age': '600',
        'access-control-expose-headers': EXPOSED,
        'content-length': '0',
      });
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
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
