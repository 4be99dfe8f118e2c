import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/http/caching/response-cache.js';
import { addCompany, addJobs } from '../catalog/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';

describe('catalog response cache', () => {
  let t: TestApp;
  let company: { id: string; slug: string };
  beforeAll(async () => {
    t = await startTestApp();
    company = await addCompany(t.deps.db, { name: 'Cachely', domain: 'cachely.ai' }, t.clock.now());
    await addJobs(
      t.deps.db,
      [
        {
          companyId: company.id,
          companyName: 'Cachely',
          title: 'Solutions Engineer',
          roleCategory: 'solutions_engineer',
          postedAt: new Date(t.clock.now() - 3_600_000),
        },
      ],
      t.clock.now(),
    );
  });
  afterAll(async () => t.close());

  it('serves repeated reads from the cache with the same body and ETag', async () => {
    const first = await t.get('/api/v1/jobs');
    expect(first.headers['x-cache']).toBe('miss');
    const second = await t.get('/api/v1/jobs');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['x-ratelimit-remaining']).toBeDefined();
    expect(second.headers['access-control-allow-origin']).toBe('*');
    const notModified = await t.request({
      method: 'GET',
      url: '/api/v1/jobs',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
  });

  it('keys entries by tier, because page sizes differ', async () => {
    const anon = await t.get('/api/v1/companies?limit=100');
    const token = await t.get('/api/v1/companies?limit=100', t.token);
    expect(anon.json().meta.limit).toBe(20);
    expect(token.json().meta.limit).toBe(100);
  });

  it('stays exact: a committed write is visible to the very next read', async () => {
    const before = await t.get('/api/v1/jobs');
    await t.get('/api/v1/jobs');
    await addJobs(
      t.deps.db,
      [
        {
          companyId: company.id,
          companyName: 'Cachely',
          title: 'Forward Deployed Engineer',
          roleCategory: 'fde',
          postedAt: new Date(t.clock.now()),
        },
      ],
      t.clock.now(),
    );
    const after = await t.get('/api/v1/jobs');
    expect(after.headers['x-cache']).toBe('miss');
    expect(after.json().meta.total).toBe(before.json().meta.total + 1);
    expect(after.json().data[0].title).toBe('Forward Deployed Engineer');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('is not emptied by minting a token or its first use (a last-use record): no cached response shows tokens', async () => {
    await t.get('/api/v1/tags');
    expect((await t.get('/api/v1/tags')).headers['x-cache']).toBe('hit');
    const generation = t.deps.db.writeGeneration;
    const fresh = await t.deps.tokens.create('first-use');
    expect((await t.get('/api/v1/me', fresh.secret)).statusCode).toBe(200);
    // The last-use write lands behind the answer; wait for it.
    await expect
      .poll(async () => (await t.deps.tokens.list()).find((k) => k.name === 'first-use')?.lastUsedAt)
      .toBeTruthy();
    expect(t.deps.db.writeGeneration).toBe(generation);
    expect((await t.get('/api/v1/tags')).headers['x-cache']).toBe('hit');
  });

  it('is not emptied by reads: a search between two identical reads keeps the second a hit', async () => {
    // Background embedding writes do change the catalog version; let the start-up pass finish first.
    await t.deps.searchParts.idle();
    await t.get('/api/v1/companies?category=other');
    const search = await t.get('/api/v1/jobs?search=solutions%20engineer');
    expect(search.statusCode).toBe(200);
    expect((await t.get('/api/v1/companies?category=other')).headers['x-cache']).toBe('hit');
  });

  it('caches /stats until midnight UTC, when newToday turns over without any write', async () => {
    const saved = t.clock.ms;
    t.clock.ms = Date.UTC(2026, 10, 22, 23, 59, 0);
    await t.deps.searchParts.idle();
    const before = await t.get('/api/v1/stats');
    expect((await t.get('/api/v1/stats')).headers['x-cache']).toBe('hit');
    t.clock.ms = Date.UTC(2026, 10, 23, 0, 0, 1);
    const after = await t.get('/api/v1/stats');
    expect(after.headers['x-cache']).toBe('miss');
    expect(after.json().data.newToday).toBe(0);
    expect(before.json().data.newToday).toBeGreaterThan(0);
    t.clock.ms = saved;
  });
});

describe('cached responses as sent, compressed or not', () => {
  let t: TestApp;
  /** What browsers send: gzip is preferred over brotli when both are accepted (see app.ts). */
  const BROWSER = 'gzip, deflate, br';
  const decode = (res: { rawPayload: Buffer; headers: Record<string, unknown> }) => {
    const coding = res.headers['content-encoding'];
    if (coding === 'br') return brotliDecompressSync(res.rawPayload).toString();
    if (coding === 'gzip') return gunzipSync(res.rawPayload).toString();
    return res.rawPayload.toString();
  };
  const metricCount = async (status: string) => {
    const text = (await t.get('/metrics')).body;
    const line = text
      .split('\n')
      .find((l) =>
        l.startsWith(
          `frontline_http_requests_total{route="/api/v1/companies",method="GET",status="${status}"}`,
        ),
      );
    return line === undefined ? 0 : Number(line.split(' ').pop());
  };
  beforeAll(async () => {
    t = await startTestApp();
    // 100 companies with long one-liners: the token tier's page of 100 is ~100 KB, more than compression's
    // synchronous bound on any machine (at most 64 KB), so its bytes are compressed as a stream.
    for (let i = 0; i < 100; i++) {
      const name = `Streamco ${String(i).padStart(3, '0')}`;
      await addCompany(
        t.deps.db,
        { name, domain: `streamco${i}.ai`, oneLiner: `${name} ${'ships agents to enterprises '.repeat(30)}` },
        t.clock.now(),
      );
    }
    await t.deps.searchParts.idle();
  });
  afterAll(async () => t.close());

  for (const [label, url, token] of [
    ['a small body (compressed in one call)', '/api/v1/companies?limit=5', false],
    ['a large body (compressed as a stream)', '/api/v1/companies?limit=100', true],
  ] as const) {
    it(`stores the compressed bytes and serves them as sent: ${label}`, async () => {
      const plain = await t.request({ method: 'GET', url, token: token ? t.token : null });
      expect(plain.statusCode).toBe(200);
      if (token) expect(plain.rawPayload.byteLength).toBeGreaterThan(64 * 1024);
      for (const [coding, accept] of [
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['gzip', BROWSER],
      ] as const) {
        const ask = () =>
          t.request({
            method: 'GET',
            url,
            token: token ? t.token : null,
            headers: { 'accept-encoding': accept },
          });
        const first = await ask();
        const second = await ask();
        expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['miss', 'hit']);
        for (const res of [first, second]) {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-encoding']).toBe(coding);
          expect(res.headers.vary).toBe('accept-encoding');
          expect(res.headers.etag).toBe(plain.headers.etag);
          expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
          // A body compressed as a stream goes out chunked the first time; from the cache its length is known.
          if (res === second || res.headers['content-length'] !== undefined)
            expect(Number(res.headers['content-length'])).toBe(res.rawPayload.byteLength);
          expect(decode(res)).toBe(plain.body);
        }
        expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      }
      // The uncompressed entry is its own: no coding, no Vary.
      const again = await t.request({ method: 'GET', url, token: token ? t.token : null });
      expect(again.headers['x-cache']).toBe('hit');
      expect(again.headers['content-encoding']).toBeUndefined();
      expect(again.body).toBe(plain.body);
    });
  }

  it('answers a conditional hit with a 304 that carries no coding and no body', async () => {
    const url = '/api/v1/companies?limit=7';
    const first = await t.request({ method: 'GET', url, headers: { 'accept-encoding': BROWSER } });
    const conditional = (etag: string) =>
      t.request({ method: 'GET', url, headers: { 'accept-encoding': BROWSER, 'if-none-match': etag } });
    const fresh = await conditional(String(first.headers.etag));
    expect(fresh.statusCode).toBe(304);
    expect(fresh.headers['x-cache']).toBe('hit');
    expect(fresh.headers['content-encoding']).toBeUndefined();
    expect(fresh.rawPayload.byteLength).toBe(0);
    const stale = await conditional('"something-else"');
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['x-cache']).toBe('hit');
    expect(stale.headers['content-encoding']).toBe('gzip');
    expect(decode(stale)).toBe(decode(first));
  });

  it('counts a hit in the request metrics and sends the headers a fresh answer sends', async () => {
    const url = '/api/v1/companies?limit=3';
    const miss = await t.get(url);
    const before = await metricCount('200');
    const hit = await t.get(url);
    expect(hit.headers['x-cache']).toBe('hit');
    expect(await metricCount('200')).toBe(before + 1);
    const varying = new Set(['x-cache', 'x-request-id', 'x-ratelimit-remaining', 'ratelimit', 'date']);
    const names = (res: typeof hit) =>
      Object.keys(res.headers)
        .filter((h) => !varying.has(h))
        .sort();
    expect(names(hit)).toEqual(names(miss));
    for (const name of names(miss)) expect(hit.headers[name]).toBe(miss.headers[name]);
    expect(Number(hit.headers['x-ratelimit-remaining'])).toBe(
      Number(miss.headers['x-ratelimit-remaining']) - 1,
    );
  });

  it('keeps a client that asks for no compression apart from one that accepts it', async () => {
    const url = '/api/v1/companies?limit=9';
    await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'br', 'x-no-compression': '1' } });
    const compressed = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers['x-cache']).toBe('miss');
    expect(compressed.headers['content-encoding']).toBe('br');
  });
});

