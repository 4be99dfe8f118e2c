import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addCompany, addJobs } from '../catalog/fixtures.js';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/app.js';

/**
 * Cache hits answered before routing (src/http/caching/early-hits.ts). These go through a listening server: app.inject
 * calls Fastify's handler directly, so it always takes the full pipeline, which makes it the reference here.
 */

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Requests Fastify handled (its onResponse hooks run for every one, refused or served); an early hit never is. */
class RoutedCounter {
  count = 0;
  watch: TestAppOptions['beforeReady'] = (app) => {
    app.addHook('onResponse', (_request, _reply, done) => {
      this.count++;
      done();
    });
  };
}

async function listen(
  t: TestApp,
): Promise<(path: string, opts?: { method?: string; headers?: Record<string, string> }) => Promise<Answer>> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return (path, opts = {}) =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method: opts.method ?? 'GET',
          headers: opts.headers ?? {},
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
}

/**
 * Reads `url` twice: a miss, then a hit of the tier, whose headers are the miss's (names all, values but those
 * that differ per request).
 */
async function expectHitLikeMiss(
  get: Awaited<ReturnType<typeof listen>>,
  url: string,
  headers: Record<string, string>,
  tier: string,
  kind: string,
) {
  const miss = await get(url, { headers });
  const hit = await get(url, { headers });
  expect([kind, miss.status, hit.status, miss.headers['x-cache'], hit.headers['x-cache']]).toEqual([
    kind,
    200,
    200,
    'miss',
    'hit',
  ]);
  expect(hit.headers['x-api-tier']).toBe(tier);
  expect(Object.keys(hit.headers).sort()).toEqual(Object.keys(miss.headers).sort());
  expect(stableHeaders(hit.headers)).toEqual(stableHeaders(miss.headers));
}

/** Header names and values, without those that differ per request by design. */
function stableHeaders(headers: Record<string, unknown>): Record<string, string> {
  const varying = new Set([
    'x-request-id',
    'x-ratelimit-remaining',
    'ratelimit',
    'date',
    'connection',
    'keep-alive',
    'x-cache',
  ]);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !varying.has(name))
      .map(([name, value]): [string, string] => [name, String(value)])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** One company with one active posting, `ageMs` old; searchable once it returns. */
async function addPosting(
  t: TestApp,
  name: string,
  posting: { title: string; roleCategory: 'fde' | 'solutions_engineer'; ageMs: number },
): Promise<void> {
  const domain = `${name.toLowerCase()}.ai`;
  const company = await addCompany(t.deps.db, { name, domain }, t.clock.now());
  const { title, roleCategory, ageMs } = posting;
  const postedAt = new Date(t.clock.now() - ageMs);
  await addJobs(
    t.deps.db,
    [{ companyId: company.id, companyName: name, title, roleCategory, postedAt }],
    t.clock.now(),
  );
  await t.deps.searchParts.idle();
}

const seed = (t: TestApp) =>
  addPosting(t, 'Earlyco', { title: 'Forward Deployed Engineer', roleCategory: 'fde', ageMs: 3_600_000 });

/** The values of these series in one /metrics read (0 for a series not exported yet). */
async function metrics(get: (path: string) => Promise<Answer>, series: readonly string[]): Promise<number[]> {
  const lines = (await get('/metrics')).body.toString().split('\n');
  return series.map((name) => {
    const found = lines.find((l) => l.startsWith(`${name} `));
    return found === undefined ? 0 : Number(found.split(' ').pop());
  });
}

