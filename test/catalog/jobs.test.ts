import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRowReader } from '../../src/catalog/sql/jobs.js';
import type { Queryable } from '../../src/db/port.js';
import { KeywordSearch, tsQueryParts } from '../../src/search/keyword.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addCompany, addJobs } from './fixtures.js';

let t: TestApp;
const HOUR = 3_600_000;
const ids: Record<string, string> = {};
let bulkIds: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const now = t.clock.now();
  const at = (msAgo: number) => new Date(now - msAgo);
  const acme = await addCompany(t.deps.db, { name: 'Acme AI', domain: 'acme.ai' }, now);
  const beta = await addCompany(t.deps.db, { name: 'Beta Labs', domain: 'betalabs.com' }, now);
  const bulk = await addCompany(t.deps.db, { name: 'Bulk Co', domain: 'bulk.co' }, now);
  const [fde, sol, backend, csm, pm, closed] = await addJobs(
    t.deps.db,
    [
      {
        companyId: acme.id,
        companyName: 'Acme AI',
        title: 'Forward Deployed Engineer',
        roleCategory: 'fde',
        postedAt: at(HOUR),
      },
      {
        companyId: acme.id,
        companyName: 'Acme AI',
        title: 'Solutions Architect',
        roleCategory: 'solutions_engineer',
        location: 'Remote - US',
        remote: true,
        postedAt: at(2 * HOUR),
      },
      {
        companyId: beta.id,
        companyName: 'Beta Labs',
        title: 'Backend Engineer',
        roleCategory: 'engineering',
        location: 'London, United Kingdom',
        postedAt: at(3 * HOUR),
      },
      {
        companyId: beta.id,
        companyName: 'Beta Labs',
        title: 'Customer Success Manager',
        roleCategory: 'csm',
        location: '100% Remote_EU',
        remote: true,
        postedAt: at(3 * HOUR),
      },
      {
        companyId: beta.id,
        companyName: 'Beta Labs',
        title: 'Product Manager',
        roleCategory: 'product',
        location: 'New York, NY',
        postedAt: at(24 * HOUR),
      },
      {
        companyId: acme.id,
        companyName: 'Acme AI',
        title: 'Sales Engineer',
        roleCategory: 'sales_engineer',
        postedAt: at(HOUR / 2),
        active: false,
      },
    ],
    now,
  );
  Object.assign(ids, { fde, sol, backend, csm, pm, closed });
  // 130 older jobs that all match "kubernetes": more than a search shortlist and past the anonymous window.
  bulkIds = await addJobs(
    t.deps.db,
    Array.from({ length: 130 }, (_, i) => ({
      companyId: bulk.id,
      companyName: 'Bulk Co',
      title: `Kubernetes Platform Engineer ${i + 1}`,
      roleCategory: 'engineering' as const,
      location: 'Berlin, Germany',
      postedAt: at(48 * HOUR + i * 60_000),
    })),
    now,
  );
});
afterAll(async () => t.close());

const json = async (url: string, token?: string) => {
  const res = await t.get(url, token);
  return { res, body: res.json() };
};
const titles = (body: { data: { title: string }[] }) => body.data.map((j) => j.title);

