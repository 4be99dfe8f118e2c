import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The guard's rules through HTTP, with literal expectations (spec sections 7 and 8): which Authorization headers
 * carry a token, 401 for an anonymous caller of a token-only route and 403 for a presented credential that is not
 * valid (each with its message, served as anonymous), the tiers' budgets named in 429 messages for any window, the
 * page budget of the web site for every caller, the result windows' messages and the page caps of the default
 * resource.
 */

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const MALFORMED = 'Malformed Authorization header; expected "Authorization: Bearer <token>"';
const INVALID = 'The presented token is not valid (unknown or revoked)';

let ipSeq = 0;
const nextIp = () => `192.0.2.${++ipSeq}`;

const call = (t: TestApp, url: string, ip: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, remoteAddress: ip, headers });

describe('Authorization headers (a 90 s window, 3 failed attempts per IP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_WINDOW_MS: '90000', RATE_LIMIT_FAILED_AUTH: '3' } });
  });
  afterAll(async () => t?.close());

  it('takes the scheme in any case and spaces around the token', async () => {
    for (const header of [
      `Bearer ${t.token}`,
      `bearer ${t.token}`,
      `BEARER   ${t.token}`,
      `Bearer ${t.token}   `,
    ]) {
      const res = await call(t, '/api/v1/me', nextIp(), { authorization: header });
      expect(res.statusCode, header).toBe(200);
      expect(res.headers['x-api-tier'], header).toBe('token');
    }
  });

  it('refuses any other form as malformed: 403, served as anonymous', async () => {
    for (const header of [
      'Bearer',
      'Bearer ',
      `Token ${t.token}`,
      `xBearer ${t.token}`,
      `Bearer${t.token}`,
      `Bearer ${t.token} extra`,
      `Bearer ${t.token}\u00e9`,
      `Bearer ${t.token.slice(0, 4)} ${t.token.slice(4)}`,
    ]) {
      const res = await call(t, '/api/v1/me', nextIp(), { authorization: header });
      expect(res.statusCode, header).toBe(403);
      expect(res.json(), header).toEqual({ error: { code: 'FORBIDDEN', message: MALFORMED } });
      expect(res.headers['x-api-tier'], header).toBe('anonymous');
    }
  });

  it('refuses an unknown token with 403 on public and token-only routes alike', async () => {
    for (const url of ['/api/v1/me', '/api/v1/tags']) {
      const res = await call(t, url, nextIp(), { authorization: 'Bearer fl_not_a_token' });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ error: { code: 'FORBIDDEN', message: INVALID } });
      expect(res.headers['x-api-tier']).toBe('anonymous');
    }
  });

  it('answers an anonymous caller of a token-only route 401, and serves it public routes', async () => {
    const ip = nextIp();
    const res = await call(t, '/api/v1/me', ip);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'This endpoint requires a bearer token' },
    });
    expect(res.headers['x-api-tier']).toBe('anonymous');
    const pub = await call(t, '/api/v1/tags', ip);
    expect(pub.statusCode).toBe(200);
    expect(pub.headers['x-api-tier']).toBe('anonymous');
  });

  it('limits failed attempts per IP, naming a window of seconds', async () => {
    const ip = nextIp();
    for (let i = 0; i < 3; i++) {
      expect((await call(t, '/api/v1/tags', ip, { authorization: 'Bearer fl_guess' })).statusCode).toBe(403);
    }
    const limited = await call(t, '/api/v1/tags', ip, { authorization: 'Bearer fl_guess' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe(
      'Rate limit exceeded: failed-authentication limit of 3 attempts per 90 seconds per IP',
    );
    expect(limited.headers['retry-after']).toBe('90');
    // A malformed header counts against the same budget.
    expect((await call(t, '/api/v1/tags', ip, { authorization: 'Basic abc' })).statusCode).toBe(429);
    // Another address has its own.
    expect((await call(t, '/api/v1/tags', nextIp(), { authorization: 'Basic abc' })).statusCode).toBe(403);
  });
});