describe('cache hits answered before routing', () => {
  const routed = new RoutedCounter();
  let t: TestApp;
  let get: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await startTestApp({ beforeReady: routed.watch });
    await seed(t);
    get = await listen(t);
  });
  afterAll(async () => t.close());

  it('answers a repeated anonymous read without routing it, with the answer the full pipeline sends', async () => {
    const url = '/api/v1/jobs?limit=5';
    const before = routed.count;
    const miss = await get(url);
    expect(miss.headers['x-cache']).toBe('miss');
    expect(routed.count).toBe(before + 1);
    const early = await get(url);
    expect(routed.count).toBe(before + 1);
    // The reference: a hit through Fastify's hooks (inject does not pass through the server's listener).
    const full = await t.get(url);
    expect(full.headers['x-cache']).toBe('hit');
    expect(routed.count).toBe(before + 2);

    expect(early.status).toBe(200);
    expect(early.headers['x-cache']).toBe('hit');
    expect(early.body.equals(miss.body)).toBe(true);
    expect(early.body.toString()).toBe(full.body);
    expect(stableHeaders(early.headers)).toEqual(stableHeaders(miss.headers));
    expect(stableHeaders(early.headers)).toEqual(stableHeaders(full.headers));
    expect(early.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(early.headers['x-request-id']).not.toBe(miss.headers['x-request-id']);
    expect(Number(early.headers['content-length'])).toBe(early.body.byteLength);
    // Each door counts its request once against the same allowance.
    const remaining = [miss, early].map((a) => Number(a.headers['x-ratelimit-remaining']));
    expect(remaining[1]).toBe((remaining[0] as number) - 1);
    expect(Number(full.headers['x-ratelimit-remaining'])).toBe((remaining[1] as number) - 1);
  });

  it('answers a cached read with the headers of an uncached one, in every tier and encoding', async () => {
    const tiers: [string, Record<string, string>][] = [
      ['anonymous', {}],
      ['token', { authorization: `Bearer ${t.token}` }],
    ];
    // A page size no other test asks for, one per tier and encoding, so that the first request is a miss.
    let checked = 0;
    for (const [tier, auth] of tiers) {
      for (const encoding of [undefined, 'gzip, deflate, br']) {
        for (const resource of ['jobs', 'companies']) {
          const url = `/api/v1/${resource}?limit=${11 + Math.floor(checked / 2)}`;
          const headers = { ...auth, ...(encoding ? { 'accept-encoding': encoding } : {}) };
          await expectHitLikeMiss(get, url, headers, tier, resource);
          checked++;
        }
      }
    }
    expect(checked).toBe(8);
  });

  it('answers every kind of cached route with the headers of an uncached one, in every tier', async () => {
    const first = async (path: string) => JSON.parse((await get(path)).body.toString()).data[0];
    const job = await first('/api/v1/jobs?limit=2');
    const company = await first('/api/v1/companies?limit=2');
    const kinds: [string, string, Record<string, string>][] = [
      ['job detail', `/api/v1/jobs/${job.id}`, {}],
      ['company detail', `/api/v1/companies/${company.slug}`, {}],
      ['feed', '/api/v1/jobs/feed.atom', {}],
      ['aggregate', '/api/v1/stats', {}],
      ['tag list', '/api/v1/tags', {}],
      ['signals', '/api/v1/trends', {}],
      ['site page', '/jobs', { accept: 'text/html' }],
    ];
    const seen: string[] = [];
    for (const [tier, auth] of [
      ['anonymous', {}],
      ['token', { authorization: `Bearer ${t.token}` }],
    ] as const) {
      for (const [kind, url, accept] of kinds) {
        const headers = { ...auth, ...accept, 'accept-encoding': 'gzip' };
        await expectHitLikeMiss(get, url, headers, tier, kind);
        seen.push(`${tier} ${kind}`);
      }
    }
    expect(seen).toHaveLength(14);
  });

  it('keeps a caller’s well-formed X-Request-Id, as the full pipeline does', async () => {
    const url = '/api/v1/jobs?limit=6';
    await get(url);
    const early = await get(url, { headers: { 'x-request-id': 'trace-123.abc' } });
    expect(early.headers['x-cache']).toBe('hit');
    expect(early.headers['x-request-id']).toBe('trace-123.abc');
  });

  it('counts an early hit in the request, cache and rate-limit metrics', async () => {
    const url = '/api/v1/companies?limit=4';
    await get(url);
    const series = 'frontline_http_requests_total{route="/api/v1/companies",method="GET",status="200"}';
    const hits = 'frontline_response_cache_total{outcome="hit"}';
    const misses = 'frontline_response_cache_total{outcome="miss"}';
    const allowed = 'frontline_rate_limit_decisions_total{tier="anonymous",outcome="allowed"}';
    const before = await metrics(get, [series, hits, misses, allowed]);
    const routedBefore = routed.count;
    for (let i = 0; i < 3; i++) expect((await get(url)).headers['x-cache']).toBe('hit');
    expect(routed.count).toBe(routedBefore);
    const after = await metrics(get, [series, hits, misses, allowed]);
    // /metrics is not rate limited and not cached: the differences are the three hits'.
    expect(after.map((v, i) => v - (before[i] as number))).toEqual([3, 3, 0, 3]);
  });

  it('leaves to the full pipeline what needs its decisions: tokens, conditional requests, HEAD, other methods', async () => {
    const url = '/api/v1/jobs?limit=7';
    const first = await get(url);
    const etag = String(first.headers.etag);
    let before = routed.count;
    const conditional = await get(url, { headers: { 'if-none-match': etag } });
    expect(conditional.status).toBe(304);
    expect(conditional.body.byteLength).toBe(0);
    expect(routed.count).toBe(before + 1);

    before = routed.count;
    const token = await get(url, { headers: { authorization: `Bearer ${t.token}` } });
    expect(token.status).toBe(200);
    expect(token.headers['x-api-tier']).toBe('token');
    expect(routed.count).toBe(before + 1);

    before = routed.count;
    const refused = await get(url, { headers: { authorization: 'Bearer not-a-token' } });
    expect(refused.status).toBe(403);
    expect(routed.count).toBe(before + 1);

    before = routed.count;
    const head = await get(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(routed.count).toBe(before + 1);

    before = routed.count;
    const post = await get(url, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(routed.count).toBe(before + 1);
  });

  it('stays exact: after a write, the next read is answered fresh', async () => {
    const url = '/api/v1/jobs?limit=8';
    await get(url);
    expect((await get(url)).headers['x-cache']).toBe('hit');
    await addPosting(t, 'Laterco', {
      title: 'Solutions Engineer',
      roleCategory: 'solutions_engineer',
      ageMs: 60_000,
    });
    const after = await get(url);
    expect(after.headers['x-cache']).toBe('miss');
    expect(JSON.parse(after.body.toString()).data[0].title).toBe('Solutions Engineer');
  });
});

describe('early hits and the anonymous rate limit', () => {
  const routed = new RoutedCounter();
  let t: TestApp;
  let get: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '3' }, beforeReady: routed.watch });
    await seed(t);
    get = await listen(t);
  });
  afterAll(async () => t.close());

  it('counts each request once and leaves the refusal to the guard, with its Retry-After', async () => {
    const url = '/api/v1/stats';
    const answers: Answer[] = [];
    const routedBefore = routed.count;
    for (let i = 0; i < 4; i++) answers.push(await get(url));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['x-cache'])).toEqual(['miss', 'hit', 'hit', undefined]);
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    // The miss and the refusal were routed; the two hits were not.
    expect(routed.count - routedBefore).toBe(2);
    const refusal = answers[3] as Answer;
    expect(JSON.parse(refusal.body.toString()).error).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('anonymous limit of 3 requests'),
    });
    expect(Number(refusal.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refusal.headers['x-api-tier']).toBe('anonymous');
  });
});

