import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** GET / is where the quick start's address lands: a page for a person, the entry points for a program. */
describe('GET /', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('gives a browser the home page, linking the jobs, the companies, the reference and the OpenAPI document', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toMatch(/accept/i);
    expect(res.body).toMatch(/<title>Frontline<\/title>/);
    for (const href of ['/jobs', '/companies', '/docs', '/api/v1/openapi.json']) {
      expect(res.body).toContain(`<a href="${href}">`);
    }
    // Every link on the page answers.
    for (const [, href] of res.body.matchAll(/<a [^>]*href="([^"]+)"/g)) {
      const linked = await t.get(href!.replaceAll('&amp;', '&').replace(/^https?:\/\/[^/]+/, ''));
      expect([200, 302], href).toContain(linked.statusCode);
    }
  });

  it('gives a client asking for JSON the entry points in the envelope', async () => {
    const res = await t.request({ method: 'GET', url: '/', headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json() as { data: { name: string; links: { rel: string; href: string }[] } };
    expect(body.data.name).toBe('Frontline');
    const hrefs = Object.fromEntries(body.data.links.map((l) => [l.rel, l.href]));
    expect(hrefs).toMatchObject({ docs: '/docs', jobs: '/api/v1/jobs', openapi: '/api/v1/openapi.json' });
  });

  it('answers a client with no preference (curl, or no Accept at all) in JSON, and HEAD with headers only', async () => {
    for (const accept of ['*/*', undefined]) {
      const res = await t.request({ method: 'GET', url: '/', headers: accept ? { accept } : {} });
      expect(res.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(res.json().data.name).toBe('Frontline');
    }
    const head = await t.request({ method: 'HEAD', url: '/', headers: { accept: 'text/html' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(head.body).toBe('');
  });
});