describe('GET /jobs', () => {
  it('lists active jobs newest first in the envelope with exactly the spec fields', async () => {
    const { res, body } = await json('/api/v1/jobs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-api-tier']).toBe('anonymous');
    expect(body.meta).toEqual({ page: 1, limit: 20, total: 135, totalPages: 7 });
    expect(body.data).toHaveLength(20);
    expect(titles(body).slice(0, 2)).toEqual(['Forward Deployed Engineer', 'Solutions Architect']);
    expect(titles(body)).not.toContain('Sales Engineer');
    expect(Object.keys(body.data[0]).sort()).toEqual(
      ['company', 'id', 'location', 'postedAt', 'remote', 'roleCategory', 'title', 'url'].sort(),
    );
    expect(body.data[0]).toEqual({
      id: ids.fde,
      title: 'Forward Deployed Engineer',
      company: { name: 'Acme AI', slug: 'acme-ai' },
      location: 'San Francisco, CA',
      remote: false,
      roleCategory: 'fde',
      url: expect.stringMatching(/^https:\/\//),
      postedAt: new Date(t.clock.now() - HOUR).toISOString(),
    });
  });

  it('breaks ties in posted_at by id, descending, and pages never overlap', async () => {
    const { body } = await json('/api/v1/jobs?limit=5');
    const tied = body.data.filter((j: { id: string }) => j.id === ids.backend || j.id === ids.csm);
    expect(tied.map((j: { id: string }) => j.id)).toEqual([ids.backend, ids.csm].sort().reverse());
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await json(`/api/v1/jobs?limit=50&page=${page}`, t.token);
      seen.push(...res.body.data.map((j: { id: string }) => j.id));
    }
    expect(seen).toHaveLength(135);
    expect(new Set(seen).size).toBe(135);
    expect(seen.slice(-130)).toEqual([...bulkIds]);
  });

  it('filters by role_category, client_facing, company, location and remote_only', async () => {
    expect(titles((await json('/api/v1/jobs?role_category=csm')).body)).toEqual(['Customer Success Manager']);
    expect(titles((await json('/api/v1/jobs?client_facing=true')).body)).toEqual([
      'Forward Deployed Engineer',
      'Solutions Architect',
      'Customer Success Manager',
    ]);
    // client_facing=false is no restriction, like remote_only=false.
    expect((await json('/api/v1/jobs?client_facing=false')).body.meta.total).toBe(135);
    expect((await json('/api/v1/jobs?remote_only=false')).body.meta.total).toBe(135);
    const beta = titles((await json('/api/v1/jobs?company=beta-labs')).body);
    expect(beta.slice(0, 2).sort()).toEqual(['Backend Engineer', 'Customer Success Manager']);
    expect(beta[2]).toBe('Product Manager');
    expect((await json('/api/v1/jobs?company=Beta-Labs')).body.meta.total).toBe(3);
    expect((await json('/api/v1/jobs?company=nobody')).body).toEqual({
      data: [],
      meta: { page: 1, limit: 20, total: 0, totalPages: 0 },
    });
    expect(titles((await json('/api/v1/jobs?location=LONDON')).body)).toEqual(['Backend Engineer']);
    expect(titles((await json('/api/v1/jobs?location=york')).body)).toEqual(['Product Manager']);
    expect(titles((await json('/api/v1/jobs?remote_only=true')).body)).toEqual([
      'Solutions Architect',
      'Customer Success Manager',
    ]);
    expect((await json('/api/v1/jobs?location=%20%20')).body.meta.total).toBe(135);
  });

  it('matches location wildcards literally', async () => {
    expect(titles((await json('/api/v1/jobs?location=100%25')).body)).toEqual(['Customer Success Manager']);
    expect(titles((await json('/api/v1/jobs?location=e_eu')).body)).toEqual(['Customer Success Manager']);
    expect((await json('/api/v1/jobs?location=%25')).body.meta.total).toBe(1);
    expect((await json('/api/v1/jobs?location=_')).body.meta.total).toBe(1);
    expect((await json('/api/v1/jobs?location=%5C')).body.meta.total).toBe(0);
  });

  it('combines filters (intersection) and intersects role_category with client_facing', async () => {
    expect(
      titles((await json('/api/v1/jobs?client_facing=true&remote_only=true&company=acme-ai')).body),
    ).toEqual(['Solutions Architect']);
    expect(titles((await json('/api/v1/jobs?role_category=fde&client_facing=true')).body)).toEqual([
      'Forward Deployed Engineer',
    ]);
    expect((await json('/api/v1/jobs?role_category=engineering&client_facing=true')).body.meta.total).toBe(0);
    expect((await json('/api/v1/jobs?role_category=engineering&location=berlin')).body.meta.total).toBe(130);
    expect((await json('/api/v1/jobs?role_category=engineering&client_facing=false')).body.meta.total).toBe(
      131,
    );
  });

  it('clamps the page size per tier and reports the clamped value', async () => {
    const anon = await json('/api/v1/jobs?limit=50');
    expect(anon.body.meta).toMatchObject({ limit: 20, total: 135, totalPages: 7 });
    expect(anon.body.data).toHaveLength(20);
    const token = await json('/api/v1/jobs?limit=500', t.token);
    expect(token.res.headers['x-api-tier']).toBe('token');
    expect(token.body.meta).toMatchObject({ limit: 50, totalPages: 3 });
    expect(token.body.data).toHaveLength(50);
    expect((await json('/api/v1/jobs', t.token)).body.meta.limit).toBe(20);
    const last = await json('/api/v1/jobs?page=3&limit=50', t.token);
    expect(last.body.data).toHaveLength(35);
    expect(last.body.meta).toEqual({ page: 3, limit: 50, total: 135, totalPages: 3 });
  });

  it('refuses offsets past the result window with RESULT_WINDOW_EXCEEDED', async () => {
    expect((await json('/api/v1/jobs?page=5&limit=20')).res.statusCode).toBe(200);
    const past = await json('/api/v1/jobs?page=6&limit=20');
    expect(past.res.statusCode).toBe(400);
    expect(past.res.headers['x-api-tier']).toBe('anonymous');
    expect(past.body.error.code).toBe('RESULT_WINDOW_EXCEEDED');
    expect(past.body.error.message).toContain('100');
    // limit=100 is clamped to 20 first, so page 6 still starts at row 101.
    expect((await json('/api/v1/jobs?page=6&limit=100')).res.statusCode).toBe(400);
    expect((await json('/api/v1/jobs?page=20&limit=50', t.token)).res.statusCode).toBe(200);
    const tokenPast = await json('/api/v1/jobs?page=21&limit=50', t.token);
    expect(tokenPast.res.statusCode).toBe(400);
    expect(tokenPast.res.headers['x-api-tier']).toBe('token');
    expect(tokenPast.body.error.code).toBe('RESULT_WINDOW_EXCEEDED');
    const empty = await json('/api/v1/jobs?page=10&limit=50', t.token);
    expect(empty.body).toEqual({ data: [], meta: { page: 10, limit: 50, total: 135, totalPages: 3 } });
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=', 'page'],
    ['page=1&page=2', 'page'],
    ['limit=0', 'limit'],
    ['limit=x', 'limit'],
    ['limit=2.5', 'limit'],
    ['role_category=astronaut', 'role_category'],
    ['role_category=', 'role_category'],
    ['client_facing=yes', 'client_facing'],
    ['client_facing=1', 'client_facing'],
    ['client_facing=TRUE', 'client_facing'],
    ['remote_only=no', 'remote_only'],
    ['remote_only=', 'remote_only'],
    ['company=Not%20A%20Slug!', 'company'],
    [`company=${'a'.repeat(201)}`, 'company'],
    [`location=${'x'.repeat(201)}`, 'location'],
    [`search=${'s'.repeat(201)}`, 'search'],
    ['sort=title', 'sort'],
    ['Page=2', 'Page'],
  ])('rejects %s with 400 naming the parameter', async (query, name) => {
    const { res, body } = await json(`/api/v1/jobs?${query}`);
    expect(res.statusCode).toBe(400);
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.error.message).toContain(`'${name}'`);
    expect(res.headers['x-api-tier']).toBe('anonymous');
  });

  it('lists the allowed values for an unknown role category', async () => {
    const { body } = await json('/api/v1/jobs?role_category=astronaut');
    expect(body.error.message).toContain('fde');
    expect(body.error.message).toContain('professional_services');
  });
});