describe('budgets over a 2-minute window', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        RATE_LIMIT_WINDOW_MS: '120000',
        RATE_LIMIT_ANONYMOUS: '1',
        RATE_LIMIT_TOKEN: '2',
        RATE_LIMIT_FAILED_AUTH: '1',
        RATE_LIMIT_PAGES: '1',
      },
    });
  });
  afterAll(async () => t?.close());

  it('names each budget and its window in the 429', async () => {
    const ip = nextIp();
    const first = await call(t, '/api/v1/tags', ip);
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-policy']).toBe('"anonymous";q=1;w=120');
    const anonymous = await call(t, '/api/v1/tags', ip);
    expect(anonymous.statusCode).toBe(429);
    expect(anonymous.json().error.message).toBe(
      'Rate limit exceeded: anonymous limit of 1 requests per 2 minutes per IP',
    );
    expect(anonymous.headers['retry-after']).toBe('120');

    const token = (await t.deps.tokens.create('two-minutes')).secret;
    const auth = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 2; i++) expect((await call(t, '/api/v1/me', nextIp(), auth)).statusCode).toBe(200);
    const tokenLimited = await call(t, '/api/v1/me', nextIp(), auth);
    expect(tokenLimited.statusCode).toBe(429);
    expect(tokenLimited.json().error.message).toBe(
      'Rate limit exceeded: token limit of 2 requests per 2 minutes per token',
    );
    expect(tokenLimited.headers['ratelimit-policy']).toBe('"token";q=2;w=120');
    // Each token has its own allowance.
    const other = (await t.deps.tokens.create('two-minutes-other')).secret;
    expect((await call(t, '/api/v1/me', nextIp(), { authorization: `Bearer ${other}` })).statusCode).toBe(
      200,
    );

    const guessIp = nextIp();
    expect((await call(t, '/api/v1/tags', guessIp, { authorization: 'Bearer fl_guess' })).statusCode).toBe(
      403,
    );
    const guessLimited = await call(t, '/api/v1/tags', guessIp, { authorization: 'Bearer fl_guess' });
    expect(guessLimited.json().error.message).toBe(
      'Rate limit exceeded: failed-authentication limit of 1 attempts per 2 minutes per IP',
    );
  });

  it('counts web pages against the IP page budget, whoever calls, apart from the API budget', async () => {
    const ip = nextIp();
    const page = await call(t, '/jobs', ip, BROWSER);
    expect(page.statusCode).toBe(200);
    expect(page.headers['ratelimit-policy']).toBe('"pages";q=1;w=120');
    const over = await call(t, '/companies', ip, BROWSER);
    expect(over.statusCode).toBe(429);
    expect(over.body).toContain('page limit of 1 pages per 2 minutes per IP');
    // The API budget of the same address is untouched by its pages.
    expect((await call(t, '/api/v1/tags', ip)).statusCode).toBe(200);

    // A token does not lift the page budget: a page counts against its IP's.
    const token = (await t.deps.tokens.create('pages')).secret;
    const auth = { ...BROWSER, authorization: `Bearer ${token}` };
    const tokenIp = nextIp();
    expect((await call(t, '/jobs', tokenIp, auth)).statusCode).toBe(200);
    expect((await call(t, '/jobs', tokenIp, auth)).statusCode).toBe(429);
  });
});

describe('pages and result windows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('explains how far each tier may page', async () => {
    const anonymous = await call(t, '/api/v1/jobs?limit=20&page=6', nextIp());
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.json().error).toEqual({
      code: 'RESULT_WINDOW_EXCEEDED',
      message:
        'page 6 with limit 20 starts at row 101, past the anonymous result window of the first 100 rows; ' +
        'narrow the query with filters or use a token',
    });
    const token = await call(t, '/api/v1/jobs?limit=50&page=21', nextIp(), {
      authorization: `Bearer ${t.token}`,
    });
    expect(token.statusCode).toBe(400);
    expect(token.json().error).toEqual({
      code: 'RESULT_WINDOW_EXCEEDED',
      message:
        'page 21 with limit 50 starts at row 1001, past the token result window of the first 1000 rows; ' +
        'narrow the query with filters',
    });
    // The clamped page size decides the row: limit=100 is 20 rows a page anonymously, so page 5 ends at row 100.
    expect((await call(t, '/api/v1/jobs?limit=100&page=5', nextIp())).json().meta).toEqual({
      page: 5,
      limit: 20,
      total: 0,
      totalPages: 0,
    });
    // Facet counts ride along in the same meta.
    const faceted = await call(t, '/api/v1/jobs?page=2&facets=remote', nextIp());
    expect(faceted.statusCode, faceted.body).toBe(200);
    expect(faceted.json().meta).toEqual({
      page: 2,
      limit: 20,
      total: 0,
      totalPages: 0,
      facets: { remote: [] },
    });
  });

  it('caps the discovery candidates (the default resource) at 100 a page, 20 by default', async () => {
    const auth = { authorization: `Bearer ${t.token}` };
    expect((await call(t, '/api/v1/candidates', nextIp(), auth)).json().meta).toMatchObject({
      page: 1,
      limit: 20,
    });
    expect((await call(t, '/api/v1/candidates?limit=100', nextIp(), auth)).json().meta).toMatchObject({
      limit: 100,
    });
    expect((await call(t, '/api/v1/candidates?limit=500', nextIp(), auth)).json().meta).toMatchObject({
      limit: 100,
    });
  });

  it('explains scores to token callers only (refused before any search runs)', async () => {
    const anonymous = await call(t, '/api/v1/jobs?explain=true', nextIp());
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.json().error.message).toBe(
      'explain: scores are explained to token callers only; send an Authorization bearer token',
    );
    const token = await call(t, '/api/v1/jobs?explain=true', nextIp(), {
      authorization: `Bearer ${t.token}`,
    });
    expect(token.statusCode, token.body).toBe(200);
  });
});
