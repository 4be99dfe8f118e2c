import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCompany, addJobs } from '../catalog/fixtures.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

/**
 * The spec's policies (spec sections 3, 6, 8; docs/api.md), stated here as literal values rather than read from the
 * source, so a changed default fails a test: the tiers' rate limits and window, the page caps and default page
 * sizes, the result windows, and the seven client-facing categories. The app runs with the configuration's
 * default rate limits, on this file's database (PGlite by default, PostgreSQL with TEST_DATABASE_URL).
 */

const ANONYMOUS_PER_MINUTE = 20;
const TOKEN_PER_MINUTE = 100;
const WINDOW_MS = 60_000;

const CLIENT_FACING = [
  'fde',
  'solutions_engineer',
  'csm',
  'tam',
  'sales_engineer',
  'implementation',
  'professional_services',
];
const BROAD = [
  'engineering',
  'product',
  'design',
  'marketing',
  'data',
  'operations',
  'sales',
  'finance',
  'hr',
  'legal',
  'other',
];

let t: TestApp;
const clock = new TestClock();
/** Each test calls from its own address, so the anonymous allowance of one test never touches another's. */
let ipSeq = 0;
const nextIp = () => `198.51.100.${++ipSeq}`;

beforeAll(async () => {
  t = await startTestApp({ clock, defaultRateLimits: true });
  const acme = await addCompany(t.deps.db, { name: 'Acme', domain: 'acme.ai' }, clock.now());
  await addJobs(
    t.deps.db,
    [...CLIENT_FACING, ...BROAD].map((roleCategory, i) => ({
      companyId: acme.id,
      companyName: 'Acme',
      title: `Role ${i}`,
      roleCategory: roleCategory as never,
      postedAt: new Date(clock.now() - i * 3_600_000),
    })),
    clock.now(),
  );
  await t.deps.searchParts.replica!.refresh();
});
afterAll(async () => t?.close());

const call = (url: string, ip: string, token?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    remoteAddress: ip,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

async function freshToken(): Promise<string> {
  return (await t.deps.tokens.create(`policy-${++ipSeq}`)).secret;
}

describe('rate limits (spec section 8)', () => {
  it(`allows ${ANONYMOUS_PER_MINUTE} anonymous requests per minute per IP, then 429 until the window has passed`, async () => {
    const ip = nextIp();
    const start = clock.ms;
    for (let i = 0; i < ANONYMOUS_PER_MINUTE; i++) {
      const res = await call('/api/v1/tags', ip);
      expect(res.statusCode, `request ${i + 1}`).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('20');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(19 - i));
      expect(res.headers['x-api-tier']).toBe('anonymous');
    }
    const limited = await call('/api/v1/tags', ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(limited.json().error.message).toContain('20 requests per minute');
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['ratelimit-policy']).toBe('"anonymous";q=20;w=60');
    // One millisecond short of the window: still limited. At the window's end the allowance is back.
    clock.ms = start + WINDOW_MS - 1;
    expect((await call('/api/v1/tags', ip)).statusCode).toBe(429);
    clock.ms = start + WINDOW_MS;
    expect((await call('/api/v1/tags', ip)).statusCode).toBe(200);
  });

  it(`allows ${TOKEN_PER_MINUTE} requests per minute per token, then 429 until the window has passed`, async () => {
    const token = await freshToken();
    const start = clock.ms;
    for (let i = 0; i < TOKEN_PER_MINUTE; i++) {
      // From a new address each time: the allowance belongs to the token, not the IP.
      const res = await call('/api/v1/me', nextIp(), token);
      expect(res.statusCode, `request ${i + 1}`).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('100');
      expect(res.headers['x-api-tier']).toBe('token');
    }
    const limited = await call('/api/v1/me', nextIp(), token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toContain('100 requests per minute');
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['ratelimit-policy']).toBe('"token";q=100;w=60');
    clock.ms = start + WINDOW_MS - 1;
    expect((await call('/api/v1/me', nextIp(), token)).statusCode).toBe(429);
    clock.ms = start + WINDOW_MS;
    expect((await call('/api/v1/me', nextIp(), token)).statusCode).toBe(200);
  });
});

