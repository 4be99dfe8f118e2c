import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshActiveJobCounts, upsertCompanyByDomain } from '../../src/catalog/company-writes.js';
import { companyFilterSql, jobFilterSql } from '../../src/catalog/filters.js';
import { setCompanyTags, slugify } from '../../src/catalog/tags.js';
import { readCatalogVersion } from '../../src/catalog/version.js';
import { CompanyListItemSchema } from '../../src/http/schemas/catalog.js';
import { listOf, PaginationMeta } from '../../src/http/schemas/common.js';
import { KeywordSearch } from '../../src/search/keyword.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addCompany, addJobs } from './fixtures.js';

let t: TestApp;
const HOUR = 3_600_000;
const co: Record<string, { id: string; slug: string }> = {};

const tag = (
  dimension: 'industry' | 'stage' | 'business_model' | 'ai_role' | 'funding_tier',
  value: string,
) => ({
  dimension,
  value,
});

beforeAll(async () => {
  t = await startTestApp();
  const now = t.clock.now();
  const db = t.deps.db;
  co.alpha = await addCompany(
    db,
    {
      name: 'Alpha',
      domain: 'alpha.com',
      category: 'ai_native',
      oneLiner: 'Agents for developer onboarding',
      tags: [tag('industry', 'Developer Tools'), tag('industry', 'Healthcare'), tag('stage', 'Series A')],
    },
    now,
  );
  co.beta = await addCompany(
    db,
    {
      name: 'Beta',
      domain: 'beta.io',
      category: 'ai_native',
      tags: [
        tag('industry', 'Developer Tools'),
        tag('stage', 'Series B'),
        tag('ai_role', 'Foundation Models'),
      ],
    },
    now,
  );
  co.zeta = await addCompany(
    db,
    {
      name: 'Zeta',
      domain: 'zeta.ai',
      category: 'enterprise_ai',
      tags: [tag('industry', 'Healthcare'), tag('stage', 'Series A')],
    },
    now,
  );
  co.acme = await addCompany(
    db,
    {
      name: 'acme',
      domain: 'acme.dev',
      category: 'enterprise_ai',
      tags: [tag('industry', 'Legal'), tag('stage', 'Series B')],
    },
    now,
  );
  co.mu = await addCompany(db, { name: 'Mu', domain: 'mu.com' }, now);
  co.twinA = await addCompany(db, { name: 'Twin', domain: 'twin-a.com' }, now);
  co.twinB = await addCompany(db, { name: 'Twin', domain: 'twin-b.com' }, now);
  co.gone = await addCompany(
    db,
    {
      name: 'Gone',
      domain: 'gone.com',
      active: false,
      tags: [tag('industry', 'Developer Tools'), tag('industry', 'Robotics')],
    },
    now,
  );
  const job = (c: { id: string }, name: string, hoursAgo: number, active = true) => ({
    companyId: c.id,
    companyName: name,
    title: `${name} role ${hoursAgo}`,
    roleCategory: 'fde' as const,
    postedAt: new Date(now - hoursAgo * HOUR),
    active,
  });
  await addJobs(
    db,
    [
      job(co.alpha, 'Alpha', 1),
      job(co.alpha, 'Alpha', 2),
      job(co.alpha, 'Alpha', 30),
      job(co.beta, 'Beta', 3),
      job(co.beta, 'Beta', 4),
      job(co.beta, 'Beta', 5),
      job(co.beta, 'Beta', 6, false),
      job(co.zeta, 'Zeta', 40),
      job(co.acme, 'acme', 50),
    ],
    now,
  );
});
afterAll(async () => t.close());

const json = async (url: string, token?: string) => {
  const res = await t.get(url, token);
  return { res, body: res.json() };
};
const names = (body: { data: { name: string }[] }) => body.data.map((c) => c.name);

