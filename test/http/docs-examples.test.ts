import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The API reference's "Try it out" pre-fills every parameter that has an `example`. On the sample catalog, each
 * public read called with all of its documented examples at once must answer 200 with results, so a first try
 * from /docs never shows an empty list, a 400 or a 404.
 */

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
}
interface Operation {
  operationId: string;
  security?: unknown[];
  parameters?: Parameter[];
}

let t: TestApp;
let paths: Record<string, Record<string, Operation>>;

beforeAll(async () => {
  t = await startTestApp({ env: { SAMPLE_DATA: '1' } });
  paths = (await t.get('/api/v1/openapi.json')).json().paths;
});
afterAll(async () => {
  await t?.close();
});

/** The request "Try it out" sends with the examples pre-filled. */
function exampleUrl(path: string, op: Operation): string {
  let url = path;
  const query = new URLSearchParams();
  for (const p of op.parameters ?? []) {
    if (p.example === undefined) continue;
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
    else if (p.in === 'query') query.set(p.name, String(p.example));
  }
  expect(url, `${op.operationId}: a path parameter without an example`).not.toMatch(/\{/);
  const qs = query.toString();
  return qs ? `${url}?${qs}` : url;
}

describe('the API reference', () => {
  it('marks public operations as needing no credentials and token operations as bearer', () => {
    const security = (path: string, method: string) => paths[path]?.[method]?.security;
    expect(security('/api/v1/jobs', 'get')).toEqual([]);
    expect(security('/api/v1/companies/{id}', 'get')).toEqual([]);
    expect(security('/api/v1/onboard', 'post')).toEqual([{ bearer: [] }]);
    for (const [path, ops] of Object.entries(paths))
      for (const [method, op] of Object.entries(ops)) expect(op.security, `${method} ${path}`).toBeDefined();
  });

  it('pre-fills examples with which every public read returns results on the sample catalog', async () => {
    const called: string[] = [];
    for (const [path, ops] of Object.entries(paths)) {
      const op = ops.get;
      if (!op || JSON.stringify(op.security) !== '[]') continue;
      const url = exampleUrl(path, op);
      const res = await t.request({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
      const type = String(res.headers['content-type']);
      if (type.includes('atom')) {
        expect(res.body, url).toContain('<entry>');
      } else if (type.startsWith('image/svg+xml')) {
        expect(res.body, url).toMatch(/<svg[^>]*>[\s\S]*<\/svg>\s*$/);
      } else {
        const data = res.json().data;
        if (Array.isArray(data)) expect(data.length, url).toBeGreaterThan(0);
      }
      called.push(op.operationId);
    }
    // The catalog's reads with parameters are among them, each with examples filled in.
    expect(called).toEqual(
      expect.arrayContaining(['listJobs', 'getJob', 'listCompanies', 'getCompany', 'listTags', 'getStats']),
    );
    for (const [path, id] of [
      ['/api/v1/jobs', 'listJobs'],
      ['/api/v1/companies', 'listCompanies'],
    ] as const) {
      const filled = (paths[path]?.get?.parameters ?? []).filter((p) => p.example !== undefined);
      expect(filled.length, id).toBeGreaterThanOrEqual(5);
    }
  });
});
