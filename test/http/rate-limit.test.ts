import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimitStore } from '../../src/http/limits/redis-store.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/http/limits/store.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

const redisUrl = process.env.TEST_REDIS_URL;
/** Every store runs the same cases: the Redis one with TEST_REDIS_URL, as the server pass of the suite sets it. */
const stores: [string, () => RateLimitStore][] = [
  ['memory', () => new MemoryRateLimitStore()],
  ...(redisUrl
    ? [
        [
          'redis',
          () => new RedisRateLimitStore({ url: redisUrl, prefix: `test:${randomBytes(4).toString('hex')}:` }),
        ] as [string, () => RateLimitStore],
      ]
    : []),
];

const PUBLIC = '/api/v1/openapi.json';

describe.each(stores)('rate limits (%s store)', (_name, makeStore) => {
  let t: TestApp;
  let store: RateLimitStore;
  const clock = new TestClock(Date.UTC(2026, 10, 22, 12, 0, 0));

  beforeAll(async () => {
    store = makeStore();
    t = await startTestApp({
      clock,
      rateLimits: store,
      env: { RATE_LIMIT_ANONYMOUS: '20', RATE_LIMIT_TOKEN: '100', RATE_LIMIT_FAILED_AUTH: '10' },
    });
  });
  afterAll(async () => {
    await t.close();
    await store.close?.();
  });

  const fromIp = (ip: string, url = PUBLIC, token?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      remoteAddress: ip,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('allows 20 anonymous requests a minute per IP, then 429 with an accurate Retry-After', async () => {
    const ip = '198.51.100.1';
    for (let i = 0; i < 20; i++) {
      const res = await fromIp(ip);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('20');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(19 - i));
      expect(res.headers['x-api-tier']).toBe('anonymous');
      expect(res.headers['ratelimit-policy']).toBe('"anonymous";q=20;w=60');
      clock.advance(1000);
    }
    const limited = await fromIp(ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: 'Rate limit exceeded: anonymous limit of 20 requests per minute per IP',
      },
    });
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-api-tier']).toBe('anonymous');
    // The first request was 20 s ago; it leaves the window in 40 s.
    expect(limited.headers['retry-after']).toBe('40');
    // Another client is unaffected.
    expect((await fromIp('198.51.100.2')).statusCode).toBe(200);
    // Once the oldest request has left the window, exactly one more is allowed.
    clock.advance(40_001);
    expect((await fromIp(ip)).statusCode).toBe(200);
    expect((await fromIp(ip)).statusCode).toBe(429);
  });

  it('is a true sliding window: a burst across a minute boundary does not double the allowance', async () => {
    const ip = '198.51.100.3';
    clock.ms = Date.UTC(2026, 10, 22, 13, 0, 59, 0);
    for (let i = 0; i < 20; i++) expect((await fromIp(ip)).statusCode).toBe(200);
    clock.ms = Date.UTC(2026, 10, 22, 13, 1, 1, 0); // 2 s later, in the next clock minute
    const res = await fromIp(ip);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('58');
    clock.ms = Date.UTC(2026, 10, 22, 13, 1, 59, 1);
    expect((await fromIp(ip)).statusCode).toBe(200);
  });

  it('gives each token its own allowance of 100, independent of the IP', async () => {
    const ip = '198.51.100.4';
    clock.advance(120_000);
    for (let i = 0; i < 100; i++) {
      const res = await fromIp(ip, '/api/v1/me', t.token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-api-tier']).toBe('token');
    }
    const limited = await fromIp(ip, '/api/v1/me', t.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['x-api-tier']).toBe('token');
    expect(limited.headers['x-ratelimit-limit']).toBe('100');
    expect(limited.json().error.message).toBe(
      'Rate limit exceeded: token limit of 100 requests per minute per token',
    );
    // The same IP's anonymous allowance is untouched.
    expect((await fromIp(ip)).statusCode).toBe(200);
  });

  it('counts failed authentication against its own budget per IP, so tokens cannot be guessed at leisure', async () => {
    const ip = '198.51.100.5';
    clock.advance(120_000);
    for (let i = 0; i < 10; i++) expect((await fromIp(ip, PUBLIC, 'fl_guess')).statusCode).toBe(403);
    const limited = await fromIp(ip, PUBLIC, 'fl_guess');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe(
      'Rate limit exceeded: failed-authentication limit of 10 attempts per minute per IP',
    );
    // The anonymous quota is the IP's own, untouched by the guesses.
    expect((await fromIp(ip)).statusCode).toBe(200);
  });

  it('keeps probes and docs outside the limit', async () => {
    const ip = '198.51.100.6';
    for (let i = 0; i < 30; i++) expect((await fromIp(ip, '/healthz')).statusCode).toBe(200);
  });
});

describe('client address', () => {
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    direct = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '1' } });
    proxied = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '1', TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await direct.close();
    await proxied.close();
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const call = (app: TestApp, xff: string) =>
      app.app.inject({
        method: 'GET',
        url: PUBLIC,
        remoteAddress: '10.0.0.1',
        headers: { 'x-forwarded-for': xff },
      });
    expect((await call(direct, '203.0.113.1')).statusCode).toBe(200);
    expect((await call(direct, '203.0.113.2')).statusCode).toBe(429);
    expect((await call(proxied, '203.0.113.1')).statusCode).toBe(200);
    expect((await call(proxied, '203.0.113.2')).statusCode).toBe(200);
    expect((await call(proxied, '203.0.113.1')).statusCode).toBe(429);
  });
});

// A remote store fails with a rejected promise; a synchronous store would throw.
const brokenStores: [string, RateLimitStore][] = [
  [
    'rejects',
    {
      hit: async () => {
        throw new Error('ECONNREFUSED');
      },
    },
  ],
  [
    'throws',
    {
      hit: () => {
        throw new Error('ECONNREFUSED');
      },
    },
  ],
];

describe.each(brokenStores)('shared store failure policy (a store that %s)', (_how, broken) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ rateLimits: broken, env: { RATE_LIMIT_ANONYMOUS: '2' } });
  });
  afterAll(async () => t.close());

  it('fails open for reads (per-process limits) and closed for writes by default', async () => {
    const read = await t.get(PUBLIC);
    expect(read.statusCode).toBe(200);
    expect(read.headers['x-ratelimit-remaining']).toBe('1');
    expect((await t.get(PUBLIC)).statusCode).toBe(200);
    expect((await t.get(PUBLIC)).statusCode).toBe(429);
    const write = await t.request({ method: 'POST', url: '/api/v1/me', token: t.token });
    expect(write.statusCode).toBe(503);
    expect(write.json().error.code).toBe('SERVER_ERROR');
    expect(write.headers['retry-after']).toBe('5');
  });
});