describe('ResponseCache eviction', () => {
  const entry = (body: string, validity = 'v1') => ({ validity, body: Buffer.from(body), etag: undefined });
  const read = (cache: ResponseCache, key: string) => cache.get(key)?.body.toString();

  it('evicts the oldest entry first, unless it was read while in the older half', () => {
    const cache = new ResponseCache({ validity: () => 'v1', maxEntries: 4 });
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, entry(k.toUpperCase()));
    // a and b are in the older half (3 and 2 entries written since): a read gives a second chance.
    expect(read(cache, 'a')).toBe('A');
    cache.set('e', entry('E'));
    expect(read(cache, 'b')).toBeUndefined();
    expect(read(cache, 'a')).toBe('A');
    cache.set('f', entry('F'));
    expect(read(cache, 'c')).toBeUndefined();
    // a's second read came while it was young and moved nothing; d, never read, is the oldest now.
    cache.set('g', entry('G'));
    expect(read(cache, 'd')).toBeUndefined();
    expect(['a', 'e', 'f', 'g'].map((k) => read(cache, k))).toEqual(['A', 'E', 'F', 'G']);
  });

  it('gives a second chance by bytes too, across the wrap of the ring', () => {
    const cache = new ResponseCache({ validity: () => 'v1', maxBytes: 100 });
    const body = (k: string) => k.repeat(10);
    for (const k of 'abcdefghij') cache.set(k, entry(body(k)));
    // k wraps the ring and takes a's bytes; b is next in line, its bytes right at the head.
    cache.set('k', entry(body('k')));
    expect(read(cache, 'a')).toBeUndefined();
    expect(read(cache, 'b')).toBe(body('b'));
    for (const k of 'lmnopqrs') cache.set(k, entry(body(k)));
    expect(read(cache, 'b')).toBe(body('b'));
    expect(read(cache, 'c')).toBeUndefined();
    expect(cache.storedBytes).toBeLessThanOrEqual(100);
  });

  it('bounds the bytes of bodies and drops entries stored under another validity', () => {
    let validity = 'v1';
    const cache = new ResponseCache({ validity: () => validity, maxBytes: 10 });
    cache.set('a', entry('12345'));
    cache.set('b', entry('12345'));
    cache.set('c', entry('1'));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.set('big', entry('12345678901'));
    expect(cache.get('big')).toBeUndefined();
    validity = 'v2';
    expect(cache.get('c')).toBeUndefined();
    expect(cache.size).toBe(1);
    expect([cache.hits, cache.misses]).toEqual([0, 3]);
  });

  it('never serves a body another one overwrote, across many trips round the slab', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const cache = new ResponseCache({ validity: () => 'v1', maxBytes: 4_096, maxEntries: 64 });
    const latest = new Map<string, string>();
    let served = 0;
    for (let i = 0; i < 20_000; i++) {
      const key = `k${rand(200)}`;
      if (rand(3) === 0) {
        const body = `${key}:${i}:`.padEnd(1 + rand(300), String.fromCharCode(97 + rand(26)));
        cache.set(key, entry(body));
        latest.set(key, body);
        // What was just stored is there.
        expect(read(cache, key)).toBe(body);
      } else {
        const got = read(cache, key);
        if (got !== undefined) {
          served++;
          expect(got).toBe(latest.get(key));
        }
      }
      expect(cache.storedBytes).toBeLessThanOrEqual(4_096);
      expect(cache.size).toBeLessThanOrEqual(64);
    }
    expect(served).toBeGreaterThan(1_000);
  });

  it('serves a copy: the slab may be overwritten while a slow client still holds what was sent', () => {
    const cache = new ResponseCache({ validity: () => 'v1', maxBytes: 8 });
    cache.set('a', entry('AAAAAAAA'));
    const sent = cache.get('a')!.body;
    cache.set('b', entry('BBBBBBBB'));
    expect(sent.toString()).toBe('AAAAAAAA');
    expect(read(cache, 'a')).toBeUndefined();
    expect(read(cache, 'b')).toBe('BBBBBBBB');
  });

  it('reuses a large hit’s buffer only once the response that sent it has released it', () => {
    const cache = new ResponseCache({ validity: () => 'v1' });
    cache.set('a', entry('a'.repeat(5_000)));
    cache.set('b', entry('b'.repeat(6_000)));
    const first = cache.get('a')!;
    const second = cache.get('b')!;
    // Both in flight: separate memory, each intact.
    expect(second.body.buffer).not.toBe(first.body.buffer);
    expect(first.body.toString()).toBe('a'.repeat(5_000));
    first.release?.();
    first.release?.(); // twice is once
    const third = cache.get('b')!;
    expect(third.body.buffer).toBe(first.body.buffer);
    expect(third.body.toString()).toBe('b'.repeat(6_000));
    expect(second.body.toString()).toBe('b'.repeat(6_000));
    const fourth = cache.get('a')!;
    expect(fourth.body.buffer).not.toBe(first.body.buffer);
    expect(fourth.body.toString()).toBe('a'.repeat(5_000));
    // A small body comes from Node's own pool, with nothing to give back.
    cache.set('c', entry('c'.repeat(100)));
    expect(cache.get('c')!.release).toBeUndefined();
  });
});