describe('GET /companies', () => {
  it('orders by active job count, then name case-insensitively, then id', async () => {
    const { res, body } = await json('/api/v1/companies', t.token);
    expect(res.statusCode).toBe(200);
    expect(body.meta).toEqual({ page: 1, limit: 50, total: 7, totalPages: 1 });
    expect(names(body)).toEqual(['Alpha', 'Beta', 'acme', 'Zeta', 'Mu', 'Twin', 'Twin']);
    const twins = body.data.slice(5).map((c: { id: string }) => c.id);
    expect(twins).toEqual([co.twinA!.id, co.twinB!.id].sort());
    expect(body.data.map((c: { slug: string }) => c.slug)).toContain('twin-2');
  });

  it('carries exactly the spec fields with tags ordered by dimension then value', async () => {
    const { body } = await json('/api/v1/companies?limit=1');
    expect(body.data[0]).toEqual({
      id: co.alpha!.id,
      name: 'Alpha',
      slug: 'alpha',
      domain: 'alpha.com',
      oneLiner: 'Agents for developer onboarding',
      tags: [
        { dimension: 'industry', value: 'Developer Tools', slug: 'developer-tools' },
        { dimension: 'industry', value: 'Healthcare', slug: 'healthcare' },
        { dimension: 'stage', value: 'Series A', slug: 'series-a' },
      ],
    });
    expect(body.meta).toEqual({ page: 1, limit: 1, total: 7, totalPages: 7 });
  });

  it('ORs tag slugs within a dimension and ANDs dimensions', async () => {
    expect(names((await json('/api/v1/companies?industry=developer-tools')).body)).toEqual(['Alpha', 'Beta']);
    expect(names((await json('/api/v1/companies?industry=developer-tools,healthcare')).body)).toEqual([
      'Alpha',
      'Beta',
      'Zeta',
    ]);
    expect(
      names((await json('/api/v1/companies?industry=developer-tools,%20healthcare&stage=series-a')).body),
    ).toEqual(['Alpha', 'Zeta']);
    expect(names((await json('/api/v1/companies?industry=healthcare&stage=series-b')).body)).toEqual([]);
    expect(names((await json('/api/v1/companies?stage=series-b&ai_role=foundation-models')).body)).toEqual([
      'Beta',
    ]);
    expect(names((await json('/api/v1/companies?industry=robotics')).body)).toEqual([]);
    expect(names((await json('/api/v1/companies?industry=Legal')).body)).toEqual(['acme']);
    expect((await json('/api/v1/companies?funding_tier=unknown-tier')).body.meta.total).toBe(0);
    expect((await json('/api/v1/companies?business_model=')).body.meta.total).toBe(7);
  });

  it('filters by category and combines it with tags and search', async () => {
    expect(names((await json('/api/v1/companies?category=enterprise_ai')).body)).toEqual(['acme', 'Zeta']);
    expect(names((await json('/api/v1/companies?category=enterprise_ai&industry=healthcare')).body)).toEqual([
      'Zeta',
    ]);
    expect(names((await json('/api/v1/companies?category=other')).body)).toEqual(['Mu', 'Twin', 'Twin']);
  });

  it('searches through deps.search with filters applied to the shortlist', async () => {
    const exact = await json('/api/v1/companies?search=alpha');
    expect(exact.res.statusCode).toBe(200);
    expect(names(exact.body)[0]).toBe('Alpha');
    expect(exact.body.meta.total).toBe(exact.body.data.length);
    const filtered = await json('/api/v1/companies?search=alpha&category=enterprise_ai');
    // Alpha is the only match, and it is not enterprise_ai: the filter leaves nothing.
    expect(names(filtered.body)).toEqual([]);
    const tagged = await json('/api/v1/companies?search=builds&industry=healthcare,legal&limit=100', t.token);
    expect(tagged.body.data.length, 'the tagged shortlist is not empty').toBeGreaterThan(0);
    for (const c of tagged.body.data) expect(['Zeta', 'acme', 'Alpha']).toContain(c.name);
    expect(names((await json('/api/v1/companies?search=gone')).body)).not.toContain('Gone');
    expect((await json('/api/v1/companies?search=%20')).body.meta.total).toBe(7);
  });

  it('ranks keyword matches over name, one-liner and description (KeywordSearch)', async () => {
    const ks = new KeywordSearch(t.deps.db);
    const byName = async (q: string, filters = {}) => {
      const found = await ks.searchCompanies(q, filters, 100);
      const all = (await json('/api/v1/companies?limit=100', t.token)).body.data as {
        id: string;
        name: string;
      }[];
      return found.map((id) => all.find((c) => c.id === id)?.name);
    };
    expect(await byName('alpha')).toEqual(['Alpha']);
    expect(await byName('onboard')).toEqual(['Alpha']);
    expect(await byName('twi')).toEqual(['Twin', 'Twin']);
    expect(await byName('alpha', { category: 'enterprise_ai' })).toEqual([]);
    expect(await byName('gone')).toEqual([]);
    // Equal ranks fall back to the /companies order.
    expect(await byName('builds')).toEqual(['Beta', 'acme', 'Zeta', 'Mu', 'Twin', 'Twin']);
    expect(await byName('builds', { tags: { industry: ['healthcare', 'legal'] } })).toEqual(['acme', 'Zeta']);
    await t.deps.db.query(
      "UPDATE companies SET description = 'Robotic process automation' WHERE slug = 'mu'",
    );
    await t.deps.db.query(
      "UPDATE companies SET research_summary = 'Leader in robotic arms' WHERE slug = 'beta'",
    );
    expect(await byName('robotic')).toEqual(['Mu', 'Beta']);
  });

  it('clamps page size per tier and enforces the result window', async () => {
    expect((await json('/api/v1/companies')).body.meta.limit).toBe(20);
    expect((await json('/api/v1/companies?limit=1000', t.token)).body.meta.limit).toBe(100);
    expect((await json('/api/v1/companies?limit=100&page=10', t.token)).body.data).toEqual([]);
    const past = await json('/api/v1/companies?limit=100&page=11', t.token);
    expect(past.res.statusCode).toBe(400);
    expect(past.body.error.code).toBe('RESULT_WINDOW_EXCEEDED');
    expect((await json('/api/v1/companies?page=6')).body.error.code).toBe('RESULT_WINDOW_EXCEEDED');
    expect((await json('/api/v1/companies?page=5')).res.statusCode).toBe(200);
  });

  it.each([
    ['industry=Dev%20Tools', 'industry'],
    ['stage=series-a,,series-b', 'stage'],
    ['ai_role=a_b', 'ai_role'],
    ['business_model=-x', 'business_model'],
    ['funding_tier=%24', 'funding_tier'],
    ['category=startup', 'category'],
    ['limit=abc', 'limit'],
    ['page=0', 'page'],
    ['tag=x', 'tag'],
    [`search=${'q'.repeat(201)}`, 'search'],
  ])('rejects %s with 400 naming the parameter', async (query, name) => {
    const { res, body } = await json(`/api/v1/companies?${query}`);
    expect(res.statusCode).toBe(400);
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.error.message).toContain(`'${name}'`);
  });
});