describe('early hits behind a trusted proxy', () => {
  const routed = new RoutedCounter();
  let t: TestApp;
  let get: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await startTestApp({
      env: { TRUST_PROXY: 'true', RATE_LIMIT_ANONYMOUS: '2' },
      beforeReady: routed.watch,
    });
    await seed(t);
    get = await listen(t);
  });
  afterAll(async () => t.close());

  it('are not answered early: only Fastify reads the client IP from X-Forwarded-For', async () => {
    const url = '/api/v1/tags';
    const as = (ip: string) => get(url, { headers: { 'x-forwarded-for': ip } });
    const before = routed.count;
    const a = [await as('203.0.113.1'), await as('203.0.113.1'), await as('203.0.113.1')];
    const b = await as('203.0.113.2');
    expect(a.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(a[1]?.headers['x-cache']).toBe('hit');
    // Another client behind the same proxy has its own allowance, even for a cached answer.
    expect(b.status).toBe(200);
    expect(b.headers['x-cache']).toBe('hit');
    expect(b.headers['x-ratelimit-remaining']).toBe('1');
    expect(routed.count - before).toBe(4);
  });
});

describe('early hits in the request log', () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  let t: TestApp;
  let get: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'info' }, app: { logger: { level: 'info', stream } } });
    await seed(t);
    get = await listen(t);
  });
  afterEach(() => {
    lines.length = 0;
  });
  afterAll(async () => t.close());

  it('writes the two lines Fastify writes for a routed request, with the same fields', async () => {
    const url = '/api/v1/jobs?limit=3';
    const miss = await get(url);
    const early = await get(url);
    expect(early.headers['x-cache']).toBe('hit');
    const of = (id: unknown) => lines.filter((l) => l.reqId === id);
    const routedLines = of(miss.headers['x-request-id']);
    const earlyLines = of(early.headers['x-request-id']);
    expect(routedLines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(earlyLines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    const shape = (l: Record<string, unknown>) => Object.keys(l).sort();
    expect(earlyLines.map(shape)).toEqual(routedLines.map(shape));
    const req = (l: Record<string, unknown> | undefined) => ({
      ...(l?.req as Record<string, unknown>),
      remotePort: 0,
    });
    expect(req(earlyLines[0])).toEqual(req(routedLines[0]));
    expect(earlyLines[1]?.res).toEqual({ statusCode: 200 });
    expect(typeof earlyLines[1]?.responseTime).toBe('number');
  });
});

describe('hit buffers', () => {
  let t: TestApp;
  let get: Awaited<ReturnType<typeof listen>>;
  let released = 0;
  let taken = 0;
  beforeAll(async () => {
    t = await startTestApp();
    for (let i = 0; i < 30; i++)
      await addPosting(t, `Bufco${i}`, {
        title: `Solutions Engineer ${i}`,
        roleCategory: 'solutions_engineer',
        ageMs: 60_000 * (i + 1),
      });
    get = await listen(t);
    // Watches the buffers hits hand out (bodies over 4 KB come from the cache's pool).
    const cache = t.deps.responseCache;
    const lookup = cache.get.bind(cache);
    cache.get = (key, countMiss) => {
      const hit = lookup(key, countMiss);
      const release = hit?.release;
      if (hit && release) {
        taken++;
        hit.release = () => {
          released++;
          release();
        };
      }
      return hit;
    };
  });
  afterAll(async () => t.close());

  it('are given back once the response that sent them has finished, early or routed', async () => {
    const url = '/api/v1/jobs?limit=20';
    const miss = await get(url);
    expect(miss.body.byteLength).toBeGreaterThan(4096);
    const early = await get(url);
    expect(early.headers['x-cache']).toBe('hit');
    expect([taken, released]).toEqual([1, 1]);
    const routed = await t.get(url);
    expect(routed.headers['x-cache']).toBe('hit');
    expect(routed.body).toBe(miss.body.toString());
    expect([taken, released]).toEqual([2, 2]);
  });
});
