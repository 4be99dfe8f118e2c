import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanyListing, codePointCompare } from '../../src/catalog/replica/listings/company-listing.js';
import { JobListing } from '../../src/catalog/replica/listings/job-listing.js';
import { ReplicaGate } from '../../src/catalog/replica/replica-gate.js';
import { companiesByIds, getCompany, listCompanies } from '../../src/catalog/sql/companies.js';
import { companyFacetNames, companyFacets, jobFacetNames, jobFacets } from '../../src/catalog/sql/facets.js';
import { getJob, jobCardsByIds, jobsByIds, listJobs } from '../../src/catalog/sql/jobs.js';
import type { CompanyFilters, JobFilters } from '../../src/catalog/types.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addCompany } from './fixtures.js';

/**
 * GET /jobs and GET /companies are served from the in-process replica (src/catalog/replica/listings/: the job and
 * company listings) once it is loaded. These tests hold them to the SQL listings (src/catalog/sql/: the
 * definition) row for row, on data built to find differences: posted_at ties and microsecond
 * gaps inside one millisecond, text that needs escaping, case, accents and characters past U+FFFF in names and
 * locations, job-count ties, tag values ordered case-insensitively, inactive rows, renames, and every filter
 * combined with deep pages.
 */

const FILTERS: JobFilters[] = [
  {},
  { roleCategories: ['fde'] },
  { roleCategories: ['fde', 'csm', 'tam'] },
  { roleCategories: [] },
  { remoteOnly: true },
  { location: 'BERLIN' },
  { location: 'são' },
  { location: '%' },
  { location: 'a_b' },
  { companySlug: 'listing-co-1' },
  { companySlug: 'no-such-company' },
  { companySlug: 'listing-co-2', remoteOnly: true, roleCategories: ['fde', 'engineering'] },
  { location: 'remote', roleCategories: ['csm'], remoteOnly: true },
  // Several filters that facets lift at once: counted in one pass over the union of two of their sets.
  { companySlug: 'listing-co-1', location: 'berlin', roleCategories: ['fde', 'csm'] },
  { location: 'remote', roleCategories: ['fde', 'csm', 'tam'], remoteOnly: true },
];
const PAGES = [
  { limit: 20, offset: 0 },
  { limit: 7, offset: 7 },
  { limit: 50, offset: 100 },
  { limit: 20, offset: 380 },
  { limit: 20, offset: 1000 },
];
const ROLES = ['fde', 'csm', 'tam', 'engineering', 'sales'] as const;
const PLACES = [
  'Berlin',
  'berlin, DE',
  'São Paulo',
  'SAO PAULO',
  'Remote',
  '100% remote',
  'a_b town',
  'ab town',
  '',
];
const TITLES = [
  'Forward Deployed Engineer',
  'Tab\there',
  'Line\nbreak',
  'Back\\slash \\t',
  'CR\rLF',
  'Ünïcode',
];

const COMPANY_FILTERS: CompanyFilters[] = [
  {},
  { category: 'ai_native' },
  { tags: { industry: ['fintech'] } },
  { tags: { industry: ['fintech', 'health'] } },
  { tags: { industry: ['fintech', 'health'], stage: ['seed'] } },
  { tags: { stage: ['no-such-stage'] } },
  { tags: { stage: ['seed'] }, category: 'other' },
];
const COMPANY_PAGES = [
  { limit: 50, offset: 0 },
  { limit: 3, offset: 3 },
  { limit: 5, offset: 20 },
  { limit: 10, offset: 100 },
];
// Case, accents and a character past U+FFFF against one in U+E000..U+FFFF: code point order, not UTF-16 order.
const NAMES = [
  'alpha',
  'Alpha Two',
  'ALPHA b',
  'École',
  'ecole',
  'Zeta',
  'xAI',
  '\u{1D518}nit',
  '\uFF55nit',
  'beta',
];

// Ties on the job count, so the name decides: 'alpha' < 'alpha b' < 'alpha two', 'ecole' < 'école', U+1D518 > U+FF55.
const JOB_COUNTS = [0, 0, 0, 1, 1, 0, 1, 0, 0, 1];

let t: TestApp;
let listing: JobListing;
let companyListing: CompanyListing;

