import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The spec's access rules (spec section 7; docs/api.md) over every token-only route, in one table: anonymous ->
 * 401 UNAUTHORIZED, a presented token that is not valid -> 403 FORBIDDEN (never downgraded to anonymous), a valid
 * token -> neither. The routes are listed literally here and must match the operations the OpenAPI document
 * declares as bearer-only, so a route that gains or loses its token requirement fails this file.
 */

const TOKEN_ONLY = [
  'GET /api/v1/me',
  'POST /api/v1/onboard',
  'POST /api/v1/enrich',
  'POST /api/v1/promote_and_onboard',
  'POST /api/v1/discover',
  'GET /api/v1/candidates',
  'POST /api/v1/deep-research',
  'GET /api/v1/deep-research/{domain}',
  'GET /api/v1/deep-research/{domain}/runs',
  'GET /api/v1/workflows/{workflowId}',
  'POST /api/v1/watches',
  'GET /api/v1/watches',
  'GET /api/v1/watches/{id}',
  'DELETE /api/v1/watches/{id}',
  'GET /api/v1/watches/{id}/deliveries',
  'POST /api/v1/watches/{id}/test',
];

/** Values for path parameters: well-formed, so that what answers is the access rule, not validation. */
const PARAMS: Record<string, string> = {
  domain: 'acme.ai',
  workflowId: '00000000-0000-4000-8000-000000000000',
  id: '00000000-0000-4000-8000-000000000001',
};

/** A body each POST route rejects as invalid with a valid token: access is checked, and no work is started. */
const INVALID_BODY = { thisFieldIsNotInTheSchema: true };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const request = (route: string, authorization?: string) => {
  const [method, path = ''] = route.split(' ');
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name] ?? name);
  return t.app.inject({
    method: method as 'GET' | 'POST' | 'DELETE',
    url,
    headers: authorization ? { authorization } : {},
    ...(method === 'POST' ? { payload: INVALID_BODY } : {}),
  });
};

describe('token-only routes', () => {
  it('are exactly the operations the OpenAPI document declares bearer-only', async () => {
    const doc = (await t.get('/api/v1/openapi.json')).json() as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const declared: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        // HEAD operations mirror their GETs.
        if (method === 'head') continue;
        if (JSON.stringify(op.security) === JSON.stringify([{ bearer: [] }])) {
          declared.push(`${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.sort()).toEqual([...TOKEN_ONLY].sort());
  });

  describe.each(TOKEN_ONLY)('%s', (route) => {
    it('answers 401 UNAUTHORIZED to an anonymous caller', async () => {
      const res = await request(route);
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    });

    it('answers 403 FORBIDDEN to an unknown token and to a malformed header', async () => {
      for (const header of ['Bearer fl_not_a_real_token_0123456789abcdef', 'Basic dXNlcjpwYXNz']) {
        const res = await request(route, header);
        expect(res.statusCode, `${header}: ${res.body}`).toBe(403);
        expect(res.json()).toEqual({ error: { code: 'FORBIDDEN', message: expect.any(String) } });
      }
    });

    it('lets a valid token through (neither 401 nor 403)', async () => {
      const res = await request(route, `Bearer ${t.token}`);
      expect([401, 403], res.body).not.toContain(res.statusCode);
      expect(res.headers['x-api-tier']).toBe('token');
    });
  });
});

describe('public routes', () => {
  it.each([
    '/api/v1/jobs',
    '/api/v1/companies',
    '/api/v1/tags',
    '/api/v1/stats',
    '/api/v1/trends',
    '/api/v1/signals/newly-hiring?client_facing=true',
    '/api/v1/signals/time-to-close',
  ])('%s answers anonymous callers, and 403 to a token that is not valid (never downgraded)', async (url) => {
    expect((await t.get(url)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: 'Bearer fl_not_a_real_token_0123456789abcdef' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
  });
});
