import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

/** Rules that hold on every endpoint: CORS and request ids on every answer, auth before validation, budgets. */
describe('edges of the HTTP surface', () => {
  let t: TestApp;
  const clock = new TestClock();
  let nextIp = 1;
  /** A client address no other test used, so each test starts with full quotas. */
  const freshIp = () => `198.51.100.${nextIp++}`;

  beforeAll(async () => {
    t = await startTestApp({
      clock,
      env: { RATE_LIMIT_ANONYMOUS: '3', RATE_LIMIT_TOKEN: '1000', RATE_LIMIT_FAILED_AUTH: '4' },
    });
  });
  afterAll(async () => t.close());

  const call = (ip: string, method: string, url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: method as 'GET', url, remoteAddress: ip, headers });

  const spend = async (ip: string) => {
    for (let i = 0; i < 3; i++) expect((await call(ip, 'GET', '/api/v1/tags')).statusCode).toBe(200);
    expect((await call(ip, 'GET', '/api/v1/tags')).statusCode).toBe(429);
  };

  it('puts CORS headers and the request id on every error a browser can meet', async () => {
    const origin = { origin: 'https://app.example' };
    const answers = [
      await call(freshIp(), 'GET', '/api/v1/me', origin),
      await call(freshIp(), 'GET', '/api/v1/tags', { ...origin, authorization: 'Bearer nope' }),
      await call(freshIp(), 'GET', '/api/v1/no-such-thing', origin),
      await call(freshIp(), 'GET', '/api/v1/jobs/%E0%A4%A', origin),
      await call(freshIp(), 'GET', `/api/v1/jobs/${'a'.repeat(501)}`, origin),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([401, 403, 404, 400, 400]);
    const ip = freshIp();
    await spend(ip);
    const limited = await call(ip, 'GET', '/api/v1/tags', origin);
    expect(limited.statusCode).toBe(429);
    for (const res of [...answers, limited]) {
      expect(res.headers['access-control-allow-origin'], res.body).toBe('*');
      expect(res.headers['access-control-expose-headers']).toContain('X-Request-Id');
      expect(res.headers['x-request-id']).toMatch(/\S/);
      expect(res.json().error.code).toMatch(/^[A-Z_]+$/);
    }
  });

  it('answers a preflight 204 without counting it, also once the quota is spent', async () => {
    const ip = freshIp();
    const preflight = () =>
      call(ip, 'OPTIONS', '/api/v1/onboard', {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
      });
    for (let i = 0; i < 5; i++) expect((await preflight()).statusCode).toBe(204);
    await spend(ip);
    const res = await preflight();
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('answers a bare OPTIONS in the envelope: 405 with Allow on a route, 404 elsewhere', async () => {
    const ip = freshIp();
    const known = await call(ip, 'OPTIONS', '/api/v1/jobs');
    expect(known.statusCode).toBe(405);
    expect(known.headers.allow).toBe('GET, HEAD');
    expect(known.json().error.code).toBe('METHOD_NOT_ALLOWED');
    const unknown = await call(ip, 'OPTIONS', '/api/v1/nothing-here', { origin: 'https://app.example' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
    expect(unknown.headers['access-control-allow-origin']).toBe('*');
  });

  it('refuses an invalid token 403 even when the IP has spent its anonymous quota', async () => {
    const ip = freshIp();
    await spend(ip);
    const res = await call(ip, 'GET', '/api/v1/tags', { authorization: 'Bearer fl_wrong' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    // A valid token is not held back by the IP's anonymous quota either.
    const ok = await call(ip, 'GET', '/api/v1/tags', { authorization: `Bearer ${t.token}` });
    expect(ok.statusCode).toBe(200);
  });

  it('limits failed token attempts by their own budget, on the probes too, and names it', async () => {
    for (const url of ['/api/v1/tags', '/healthz', '/readyz']) {
      const ip = freshIp();
      for (let i = 0; i < 4; i++) {
        const res = await call(ip, 'GET', url, { authorization: `Bearer guess${i}` });
        expect(res.statusCode, url).toBe(403);
      }
      const res = await call(ip, 'GET', url, { authorization: 'Bearer guess-again' });
      expect(res.statusCode, url).toBe(429);
      expect(res.json().error.message).toContain(
        'failed-authentication limit of 4 attempts per minute per IP',
      );
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // The anonymous quota is untouched by the guesses.
      expect((await call(ip, 'GET', '/api/v1/tags')).statusCode).toBe(200);
    }
  });

  it('sends WWW-Authenticate: Bearer with a 401', async () => {
    const res = await call(freshIp(), 'GET', '/api/v1/me');
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers an anonymous caller 401 on a token-only route even when the URL is malformed', async () => {
    for (const url of ['/api/v1/workflows/%E0%A4%A', `/api/v1/workflows/${'w'.repeat(501)}`]) {
      const res = await call(freshIp(), 'GET', url);
      expect(res.statusCode, url).toBe(401);
      expect(res.headers['x-request-id']).toMatch(/\S/);
      const authed = await call(freshIp(), 'GET', url, { authorization: `Bearer ${t.token}` });
      expect(authed.statusCode, url).toBe(400);
    }
  });

  it('refuses text/plain on a JSON body endpoint with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/onboard',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'text/plain' },
      payload: '{"name":"Acme","domain":"acme.com"}',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses NUL bytes at validation, naming the parameter', async () => {
    const token = { authorization: `Bearer ${t.token}` };
    const cases: [string, string][] = [
      ['/api/v1/companies?search=a%00', "'search'"],
      ['/api/v1/jobs?q=a%00b', "'q'"],
      ['/api/v1/workflows/a%00', "'workflowId'"],
      ['/api/v1/companies/a%00b', "'id'"],
    ];
    for (const [url, name] of cases) {
      const res = await call(freshIp(), 'GET', url, token);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.message, url).toContain(name);
    }
  });
});