describe('GET /companies/:id', () => {
  it('finds a company by slug (any case) or UUID with full metadata', async () => {
    const bySlug = await json('/api/v1/companies/alpha');
    expect(bySlug.res.statusCode).toBe(200);
    const d = bySlug.body.data;
    expect(d).toMatchObject({
      id: co.alpha!.id,
      name: 'Alpha',
      slug: 'alpha',
      activeJobCount: 3,
      category: 'ai_native',
      website: null,
      description: null,
      foundedYear: null,
      employeeCount: null,
      headquarters: null,
      funding: { summary: null, totalUsd: null },
      socialLinks: {},
      logoUrl: null,
      researchSummary: null,
      active: true,
      sample: false,
    });
    expect(d.tags).toHaveLength(3);
    expect(d.createdAt).toBe(new Date(t.clock.now()).toISOString());
    expect((await json('/api/v1/companies/ALPHA')).body.data.id).toBe(co.alpha!.id);
    expect((await json(`/api/v1/companies/${co.alpha!.id}`)).body.data.slug).toBe('alpha');
    expect((await json('/api/v1/companies/beta')).body.data.activeJobCount).toBe(3);
  });

  it('answers for an inactive company with active: false', async () => {
    const { res, body } = await json('/api/v1/companies/gone');
    expect(res.statusCode).toBe(200);
    expect(body.data).toMatchObject({ name: 'Gone', active: false });
  });

  it('is 404 NOT_FOUND for unknown ids and slugs', async () => {
    for (const id of ['nobody', '00000000-0000-4000-8000-000000000000', 'not a slug']) {
      const { res, body } = await json(`/api/v1/companies/${encodeURIComponent(id)}`);
      expect(res.statusCode, id).toBe(404);
      expect(body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('GET /tags', () => {
  it('groups the tags of active companies under all five dimensions, sorted by value', async () => {
    const { res, body } = await json('/api/v1/tags');
    expect(res.statusCode).toBe(200);
    expect(body.data).toEqual({
      industry: [
        { value: 'Developer Tools', slug: 'developer-tools' },
        { value: 'Healthcare', slug: 'healthcare' },
        { value: 'Legal', slug: 'legal' },
      ],
      stage: [
        { value: 'Series A', slug: 'series-a' },
        { value: 'Series B', slug: 'series-b' },
      ],
      business_model: [],
      ai_role: [{ value: 'Foundation Models', slug: 'foundation-models' }],
      funding_tier: [],
    });
    expect(body.meta).toBeUndefined();
  });
});

describe('GET /stats', () => {
  it('counts active rows and jobs first seen since 00:00 UTC of the injected clock', async () => {
    // Clock: 12:00 UTC. Active jobs first seen 1-5 h ago are today; 30, 40 and 50 h ago are not.
    expect((await json('/api/v1/stats')).body).toEqual({
      data: { totalJobs: 8, totalCompanies: 7, newToday: 5 },
    });
    const saved = t.clock.ms;
    t.clock.ms = Date.UTC(2026, 10, 22, 0, 0, 0);
    expect((await json('/api/v1/stats')).body.data.newToday).toBe(5);
    t.clock.ms = Date.UTC(2026, 10, 23, 0, 0, 0);
    expect((await json('/api/v1/stats')).body.data.newToday).toBe(0);
    t.clock.ms = Date.UTC(2026, 10, 21, 23, 59, 59);
    expect((await json('/api/v1/stats')).body.data.newToday).toBe(6);
    t.clock.ms = saved;
  });
});

describe('catalog write helpers', () => {
  it('slugifies display values', () => {
    expect(slugify('Series A')).toBe('series-a');
    expect(slugify('Health & Life Sciences')).toBe('health-life-sciences');
    expect(slugify('  Über—Café 2.0 ')).toBe('uber-cafe-2-0');
    expect(slugify('$100M to $1B')).toBe('100m-to-1b');
    expect(slugify('!!!')).toBe('');
  });

  it('upserts by domain, keeps the slug, updates only given fields and bumps the catalog version', async () => {
    const db = t.deps.db;
    const before = await readCatalogVersion(db);
    const created = await db.transaction((tx) =>
      upsertCompanyByDomain(
        tx,
        'Delta.example',
        { name: 'Delta', oneLiner: 'First', foundedYear: 2020, socialLinks: { x: 'https://x.com/delta' } },
        t.clock.now(),
      ),
    );
    expect(created).toMatchObject({ slug: 'delta', created: true });
    expect(await readCatalogVersion(db)).toBeGreaterThan(before);
    const again = await db.transaction((tx) =>
      upsertCompanyByDomain(
        tx,
        'delta.example',
        { name: 'Delta Renamed', headquarters: 'Oslo', totalFundingUsd: 12_500_000_000 },
        t.clock.now() + 1000,
      ),
    );
    expect(again).toEqual({ id: created.id, slug: 'delta', created: false });
    const { body } = await json('/api/v1/companies/delta');
    expect(body.data).toMatchObject({
      name: 'Delta Renamed',
      oneLiner: 'First',
      foundedYear: 2020,
      headquarters: 'Oslo',
      funding: { summary: null, totalUsd: 12_500_000_000 },
      socialLinks: { x: 'https://x.com/delta' },
      updatedAt: new Date(t.clock.now() + 1000).toISOString(),
    });
    const clash = await db.transaction((tx) =>
      upsertCompanyByDomain(tx, 'delta.other', { name: 'Delta' }, t.clock.now()),
    );
    expect(clash.slug).toBe('delta-2');
    await expect(
      db.transaction((tx) => upsertCompanyByDomain(tx, 'not a domain', { name: 'X' }, t.clock.now())),
    ).rejects.toThrow(/not a domain/);
  });

  it('replaces tags, creates them on demand and rolls back with the transaction', async () => {
    const db = t.deps.db;
    const id = co.mu!.id;
    await db.transaction((tx) =>
      setCompanyTags(tx, id, [tag('funding_tier', 'Under $100M'), tag('industry', 'Legal')], t.clock.now()),
    );
    let tags = (await json('/api/v1/companies/mu')).body.data.tags;
    expect(tags).toEqual([
      { dimension: 'industry', value: 'Legal', slug: 'legal' },
      { dimension: 'funding_tier', value: 'Under $100M', slug: 'under-100m' },
    ]);
    await db.transaction((tx) => setCompanyTags(tx, id, [tag('industry', 'legal')], t.clock.now()));
    tags = (await json('/api/v1/companies/mu')).body.data.tags;
    expect(tags).toEqual([{ dimension: 'industry', value: 'Legal', slug: 'legal' }]);
    await expect(
      db.transaction(async (tx) => {
        await setCompanyTags(tx, id, [tag('stage', 'Seed')], t.clock.now());
        throw new Error('step failed');
      }),
    ).rejects.toThrow('step failed');
    expect((await json('/api/v1/companies/mu')).body.data.tags).toHaveLength(1);
    expect((await json('/api/v1/companies?stage=seed')).body.meta.total).toBe(0);
    await expect(
      db.transaction((tx) => setCompanyTags(tx, id, [tag('stage', '???')], t.clock.now())),
    ).rejects.toThrow(/slug/);
    await db.transaction((tx) => setCompanyTags(tx, id, [], t.clock.now()));
    expect((await json('/api/v1/companies/mu')).body.data.tags).toEqual([]);
  });

  it('refreshes active job counts, which drive the /companies order', async () => {
    const db = t.deps.db;
    await db.query("UPDATE jobs SET active = false WHERE company_id = $1 AND title LIKE 'Alpha role 1'", [
      co.alpha!.id,
    ]);
    await db.query("UPDATE jobs SET active = false WHERE company_id = $1 AND title LIKE 'Alpha role 2'", [
      co.alpha!.id,
    ]);
    const before = await readCatalogVersion(db);
    await db.transaction((tx) => refreshActiveJobCounts(tx, [co.alpha!.id, co.alpha!.id], t.clock.now()));
    expect(await readCatalogVersion(db)).toBe(before + 1);
    expect((await json('/api/v1/companies/alpha')).body.data.activeJobCount).toBe(1);
    const order = names((await json('/api/v1/companies?limit=3')).body);
    expect(order).toEqual(['Beta', 'acme', 'Alpha']);
  });

  it('lets concurrent catalog writers on one company finish without deadlock', async () => {
    // On PostgreSQL these transactions really overlap (PGlite runs them one after another): company upserts,
    // job inserts (whose trigger takes the version lock) and count refreshes all lock catalog_version first.
    const db = t.deps.db;
    const { id } = await db.transaction((tx) =>
      upsertCompanyByDomain(tx, 'race.example', { name: 'Race' }, t.clock.now()),
    );
    const writers = Array.from({ length: 12 }, (_, i) =>
      db.transaction(async (tx) => {
        if (i % 2 === 0) {
          await upsertCompanyByDomain(tx, 'race.example', { name: 'Race', oneLiner: `v${i}` }, t.clock.now());
          await setCompanyTags(tx, id, [tag('stage', `Series ${i}`)], t.clock.now());
        } else {
          await tx.query(
            `INSERT INTO jobs (company_id, company_name, source, external_id, title, role_category, url, posted_at)
             VALUES ($1, 'Race', 'test', $2, 'Race FDE', 'fde', 'https://race.example/j', now())`,
            [id, `race-${i}`],
          );
        }
        await refreshActiveJobCounts(tx, [id], t.clock.now());
      }),
    );
    await Promise.all(writers);
    expect((await json('/api/v1/companies/race')).body.data.activeJobCount).toBe(6);
  });

  it('exports filter SQL with placeholders numbered from the given index', () => {
    const jobs = jobFilterSql(
      { roleCategories: ['fde', 'csm'], companySlug: 'a', location: '50%', remoteOnly: true },
      3,
    );
    expect(jobs.sql).toBe(
      'j.active AND j.role_category = ANY($3::text[]) AND j.company_id = (SELECT fc.id FROM companies fc WHERE fc.slug = $4) AND lower(j.location) LIKE $5 AND j.remote',
    );
    expect(jobs.params).toEqual([['fde', 'csm'], 'a', '%50\\%%']);
    const companies = companyFilterSql(
      { tags: { stage: ['seed'], industry: ['x', 'y'] }, category: 'other' },
      1,
      'co',
    );
    expect(companies.params).toEqual(['industry', ['x', 'y'], 'stage', ['seed'], 'other']);
    expect(companies.sql.startsWith('co.active AND co.id IN')).toBe(true);
    expect(jobFilterSql({}, 1)).toEqual({ sql: 'j.active', params: [] });
  });
});

describe('GET /companies body', () => {
  it('is byte for byte what the route schema serializer writes, escapes included', async () => {
    const now = t.clock.now();
    await addCompany(
      t.deps.db,
      {
        name: 'Quote "Q" \\ Backslash — Ünïcode 🚀',
        domain: 'escapes.example',
        oneLiner: 'Line\nbreak, tab\t, </script> and \u2028',
        tags: [tag('industry', 'Developer Tools'), tag('stage', 'Seed')],
      },
      now,
    );
    const schema = SerializerSelector()({ PaginationMeta }, {})({
      schema: listOf(CompanyListItemSchema),
      method: 'GET',
      url: '/',
      httpStatus: '200',
    }) as (value: unknown) => string;
    const token = t.token;
    const urls = [
      '/api/v1/companies',
      '/api/v1/companies?limit=2&page=2',
      '/api/v1/companies?industry=developer-tools,healthcare',
      '/api/v1/companies?stage=seed&limit=1',
      '/api/v1/companies?search=quote',
      '/api/v1/companies?industry=no-such-tag',
      '/api/v1/companies?page=4&limit=20',
    ];
    let items = 0;
    for (const url of urls) {
      for (const auth of [undefined, token]) {
        // Twice: the second body reuses each item's JSON from the first.
        for (let round = 0; round < 2; round++) {
          const res = await t.get(url, auth);
          expect(res.statusCode, url).toBe(200);
          expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
          const parsed = JSON.parse(res.body) as { data: unknown[] };
          expect(res.body, url).toBe(schema(parsed));
          items += parsed.data.length;
        }
      }
    }
    expect(items).toBeGreaterThan(20);
    expect((await t.get('/api/v1/companies?search=quote')).body).toContain('Quote \\"Q\\" \\\\ Backslash');
  });
});