describe('GET /jobs?search= (through deps.search, whichever engine is wired)', () => {
  const CLIENT_FACING = [
    'fde',
    'solutions_engineer',
    'csm',
    'tam',
    'sales_engineer',
    'implementation',
    'professional_services',
  ];
  type Item = {
    id: string;
    title: string;
    company: { slug: string };
    location: string;
    remote: boolean;
    roleCategory: string;
  };

  it('puts the best match first', async () => {
    const { body } = await json('/api/v1/jobs?search=forward%20deployed%20engineer');
    expect(body.data[0].id).toBe(ids.fde);
  });

  it('caps the shortlist at 100 and pages over it', async () => {
    const first = await json('/api/v1/jobs?search=kubernetes&limit=50', t.token);
    expect(first.body.meta).toEqual({ page: 1, limit: 50, total: 100, totalPages: 2 });
    const second = await json('/api/v1/jobs?search=kubernetes&limit=50&page=2', t.token);
    expect(second.body.data).toHaveLength(50);
    const third = await json('/api/v1/jobs?search=kubernetes&limit=50&page=3', t.token);
    expect(third.body).toEqual({ data: [], meta: { page: 3, limit: 50, total: 100, totalPages: 2 } });
    const all = [...first.body.data, ...second.body.data].map((j: Item) => j.id);
    expect(new Set(all).size).toBe(100);
    const anon = await json('/api/v1/jobs?search=kubernetes&page=5');
    expect(anon.body.meta).toEqual({ page: 5, limit: 20, total: 100, totalPages: 5 });
    expect(anon.body.data.map((j: Item) => j.id)).toEqual(all.slice(80, 100));
    expect((await json('/api/v1/jobs?search=kubernetes&page=6')).body.error.code).toBe(
      'RESULT_WINDOW_EXCEEDED',
    );
  });

  it('applies every filter to the shortlist', async () => {
    // [search, filter, what every row must satisfy]: each search has matches under its filter, so no check
    // below runs over an empty page.
    const cases: [string, string, (j: Item) => boolean][] = [
      ['engineer', 'company=acme-ai', (j) => j.company.slug === 'acme-ai'],
      ['engineer', 'client_facing=true', (j) => CLIENT_FACING.includes(j.roleCategory)],
      ['engineer', 'role_category=engineering', (j) => j.roleCategory === 'engineering'],
      ['engineer', 'location=london', (j) => j.location.toLowerCase().includes('london')],
      ['manager', 'remote_only=true', (j) => j.remote],
    ];
    for (const [search, filter, holds] of cases) {
      const { res, body } = await json(`/api/v1/jobs?search=${search}&${filter}&limit=50`, t.token);
      expect(res.statusCode, filter).toBe(200);
      expect(body.data.length, filter).toBe(Math.min(body.meta.total, 50));
      expect(
        body.data.length,
        `${filter}: some job matches, so the check below is not vacuous`,
      ).toBeGreaterThan(0);
      for (const job of body.data as Item[]) expect(holds(job), `${filter}: ${job.title}`).toBe(true);
    }
    expect(
      (await json('/api/v1/jobs?search=engineer&company=acme-ai')).body.data.map((j: Item) => j.id),
    ).toContain(ids.fde);
    expect(
      (await json('/api/v1/jobs?search=engineer&location=london')).body.data.map((j: Item) => j.id),
    ).toContain(ids.backend);
    const closed = await json('/api/v1/jobs?search=sales%20engineer&limit=50', t.token);
    expect(closed.body.data.map((j: Item) => j.id)).not.toContain(ids.closed);
  });

  it('treats a blank search as absent and survives odd input', async () => {
    expect((await json('/api/v1/jobs?search=%20%20')).body.meta.total).toBe(135);
    for (const q of ['the', '"', '-', 'or', '!!!', "o'reilly", 'c++', 'a:*', '((', 'ü', '\\']) {
      const { res, body } = await json(`/api/v1/jobs?search=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(200);
      // A well-formed page of the shortlist: as many rows as the total allows, pages counted from it.
      expect(body.data.length, q).toBe(Math.min(body.meta.total, body.meta.limit));
      expect(body.meta, q).toEqual({
        page: 1,
        limit: 20,
        total: body.meta.total,
        totalPages: Math.ceil(body.meta.total / 20),
      });
    }
  });
});

describe('KeywordSearch (src/search/keyword.ts)', () => {
  const search = (q: string, filters = {}, limit = 100) =>
    new KeywordSearch(t.deps.db).searchJobs(q, filters, limit);

  it('ranks by relevance, matches the last word as a prefix and searches the company name', async () => {
    expect(await search('forward deployed')).toEqual([ids.fde]);
    expect(await search('deployed forw')).toEqual([ids.fde]);
    expect(await search('kube')).toHaveLength(100);
    expect((await search('beta lab')).sort()).toEqual([ids.backend, ids.csm, ids.pm].sort());
    expect(await search('"success manager"')).toEqual([ids.csm]);
    expect((await search('engineer -kubernetes')).sort()).toEqual([ids.fde, ids.backend].sort());
    expect((await search('architect or product')).sort()).toEqual([ids.sol, ids.pm].sort());
    // Title (weight A) outranks company name (weight B).
    const acme = await search('acme engineer');
    expect(acme).toEqual([ids.fde]);
  });

  it('caps at the limit, keeping the newest of equal ranks first', async () => {
    expect(await search('kubernetes')).toEqual(bulkIds.slice(0, 100));
    expect(await search('kubernetes', {}, 7)).toEqual(bulkIds.slice(0, 7));
  });

  it('applies filters inside retrieval, so a filter never empties a shortlist that has matches', async () => {
    expect(await search('engineer', { companySlug: 'acme-ai' })).toEqual([ids.fde]);
    expect(await search('engineer', { roleCategories: ['fde', 'csm'] })).toEqual([ids.fde]);
    expect(await search('engineer', { location: 'london' })).toEqual([ids.backend]);
    expect(await search('manager', { remoteOnly: true })).toEqual([ids.csm]);
    expect(await search('engineer', { roleCategories: [] })).toEqual([]);
    // 130 newer-ranked Kubernetes matches do not crowd the single filtered match out of a 100-row shortlist.
    expect(await search('engineer', { location: 'london' }, 100)).toEqual([ids.backend]);
    expect(await search('sales')).toEqual([]);
  });

  it('splits the prefix word only where it keeps the query meaning', () => {
    expect(tsQueryParts('forward depl')).toEqual({ web: 'forward', prefix: 'depl:*' });
    expect(tsQueryParts('Kube')).toEqual({ web: '', prefix: 'kube:*' });
    expect(tsQueryParts('sales or fde')).toEqual({ web: 'sales or fde', prefix: null });
    expect(tsQueryParts('engineer -sales')).toEqual({ web: 'engineer -sales', prefix: null });
    expect(tsQueryParts('"success manager')).toEqual({ web: '"success manager', prefix: null });
    expect(tsQueryParts('c++')).toEqual({ web: 'c++', prefix: null });
  });
});

describe('GET /jobs/:id', () => {
  it('returns the full job with company details', async () => {
    const { res, body } = await json(`/api/v1/jobs/${ids.fde}`);
    expect(res.statusCode).toBe(200);
    expect(body.data).toMatchObject({
      id: ids.fde,
      title: 'Forward Deployed Engineer',
      description: 'Full description of Forward Deployed Engineer',
      department: null,
      salary: null,
      source: 'test',
      active: true,
      sample: false,
      company: { name: 'Acme AI', slug: 'acme-ai', domain: 'acme.ai', website: null },
    });
    expect(body.data.company.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data.firstSeenAt).toBe(new Date(t.clock.now() - HOUR).toISOString());
  });

  it('answers for a closed posting with active: false', async () => {
    const { res, body } = await json(`/api/v1/jobs/${ids.closed}`);
    expect(res.statusCode).toBe(200);
    expect(body.data).toMatchObject({ title: 'Sales Engineer', active: false });
  });

  it('is 404 NOT_FOUND for unknown and malformed ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '123', `${ids.fde}x`]) {
      const { res, body } = await json(`/api/v1/jobs/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(body.error.code).toBe('NOT_FOUND');
      expect(body.error.message).toContain(id);
    }
    const upper = await json(`/api/v1/jobs/${ids.fde!.toUpperCase()}`);
    expect(upper.res.statusCode).toBe(200);
  });

  it('answers concurrent requests for different jobs each with its own job', async () => {
    const unknown = '00000000-0000-4000-8000-000000000001';
    const asked = [
      ids.fde!,
      ids.closed!,
      unknown,
      ids.backend!.toUpperCase(),
      ...bulkIds.slice(0, 20),
      ids.fde!,
    ];
    const answers = await Promise.all(asked.map((id) => json(`/api/v1/jobs/${id}`)));
    answers.forEach(({ res, body }, i) => {
      const id = asked[i]!;
      if (id === unknown) {
        expect(res.statusCode).toBe(404);
        return;
      }
      expect(res.statusCode, id).toBe(200);
      expect(body.data.id).toBe(id.toLowerCase());
    });
    expect(answers[1]!.body.data).toMatchObject({ title: 'Sales Engineer', active: false });
    expect(answers[4]!.body.data.title).toBe('Kubernetes Platform Engineer 1');
  });
});

describe('JobRowReader (batched detail reads)', () => {
  /** The test database, counting the statements that reach it. */
  const counted = () => {
    const seen: string[] = [];
    const db: Queryable = {
      query: (sql, params, opts) => {
        seen.push(opts?.name ?? sql);
        return t.deps.db.query(sql, params, opts);
      },
    };
    return { db, seen };
  };

  it('reads the rows asked for in one turn with one query, each caller getting its own', async () => {
    const { db, seen } = counted();
    const reader = new JobRowReader(db);
    const asked = [...bulkIds.slice(0, 30), ids.pm!, '00000000-0000-4000-8000-000000000002', ids.pm!];
    const docs = await Promise.all(asked.map((id) => reader.read(id)));
    expect(seen).toEqual(['job_detail_rows']);
    expect(docs.map((d) => d?.id)).toEqual([...asked.slice(0, 31), undefined, ids.pm]);
    expect(docs[30]).toMatchObject({ title: 'Product Manager', companyId: expect.any(String) });
  });

  it('splits more than 100 waiting reads into queries of at most 100, and reads again in a later turn', async () => {
    const { db, seen } = counted();
    const reader = new JobRowReader(db);
    const docs = await Promise.all(bulkIds.map((id) => reader.read(id)));
    expect(docs.every((d, i) => d?.id === bulkIds[i])).toBe(true);
    expect(seen).toEqual(['job_detail_rows', 'job_detail_rows']);
    expect((await reader.read(ids.csm!))?.title).toBe('Customer Success Manager');
    expect(seen).toHaveLength(3);
  });

  it('fails every read of a batch whose query fails, and the next batch still runs', async () => {
    let fail = true;
    const db: Queryable = {
      query: (sql, params, opts) =>
        fail ? Promise.reject(new Error('connection lost')) : t.deps.db.query(sql, params, opts),
    };
    const reader = new JobRowReader(db);
    const failed = await Promise.allSettled([reader.read(ids.fde!), reader.read(ids.sol!)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect((await reader.read(ids.sol!))?.title).toBe('Solutions Architect');
  });
});

describe('HTTP behaviour of catalog reads', () => {
  it('rejects a bad token with 403 on every public read', async () => {
    for (const url of [
      '/api/v1/jobs',
      `/api/v1/jobs/${ids.fde}`,
      '/api/v1/companies',
      '/api/v1/companies/acme-ai',
      '/api/v1/tags',
      '/api/v1/stats',
    ]) {
      const res = await t.get(url, 'fl_definitely-not-valid');
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
      expect(res.headers['x-api-tier']).toBe('anonymous');
    }
  });

  it('serves ETags and answers If-None-Match with 304', async () => {
    const first = await t.get('/api/v1/jobs?role_category=fde');
    const tag = first.headers.etag;
    expect(tag).toBeTruthy();
    const again = await t.request({
      method: 'GET',
      url: '/api/v1/jobs?role_category=fde',
      headers: { 'if-none-match': String(tag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await t.request({
      method: 'GET',
      url: '/api/v1/jobs?role_category=csm',
      headers: { 'if-none-match': String(tag) },
    });
    expect(other.statusCode).toBe(200);
  });

  it('sends CORS headers and compresses when asked', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/v1/jobs',
      headers: { origin: 'https://example.org', 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(gunzipSync(res.rawPayload).toString('utf8'));
    expect(body.data).toHaveLength(20);
  });

  it('documents every catalog route in the OpenAPI document', async () => {
    const doc = (await json('/api/v1/openapi.json')).body;
    for (const path of [
      '/api/v1/jobs',
      '/api/v1/jobs/{id}',
      '/api/v1/companies',
      '/api/v1/companies/{id}',
      '/api/v1/tags',
      '/api/v1/stats',
    ]) {
      expect(doc.paths[path]?.get, path).toBeDefined();
    }
    const params = doc.paths['/api/v1/jobs'].get.parameters.map((p: { name: string }) => p.name);
    expect(params.sort()).toEqual(
      [
        'after_id',
        'client_facing',
        'company',
        'department',
        'explain',
        'country',
        'facets',
        'limit',
        'location',
        'max_age_days',
        'page',
        'posted_before',
        'posted_since',
        'region',
        'remote_only',
        'remote_scope',
        'role_category',
        'salary_currency',
        'salary_min',
        'search',
        'sort',
        'updated_since',
        'workplace',
      ].sort(),
    );
  });
});

describe('job_counts (totals without count(*))', () => {
  const CATEGORIES = ['fde', 'solutions_engineer', 'csm', 'sales_engineer', 'engineering', 'product', 'data'];

  // Substrings of the fixtures' locations, including LIKE wildcards that must match literally.
  const PLACES = ['berlin', 'GERMANY', 'remote', 'e_eu', '100%', 'york', 'a', 'nowhere'];

  async function expectExactTotals(label: string) {
    const rows = await t.deps.db.query<{ role_category: string; remote: boolean; place: string; n: number }>(
      'SELECT role_category, remote, lower(location) AS place, count(*)::int AS n FROM jobs WHERE active GROUP BY 1, 2, 3',
    );
    const count = (pred: (r: { role_category: string; remote: boolean; place: string }) => boolean) =>
      rows.filter(pred).reduce((n, r) => n + r.n, 0);
    // limit=1 forces the counting path (a full first page never short-circuits the total).
    const total = async (q: string) => (await json(`/api/v1/jobs?limit=1&${q}`)).body.meta.total;
    expect(await total(''), label).toBe(count(() => true));
    expect(await total('remote_only=true'), label).toBe(count((r) => r.remote));
    for (const c of CATEGORIES) {
      expect(await total(`role_category=${c}`), `${label} ${c}`).toBe(count((r) => r.role_category === c));
      expect(await total(`role_category=${c}&remote_only=true`), `${label} ${c} remote`).toBe(
        count((r) => r.role_category === c && r.remote),
      );
    }
    for (const place of PLACES) {
      const at = (r: { place: string }) => r.place.includes(place.toLowerCase());
      const q = `location=${encodeURIComponent(place)}`;
      expect(await total(q), `${label} ${place}`).toBe(count(at));
      expect(await total(`${q}&remote_only=true`), `${label} ${place} remote`).toBe(
        count((r) => at(r) && r.remote),
      );
      expect(await total(`${q}&role_category=engineering`), `${label} ${place} engineering`).toBe(
        count((r) => at(r) && r.role_category === 'engineering'),
      );
    }
    expect((await json('/api/v1/stats')).body.data.totalJobs, label).toBe(count(() => true));
    await expectKeyedTotals(label, total);
  }

  /** Department, pay and posting-day totals (job_department_counts, job_pay_counts, job_day_counts) against count(*). */
  async function expectKeyedTotals(label: string, total: (q: string) => Promise<number>) {
    const truth = async (cond: string, params: unknown[]) =>
      (
        await t.deps.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM jobs j WHERE j.active AND ${cond}`,
          params,
        )
      )[0]!.n;
    for (const d of ['platform', 'Sales,customer success', 'nobody']) {
      const cond = 'lower(j.department) = ANY($1::text[])';
      const names = d.toLowerCase().split(',');
      const q = `department=${encodeURIComponent(d)}`;
      expect(await total(q), `${label} ${d}`).toBe(await truth(cond, [names]));
      expect(await total(`${q}&role_category=engineering&remote_only=true`), `${label} ${d} narrowed`).toBe(
        await truth(`${cond} AND j.role_category = 'engineering' AND j.remote`, [names]),
      );
    }
    const pay = `(j.salary_max * CASE j.salary_period WHEN 'hour' THEN 2080 WHEN 'month' THEN 12 ELSE 1 END)`;
    for (const [min, currency] of [
      [0, 'USD'],
      [150_000, 'USD'],
      [156_000, 'usd'],
      [90_000, 'EUR'],
    ] as const) {
      const q = `salary_min=${min}&salary_currency=${currency}`;
      expect(await total(q), `${label} ${q}`).toBe(
        await truth(`j.salary_currency = $1 AND ${pay} >= $2`, [currency.toUpperCase(), min]),
      );
    }
    const day = (d: number) => new Date(t.clock.now() - d * 24 * HOUR).toISOString().slice(0, 10);
    const at = (h: number) => new Date(t.clock.now() - h * HOUR).toISOString();
    const windows: [string | undefined, string | undefined][] = [
      [day(1), undefined],
      [undefined, day(1)],
      [day(3), day(1)],
      [at(50), undefined],
      [undefined, at(1.5)],
      [at(49), at(2.5)],
      [at(2.5), at(2)],
      [at(2), at(49)],
    ];
    for (const [since, before] of windows) {
      const q = [since && `posted_since=${since}`, before && `posted_before=${before}`]
        .filter(Boolean)
        .join('&');
      const conds = [
        since && 'j.posted_at >= $1::timestamptz',
        before && `j.posted_at < $${since ? 2 : 1}::timestamptz`,
      ];
      const cond = conds.filter(Boolean).join(' AND ');
      const params = [since, before].filter(Boolean);
      expect(await total(q), `${label} ${q}`).toBe(await truth(cond, params));
      expect(await total(`${q}&role_category=engineering`), `${label} ${q} engineering`).toBe(
        await truth(`${cond} AND j.role_category = 'engineering'`, params),
      );
    }
  }

  it('follows inserts, updates, deactivations, deletes, cascades and truncation', async () => {
    const db = t.deps.db;
    await db.query(
      `UPDATE jobs SET department = CASE WHEN title LIKE '%1%' THEN 'Platform' WHEN title LIKE '%2%' THEN 'SALES'
         WHEN title LIKE '%3%' THEN 'Customer Success' END,
         salary_min = 1, salary_max = 100 + length(title) * 5000, salary_currency = 'USD', salary_period = 'year',
         salary_source = 'structured'
       WHERE title LIKE 'Kubernetes%' OR role_category <> 'engineering'`,
    );
    await db.query(
      `UPDATE jobs SET salary_max = 80, salary_period = 'hour', salary_currency = 'EUR' WHERE title LIKE '%7%'`,
    );
    await expectExactTotals('initial');
    await db.query(
      `UPDATE jobs SET department = 'Sales', posted_at = posted_at - interval '1 day', salary_period = 'month',
         salary_max = salary_max / 10
       WHERE title LIKE '%Engineer 6%' AND salary_max IS NOT NULL`,
    );
    await expectExactTotals('department, posting day and pay change');
    await db.query(
      "UPDATE jobs SET role_category = 'data' WHERE title LIKE 'Kubernetes Platform Engineer 1%'",
    );
    await expectExactTotals('category change');
    await db.query(
      "UPDATE jobs SET remote = NOT remote WHERE title LIKE '%Engineer 2%' OR role_category = 'csm'",
    );
    await expectExactTotals('remote flip');
    await db.query("UPDATE jobs SET location = 'Remote - Germany' WHERE title LIKE '%Engineer 5%'");
    await expectExactTotals('location change');
    await db.query("UPDATE jobs SET active = false WHERE title LIKE '%Engineer 3%'");
    await db.query('UPDATE jobs SET active = true WHERE id = $1', [ids.closed]);
    await expectExactTotals('activation');
    await db.query("UPDATE jobs SET last_seen_at = now() WHERE role_category = 'engineering'");
    await db.query("UPDATE jobs SET title = title WHERE title = 'nothing matches'");
    await expectExactTotals('no-op updates');
    await db.query("DELETE FROM jobs WHERE title LIKE '%Engineer 4%'");
    await expectExactTotals('delete');
    await db.query("DELETE FROM companies WHERE slug = 'beta-labs'");
    await expectExactTotals('cascade');
    await db
      .transaction(async (tx) => {
        await tx.query("DELETE FROM jobs WHERE role_category = 'fde'");
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await expectExactTotals('rollback');
    const before = await db.query<{ v: number }>('SELECT version::int AS v FROM catalog_version');
    await db.query('TRUNCATE jobs CASCADE');
    const after = await db.query<{ v: number }>('SELECT version::int AS v FROM catalog_version');
    expect(after[0]!.v).toBeGreaterThan(before[0]!.v);
    await expectExactTotals('truncate');
    expect((await json('/api/v1/jobs')).body.meta.total).toBe(0);
  });
});
