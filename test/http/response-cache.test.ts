import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/http/response-cache.js';
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

  it('serves compressed bodies from the cache too', async () => {
    await t.get('/api/v1/companies');
    const gz = await t.request({
      method: 'GET',
      url: '/api/v1/companies',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['x-cache']).toBe('hit');
    expect(gz.statusCode).toBe(200);
  });
});

describe('ResponseCache eviction', () => {
  const entry = (body: string, validity = 'v1') => ({ validity, body: Buffer.from(body), etag: undefined });

  it('evicts the least recently used entry, counting reads of the newest key too', () => {
    const cache = new ResponseCache({ validity: () => 'v1', maxEntries: 2 });
    cache.set('a', entry('A'));
    cache.set('b', entry('B'));
    expect(cache.get('a')?.body.toString()).toBe('A');
    expect(cache.get('a')?.body.toString()).toBe('A');
    cache.set('c', entry('C'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.body.toString()).toBe('A');
    // c is now the least recently used, though it was the newest insert before a's read.
    cache.set('d', entry('D'));
    expect(cache.get('c')).toBeUndefined();
    expect([cache.get('a')?.body.toString(), cache.get('d')?.body.toString()]).toEqual(['A', 'D']);
  });

  it('bounds the bytes of bodies and drops entries stored under another validity', () => {
    let validity = 'v1';
    const cache = new ResponseCache({ validity: () => validity, maxBytes: 10 });
    cache.set('a', entry('12345'));
    cache.set('b', entry('12345'));
    cache.set('c', entry('1'));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(2);
    validity = 'v2';
    expect(cache.get('c')).toBeUndefined();
    expect(cache.size).toBe(1);
    expect([cache.hits, cache.misses]).toEqual([0, 2]);
  });

  it('keeps small bodies in memory of their own, not in the shared slab they were cut from', () => {
    const cache = new ResponseCache({ validity: () => 'v1' });
    const small = Buffer.from('{"data":[]}');
    // Node cuts small Buffers from an 8 KB pool: caching the slice would keep the whole slab alive.
    expect(small.buffer.byteLength).toBeGreaterThan(small.byteLength);
    cache.set('small', { validity: 'v1', body: small, etag: undefined });
    const body = cache.get('small')!.body;
    expect(body.toString()).toBe('{"data":[]}');
    expect(body.buffer.byteLength).toBe(body.byteLength);
    const own = Buffer.allocUnsafeSlow(8_000).fill(32);
    cache.set('own', { validity: 'v1', body: own, etag: undefined });
    expect(cache.get('own')!.body).toBe(own);
  });
});