async function expectSameAsSql(label: string): Promise<void> {
  for (const filters of FILTERS) {
    for (const page of PAGES) {
      const fromMemory = await listing.list(filters, page);
      const fromSql = await listJobs(t.deps.db, filters, page);
      // The replica must answer (not defer to SQL), and answer the same.
      expect(fromMemory, `${label} ${JSON.stringify(filters)} ${JSON.stringify(page)}`).toEqual(fromSql);
    }
  }
  for (const filters of COMPANY_FILTERS) {
    for (const page of COMPANY_PAGES) {
      const fromMemory = await companyListing.list(filters, page);
      const fromSql = await listCompanies(t.deps.db, filters, page);
      expect(fromMemory, `${label} companies ${JSON.stringify(filters)} ${JSON.stringify(page)}`).toEqual(
        fromSql,
      );
    }
  }
  const someCompanies = await t.deps.db.query<{ id: string }>(
    'SELECT id FROM companies ORDER BY md5(id::text)',
  );
  const companyIds = [...someCompanies.map((r) => r.id), '00000000-0000-4000-8000-000000000000'];
  expect(await companyListing.itemsByIds(companyIds), `${label} companies by ids`).toEqual(
    await companiesByIds(t.deps.db, companyIds),
  );
  // A search page's hydration: ids in rank order, inactive and unknown ones among them.
  const all = await t.deps.db.query<{ id: string }>('SELECT id FROM jobs ORDER BY md5(id::text) LIMIT 60');
  const ids = [...all.map((r) => r.id), '00000000-0000-4000-8000-000000000000'];
  expect(await listing.itemsByIds(ids), `${label} by ids`).toEqual(await jobsByIds(t.deps.db, ids));
  await expectSameCards(label);
  await expectSameFacets(label, ids, companyIds.slice(0, 5));
}

/** A listing page's cards (pay, first sighting) of every active job; a closed or unknown id sends them to SQL. */
async function expectSameCards(label: string): Promise<void> {
  const db = t.deps.db;
  const active = (await db.query<{ id: string }>('SELECT id FROM jobs WHERE active')).map((r) => r.id);
  expect(await listing.cards(active), `${label} cards`).toEqual(await jobCardsByIds(db, active));
  const [closed] = await db.query<{ id: string }>('SELECT id FROM jobs WHERE NOT active LIMIT 1');
  for (const other of [closed?.id, '00000000-0000-4000-8000-000000000000']) {
    if (other) expect(await listing.cards([...active.slice(0, 3), other]), `${label} cards`).toBeUndefined();
  }
}

/** Every facet, over each filter and over a shortlist (inactive and unknown ids among it), against SQL. */
async function expectSameFacets(label: string, jobIds: string[], companyIds: string[]): Promise<void> {
  const db = t.deps.db;
  for (const filters of FILTERS) {
    for (const within of [undefined, jobIds]) {
      const names = jobFacetNames();
      expect(
        await listing.facets(filters, names, within),
        `${label} facets ${JSON.stringify(filters)}`,
      ).toEqual(await jobFacets(db, filters, names, within));
    }
  }
  for (const filters of COMPANY_FILTERS) {
    for (const within of [undefined, companyIds]) {
      const names = companyFacetNames();
      expect(
        await companyListing.facets(filters, names, within),
        `${label} company facets ${JSON.stringify(filters)}`,
      ).toEqual(await companyFacets(db, filters, names, within));
    }
  }
  await expectSameDetails(label);
}

