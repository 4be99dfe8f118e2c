import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimitStore } from '../../src/http/limits/redis-store.js';
import { MemoryRateLimitStore } from '../../src/http/limits/store.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

/**
 * What the rate-limit stores promise beyond one process's sliding window (rate-limit.test.ts runs those cases
 * on both stores): the Redis store gives every API process sharing it one exact allowance (and each key prefix,
 * one deployment, its own), answers writes without falling back, and stops on close; the in-memory store keeps
 * the count of a client active in the window through its periodic sweep of quiet clients.
 */

const redisUrl = process.env.TEST_REDIS_URL;

/** A new store's decisions fail until its connection is up (commands are not queued): polls until one is answered. */
async function firstAnswer(store: RedisRateLimitStore, key: string, now: number): Promise<void> {
  const answered = () =>
    store.hit(key, 1_000, 60_000, now).then(
      () => true,
      () => false,
    );
  while (!(await answered())) await new Promise((resolve) => setTimeout(resolve, 10));
}
const PUBLIC = '/api/v1/openapi.json';

describe.skipIf(!redisUrl)('Redis store shared by two API processes (skipped without TEST_REDIS_URL)', () => {
  const clock = new TestClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  const prefix = `test:${randomBytes(4).toString('hex')}:`;
  const stores: RedisRateLimitStore[] = [];
  const apps: TestApp[] = [];
  const store = (p: string) => {
    const s = new RedisRateLimitStore({ url: redisUrl!, prefix: p });
    stores.push(s);
    return s;
  };

  beforeAll(async () => {
    const env = { RATE_LIMIT_ANONYMOUS: '4' };
    // Two processes of one deployment (one prefix), and a second deployment on the same Redis.
    apps.push(await startTestApp({ clock, rateLimits: store(prefix), env }));
    apps.push(await startTestApp({ clock, rateLimits: store(prefix), env }));
    apps.push(await startTestApp({ clock, rateLimits: store(`${prefix}other:`), env }));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const s of stores) await s.close();
  });

  const from = (app: TestApp, ip: string) =>
    app.app.inject({ method: 'GET', url: PUBLIC, remoteAddress: ip });

  it('counts one allowance across the processes, even for requests decided at the same instant', async () => {
    const [a, b, other] = apps as [TestApp, TestApp, TestApp];
    const ip = '203.0.113.10';
    // The clock stands still: both processes decide at the same millisecond, each for its first, second... time.
    const remaining: string[] = [];
    for (const app of [a, b, a, b]) {
      const res = await from(app, ip);
      expect(res.statusCode).toBe(200);
      remaining.push(res.headers['x-ratelimit-remaining'] as string);
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);
    expect((await from(a, ip)).statusCode).toBe(429);
    expect((await from(b, ip)).statusCode).toBe(429);
    // Another deployment (another prefix) on the same Redis has its own allowance.
    const elsewhere = await from(other, ip);
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.headers['x-ratelimit-remaining']).toBe('3');
  });

  it('answers writes from Redis (a write would be refused with 503 if Redis were not answering)', async () => {
    const [a] = apps as [TestApp];
    const res = await a.request({
      method: 'POST',
      url: '/api/v1/watches',
      token: a.token,
      payload: { thisFieldIsNotInTheSchema: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-ratelimit-limit']).toBe('100000');
  });

  it('reports the time until the oldest counted request leaves the window', async () => {
    const [a] = apps as [TestApp];
    const ip = '203.0.113.11';
    expect((await from(a, ip)).headers.ratelimit).toBe('"anonymous";r=3;t=60');
    clock.advance(15_000);
    expect((await from(a, ip)).headers.ratelimit).toBe('"anonymous";r=2;t=45');
  });

  it('keeps its sliding logs under the frontline:rl: namespace, expiring with the window', async () => {
    // The deployment's store takes no prefix: its keys are namespaced so that other users of the Redis never meet
    // them, and each expires once its window has passed.
    const deployed = new RedisRateLimitStore({ url: redisUrl! });
    stores.push(deployed);
    const key = `probe-${randomBytes(4).toString('hex')}`;
    await firstAnswer(deployed, key, clock.now());
    const raw = new Redis(redisUrl!);
    try {
      expect(await raw.zcard(`frontline:rl:${key}`)).toBe(1);
      const ttl = await raw.pttl(`frontline:rl:${key}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await raw.exists(key)).toBe(0);
    } finally {
      raw.disconnect();
    }
  });

  it('fails every decision once closed', async () => {
    const closed = new RedisRateLimitStore({ url: redisUrl!, prefix });
    await firstAnswer(closed, 'probe', clock.now());
    await closed.close();
    await expect(closed.hit('probe', 1, 60_000, clock.now())).rejects.toThrow();
  });
});

describe('in-memory store', () => {
  it('keeps the count of a client active in the window through the sweep of quiet clients', () => {
    const store = new MemoryRateLimitStore();
    const t0 = Date.UTC(2026, 10, 22, 12, 0, 0);
    for (let i = 0; i < 3; i++) expect(store.hit('active', 3, 60_000, t0).allowed).toBe(true);
    expect(store.hit('active', 3, 60_000, t0)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetMs: 60_000,
    });
    // Enough other clients, a little later, for the store to sweep (every 10,000 decisions) at least once.
    for (let i = 0; i < 10_000; i++) store.hit(`quiet-${i}`, 3, 60_000, t0 + 1_000);
    expect(store.hit('active', 3, 60_000, t0 + 2_000)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetMs: 58_000,
    });
    // A client whose requests have all left the window starts afresh.
    expect(store.hit('quiet-0', 3, 60_000, t0 + 61_000)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetMs: 60_000,
    });
  });
});
