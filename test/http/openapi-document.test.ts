import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** The served OpenAPI document declares what the app answers; openapi-contract.test.ts calls each operation. */

interface Response {
  headers?: Record<string, { $ref?: string }>;
  content?: Record<string, { schema?: unknown }>;
}
interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  requestBody?: { required?: boolean; content: Record<string, unknown> };
  responses: Record<string, Response>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { description?: string }> };
}

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.get('/api/v1/openapi.json')).json();
});
afterAll(async () => t.close());

const ops = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
const op = (path: string, method: string): Operation => {
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
};
const statuses = (o: Operation) => Object.keys(o.responses);

describe('the OpenAPI document', () => {
  it('names every operation with a unique camelCase operationId', () => {
    const ids = ops().map(({ op }) => op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(op('/api/v1/jobs', 'get').operationId).toBe('listJobs');
    expect(op('/api/v1/jobs', 'head').operationId).toBe('headListJobs');
  });

  it('names its shared schemas in components', () => {
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['ErrorEnvelope', 'PaginationMeta']);
    expect(JSON.stringify(doc)).not.toMatch(/def-\d/);
  });

  it('declares the statuses the shared machinery answers, on every operation they apply to', () => {
    for (const { path, method, op: o } of ops()) {
      const where = `${method} ${path}`;
      expect(statuses(o), where).toEqual(expect.arrayContaining(['400', '403', '405', '429', '500', '503']));
      if (method === 'get' || method === 'head') expect(statuses(o), where).toContain('304');
      if (o.requestBody) expect(statuses(o), where).toEqual(expect.arrayContaining(['413', '415']));
      if (path.includes('{')) expect(statuses(o), where).toContain('404');
    }
    for (const probe of ['/healthz', '/readyz', '/metrics'])
      expect(statuses(op(probe, 'get'))).toContain('403');
    expect(statuses(op('/api/v1/jobs/{id}', 'get'))).toContain('400');
    expect(op('/api/v1/jobs', 'get').responses['304']?.content).toBeUndefined();
  });

  it('declares HEAD beside every GET, without bodies', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!methods.get) continue;
      const head = op(path, 'head');
      for (const r of Object.values(head.responses)) expect(r.content, path).toBeUndefined();
    }
  });

  it('declares media types: JSON everywhere, text/plain for /metrics', () => {
    expect(Object.keys(op('/metrics', 'get').responses['200']?.content ?? {})).toEqual(['text/plain']);
    expect(Object.keys(op('/api/v1/jobs', 'get').responses['200']?.content ?? {})).toEqual([
      'application/json',
    ]);
    expect(Object.keys(op('/api/v1/openapi.json', 'get').responses['200']?.content ?? {})).toEqual([
      'application/json',
    ]);
    expect(Object.keys(op('/api/v1/onboard', 'post').requestBody?.content ?? {})).toEqual([
      'application/json',
    ]);
  });

  it('marks the optional body of /promote_and_onboard as optional, and the others as required', () => {
    expect(op('/api/v1/promote_and_onboard', 'post').requestBody?.required).toBe(false);
    expect(op('/api/v1/onboard', 'post').requestBody?.required).toBe(true);
  });

  it('declares the security of /metrics: METRICS_TOKEN bearer, or none from loopback', () => {
    expect(op('/metrics', 'get').security).toEqual([{ metricsToken: [] }, {}]);
    expect(doc.components.securitySchemes.metricsToken?.description).toMatch(/METRICS_TOKEN.*loopback/s);
    expect(op('/api/v1/me', 'get').security).toEqual([{ bearer: [] }]);
  });

  it('declares the headers each response carries', () => {
    const headers = (o: Operation, status: string) => Object.keys(o.responses[status]?.headers ?? {});
    const jobs = op('/api/v1/jobs', 'get');
    expect(headers(jobs, '200')).toEqual(
      expect.arrayContaining([
        'X-Request-Id',
        'X-Api-Tier',
        'X-RateLimit-Limit',
        'RateLimit',
        'ETag',
        'X-Cache',
      ]),
    );
    expect(headers(jobs, '429')).toContain('Retry-After');
    expect(headers(jobs, '405')).toContain('Allow');
    expect(headers(op('/healthz', 'get'), '200')).not.toContain('X-RateLimit-Limit');
    expect(headers(op('/healthz', 'get'), '200')).toContain('X-Api-Tier');
  });
});

describe('unknown query parameters', () => {
  it('are a 400 naming the parameter on every operation, not only the lists', async () => {
    for (const { path, method, op: o } of ops()) {
      const url = `${path.replace(/\{[^}]+\}/g, 'x')}?unexpected_param=1`;
      const res = await t.request({
        method: method.toUpperCase() as 'GET',
        url,
        token: o.security?.some((s) => 'bearer' in s) ? t.token : null,
        ...(o.requestBody ? { payload: {} } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      if (method === 'head') continue;
      expect(res.json().error, `${method} ${url}`).toEqual({
        code: 'BAD_REQUEST',
        message: expect.stringContaining("Unknown query parameter 'unexpected_param'"),
      });
    }
  });

  it('say which parameters the operation takes', async () => {
    const res = await t.get('/api/v1/tags?sort=name');
    expect(res.json().error.message).toBe("Unknown query parameter 'sort'; it takes none");
    const jobs = await t.get('/api/v1/jobs?compnay=acme');
    expect(jobs.json().error.message).toMatch(
      /^Unknown query parameter 'compnay'; expected one of: .*company/,
    );
  });

  it('refuse numeric parameters that are not finite numerals, naming them', async () => {
    for (const [url, name] of [
      ['/api/v1/jobs?limit=Infinity', 'limit'],
      ['/api/v1/jobs?page=-Infinity', 'page'],
      ['/api/v1/companies?limit=1e400', 'limit'],
      ['/api/v1/signals/newly-hiring?client_facing=true&days=Infinity', 'days'],
      ['/api/v1/jobs?salary_min=0x10', 'salary_min'],
    ] as const) {
      const res = await t.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.message, url).toBe(
        `Invalid query parameter '${name}': must be a finite number`,
      );
    }
    expect((await t.get('/api/v1/jobs?limit=5&salary_min=1e5')).statusCode).toBe(200);
  });

  it('leave a CORS preflight alone', async () => {
    const res = await t.request({
      method: 'OPTIONS',
      url: '/api/v1/jobs?anything=1',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    expect(res.statusCode).toBeLessThan(300);
  });
});