/** GET /companies/:id from the replica, and GET /jobs/:id with its company from the replica, against SQL. */
async function expectSameDetails(label: string): Promise<void> {
  const db = t.deps.db;
  const companies = await db.query<{ id: string; slug: string }>('SELECT id, slug FROM companies');
  for (const c of companies) {
    const fromSql = await getCompany(db, c.id);
    expect(fromSql).toBeDefined();
    // The replica must answer, by id (any case) and by slug (any case), and answer the same.
    expect(await companyListing.detail(c.id.toUpperCase()), `${label} company ${c.slug}`).toEqual(fromSql);
    expect(await companyListing.detail(c.slug.toUpperCase()), `${label} company ${c.slug}`).toEqual(fromSql);
  }
  expect(await companyListing.detail('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  expect(await companyListing.detail('no-such-company')).toBeUndefined();
  const jobs = await db.query<{ id: string; posted_at: Date; first_seen_at: Date; last_seen_at: Date }>(
    'SELECT id, posted_at, first_seen_at, last_seen_at FROM jobs ORDER BY md5(id::text) LIMIT 60',
  );
  const companyOf = await companyListing.jobCompanies();
  expect(companyOf).toBeDefined();
  for (const j of jobs) {
    const fromSql = await getJob(db, j.id);
    expect(await getJob(db, j.id, companyOf), `${label} job ${j.id}`).toEqual(fromSql);
    // Timestamps read as float8 microseconds show as the driver's own Date would.
    expect(fromSql).toMatchObject({
      postedAt: j.posted_at.toISOString(),
      firstSeenAt: j.first_seen_at.toISOString(),
      lastSeenAt: j.last_seen_at.toISOString(),
    });
  }
}

beforeAll(async () => {
  t = await startTestApp();
  const db = t.deps.db;
  const companies = [];
  for (let i = 0; i < 4; i++) {
    companies.push(
      await addCompany(db, { name: `Listing Co ${i}`, domain: `listing${i}.example` }, t.clock.ms),
    );
  }
  // 400 jobs: posted_at drawn from few milliseconds, so ties and sub-millisecond gaps are common.
  const base = Date.UTC(2026, 10, 20, 9, 0, 0);
  const values: string[] = [];
  const params: unknown[] = [];
  for (let i = 0; i < 400; i++) {
    const c = companies[i % 4]!;
    const micros = ((i * 7919) % 97) * 53; // 97 values over ~5 ms: ties, and gaps inside one millisecond
    const at = new Date(base + Math.floor(micros / 1000))
      .toISOString()
      .replace('Z', `${String(micros % 1000).padStart(3, '0')}Z`);
    const p = params.length;
    values.push(
      `($${p + 1}::uuid, 'Listing Co', 'test', $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::timestamptz, $${p + 9})`,
    );
    params.push(
      c.id,
      `ext-${i}`,
      `${TITLES[i % TITLES.length]} ${i}`,
      PLACES[i % PLACES.length],
      i % 3 === 0,
      ROLES[i % ROLES.length],
      `https://jobs.example/${i}?q=\\t`,
      at,
      i % 11 !== 0,
    );
  }
  await db.query(
    `INSERT INTO jobs (company_id, company_name, source, external_id, title, location, remote, role_category,
       url, posted_at, active) VALUES ${values.join(', ')}`,
    params,
  );
  // Pay ranges whose numeric text has cents, and first sightings inside one millisecond of each other.
  await db.query(
    `UPDATE jobs SET salary_min = 1000.5 + length(external_id), salary_max = 9999999.99, salary_currency = 'EUR',
       salary_period = (ARRAY['year', 'hour', 'day'])[1 + length(title) % 3],
       salary_source = CASE WHEN length(title) % 2 = 0 THEN 'structured' ELSE 'description' END,
       first_seen_at = posted_at + interval '7 microseconds'
     WHERE external_id LIKE 'ext-%7'`,
  );
  // Companies for the /companies order: job-count ties broken by lower(name), tags over several dimensions.
  for (let i = 0; i < NAMES.length; i++) {
    const c = await addCompany(
      db,
      {
        name: NAMES[i]!,
        domain: `order${i}.example`,
        category: i % 3 === 0 ? 'ai_native' : 'other',
        active: i !== 5,
        tags: [
          { dimension: 'industry', value: i % 2 === 0 ? 'Fintech' : 'health' },
          { dimension: 'industry', value: i % 3 === 0 ? 'adtech' : 'Biotech' },
          ...(i % 4 === 0 ? [{ dimension: 'stage' as const, value: 'Seed' }] : []),
        ],
      },
      t.clock.ms,
    );
    await db.query('UPDATE companies SET active_job_count = $2 WHERE id = $1', [c.id, JOB_COUNTS[i]]);
  }
  // Enough companies for several 32-bit words of the listing's bitsets, tags spread across them.
  for (let i = 0; i < 90; i++) {
    const c = await addCompany(
      db,
      {
        name: `Bulk ${String.fromCharCode(97 + (i % 26))} ${i}`,
        domain: `bulk${i}.example`,
        category: i % 4 === 0 ? 'ai_native' : 'other',
        tags: [
          ...(i % 3 === 0 ? [{ dimension: 'industry' as const, value: 'Fintech' }] : []),
          ...(i % 5 === 0 ? [{ dimension: 'industry' as const, value: 'health' }] : []),
          ...(i % 7 < 3 ? [{ dimension: 'stage' as const, value: 'Seed' }] : []),
        ],
      },
      t.clock.ms,
    );
    await db.query('UPDATE companies SET active_job_count = $2 WHERE id = $1', [c.id, (i * 37) % 11]);
  }
  const gate = new ReplicaGate(t.deps.searchParts.replica!, () => `${t.deps.db.writeGeneration}`);
  listing = new JobListing(gate);
  companyListing = new CompanyListing(gate, t.deps.db);
});

afterAll(async () => {
  await t?.close();
});

describe('codePointCompare', () => {
  it('orders by code point where UTF-16 order differs', () => {
    expect(codePointCompare('\u{1D518}', '\uFF55')).toBeGreaterThan(0);
    expect('\u{1D518}' < '\uFF55').toBe(true);
    expect(codePointCompare('a', 'b')).toBeLessThan(0);
    expect(codePointCompare('ab', 'a')).toBeGreaterThan(0);
    expect(codePointCompare('é', 'é')).toBe(0);
  });
});

describe('listings from the in-process replica', () => {
  it('matches the SQL listing for every filter and page', async () => {
    await expectSameAsSql('initial');
  });

  it('stays equal through updates, renames, deactivation, deletes and truncation', async () => {
    const db = t.deps.db;
    // The catalog before the first write is the one the test above compares.
    await db.query(
      `UPDATE jobs SET posted_at = posted_at + interval '3 microseconds' WHERE external_id LIKE 'ext-1%'`,
    );
    await expectSameAsSql('posted_at moved by microseconds');
    await db.query(
      `UPDATE jobs SET url = url || '#moved', title = title || ' (updated)' WHERE external_id LIKE 'ext-2%'`,
    );
    await expectSameAsSql('url and title');
    await db.query(
      `UPDATE jobs SET salary_min = 42, salary_max = 43.25, salary_currency = 'GBP', salary_period = 'week',
         salary_source = 'structured', first_seen_at = first_seen_at - interval '2 days' WHERE external_id LIKE 'ext-4%'`,
    );
    await db.query(
      `UPDATE jobs SET salary_min = NULL, salary_max = NULL, salary_currency = NULL, salary_period = NULL,
         salary_source = NULL WHERE external_id LIKE 'ext-17%'`,
    );
    await expectSameAsSql('pay and first sighting');
    await db.query(
      `UPDATE companies SET name = 'Renamed Co', slug = 'listing-co-renamed' WHERE slug = 'listing-co-1'`,
    );
    await expectSameAsSql('company renamed');
    await db.query(`UPDATE jobs SET active = NOT active WHERE external_id LIKE 'ext-3%'`);
    await expectSameAsSql('activation flipped');
    await db.query(`UPDATE companies SET active_job_count = 7 WHERE slug IN ('zeta', 'beta')`);
    await db.query(`UPDATE companies SET domain = 'moved.example', one_liner = 'Moved' WHERE slug = 'alpha'`);
    await db.query(`UPDATE tags SET value = 'AAA Fintech' WHERE slug = 'fintech'`);
    await expectSameAsSql('job counts, domain and a tag renamed');
    // One column at a time: each must move the feed on its own (migration 0009).
    for (const set of [
      `website = 'https://beta.example'`,
      `description = E'Tab\\there'`,
      'founded_year = 2001',
      'employee_count = 12',
      `headquarters = 'Zürich'`,
      `funding_summary = 'Seed'`,
      'total_funding_usd = 123456789012',
      `social_links = '{"x": "https://x.com/beta"}'`,
      `logo_url = 'https://beta.example/logo.png'`,
      `research_summary = 'Researched'`,
      'is_sample = true',
      `created_at = created_at - interval '1 day'`,
      `updated_at = updated_at + interval '3 microseconds'`,
    ]) {
      await db.query(`UPDATE companies SET ${set} WHERE slug = 'beta'`);
      await expectSameDetails(`company ${set}`);
    }
    await db.query(`DELETE FROM jobs WHERE external_id LIKE 'ext-5%'`);
    await db.query(`DELETE FROM companies WHERE slug = 'listing-co-2'`);
    await expectSameAsSql('deleted and cascaded');
    await db.query('TRUNCATE jobs CASCADE');
    await expectSameAsSql('truncated');
    expect((await listing.list({}, { limit: 20, offset: 0 }))?.total).toBe(0);
  });

  it('serves GET /jobs and shows a committed write on the next request', async () => {
    const before = (await t.get('/api/v1/jobs?limit=1')).json();
    const c = await addCompany(t.deps.db, { name: 'Fresh Co', domain: 'fresh.example' }, t.clock.ms);
    await t.deps.db.query(
      `INSERT INTO jobs (company_id, company_name, source, external_id, title, location, role_category, url, posted_at)
       VALUES ($1, 'Fresh Co', 'test', 'fresh-1', 'Freshest Job', 'Oslo', 'fde', 'https://fresh.example/1', $2)`,
      [c.id, new Date(t.clock.ms + 60_000)],
    );
    const after = (await t.get('/api/v1/jobs?limit=1')).json();
    expect(after.meta.total).toBe(before.meta.total + 1);
    expect(after.data[0]).toMatchObject({
      title: 'Freshest Job',
      company: { slug: 'fresh-co' },
      location: 'Oslo',
    });
  });
});