describe('page sizes (spec sections 4.1, 4.3 and 8)', () => {
  it.each([
    // [url, token?, the page size served]
    ['/api/v1/jobs', false, 20],
    ['/api/v1/jobs', true, 20],
    ['/api/v1/jobs?limit=50', false, 20],
    ['/api/v1/jobs?limit=50', true, 50],
    ['/api/v1/jobs?limit=100', true, 50],
    ['/api/v1/companies', false, 20],
    ['/api/v1/companies', true, 50],
    ['/api/v1/companies?limit=100', false, 20],
    ['/api/v1/companies?limit=100', true, 100],
  ] as const)('%s (token: %s) serves pages of %i', async (url, withToken, limit) => {
    const res = await call(url, nextIp(), withToken ? t.token : undefined);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().meta).toMatchObject({ page: 1, limit });
  });
});

describe('result windows (spec sections 6 and 8)', () => {
  it.each([
    // [url, token?, status]: anonymous reaches the first 100 rows, a token the first 1,000.
    ['/api/v1/jobs?limit=20&page=5', false, 200], // rows 81-100
    ['/api/v1/jobs?limit=20&page=6', false, 400], // from row 101
    ['/api/v1/companies?limit=10&page=10', false, 200], // rows 91-100
    ['/api/v1/companies?limit=10&page=11', false, 400],
    ['/api/v1/jobs?limit=50&page=20', true, 200], // rows 951-1000
    ['/api/v1/jobs?limit=50&page=21', true, 400], // from row 1001
    ['/api/v1/companies?limit=100&page=10', true, 200],
    ['/api/v1/companies?limit=100&page=11', true, 400],
  ] as const)('%s (token: %s) answers %i', async (url, withToken, status) => {
    const res = await call(url, nextIp(), withToken ? t.token : undefined);
    expect(res.statusCode, res.body).toBe(status);
    if (status === 400) {
      expect(res.json()).toEqual({
        error: { code: 'RESULT_WINDOW_EXCEEDED', message: expect.stringContaining('result window') },
      });
    } else {
      expect(Array.isArray(res.json().data)).toBe(true);
    }
  });
});

describe('role categories (spec section 3)', () => {
  it('client_facing=true returns exactly the seven client-facing categories', async () => {
    const res = await call('/api/v1/jobs?client_facing=true&limit=50', nextIp(), t.token);
    expect(res.statusCode).toBe(200);
    const categories = res.json().data.map((j: { roleCategory: string }) => j.roleCategory);
    expect([...categories].sort()).toEqual([...CLIENT_FACING].sort());
  });

  it('accepts each of the eighteen categories as role_category, and nothing else', async () => {
    for (const category of [...CLIENT_FACING, ...BROAD]) {
      const res = await call(`/api/v1/jobs?role_category=${category}`, nextIp(), t.token);
      expect(res.statusCode, category).toBe(200);
      expect(res.json().data.map((j: { roleCategory: string }) => j.roleCategory)).toEqual([category]);
    }
    const bad = await call('/api/v1/jobs?role_category=astronaut', nextIp(), t.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('BAD_REQUEST');
    expect(bad.json().error.message).toContain('role_category');
  });

  it('the hiring signals take the same categories, and refuse the same others', async () => {
    for (const path of ['/api/v1/trends', '/api/v1/signals/newly-hiring', '/api/v1/signals/time-to-close']) {
      for (const category of [...CLIENT_FACING, ...BROAD]) {
        const res = await call(`${path}?role_category=${category}`, nextIp(), t.token);
        expect(res.statusCode, `${path} ${category}`).toBe(200);
        expect(res.json().data.roleCategories).toEqual([category]);
      }
      const cf = await call(`${path}?client_facing=true`, nextIp(), t.token);
      expect([...cf.json().data.roleCategories].sort()).toEqual([...CLIENT_FACING].sort());
      const bad = await call(`${path}?role_category=astronaut`, nextIp(), t.token);
      expect(bad.statusCode, path).toBe(400);
      expect(bad.json().error.message).toContain("'role_category'");
    }
  });
});
