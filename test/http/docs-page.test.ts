import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** The /docs page loads over plain HTTP on any address and carries our name. */
describe('GET /docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('serves a page whose CSP does not upgrade its scripts to https, titled with our name', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/docs', headers: { host: '192.168.1.20:3000' } });
    if (res.statusCode === 302) res = await t.get(String(res.headers.location));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Frontline API</title>');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});
