import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobFilterParams, parseJobFilters, replicaServes } from '../../src/catalog/filters.js';
import type { CatalogReadModel } from '../../src/catalog/read-model.js';
import { JobListing } from '../../src/catalog/replica/listings/job-listing.js';
import { ReplicaReadModel } from '../../src/catalog/replica/read-model.js';
import { ReplicaGate } from '../../src/catalog/replica/replica-gate.js';
import { CatalogService } from '../../src/catalog/service.js';
import { jobFacetNames } from '../../src/catalog/sql/facets.js';
import { placesParams } from '../../src/catalog/sql/job-places.js';
import { SqlReadModel } from '../../src/catalog/sql/sql-read-model.js';
import type { Embedder } from '../../src/search/embedders/types.js';
import { HybridSearch } from '../../src/search/hybrid.js';
import { SqlSearch } from '../../src/search/sql/sql-search.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addCompany } from './fixtures.js';

/**
 * The in-memory replica is an optimisation of the SQL read model, behind the same port: for random small catalogs
 * and random combinations of every declared /jobs filter, pages and windows past the end, the replica read model
 * must answer exactly what the SQL read model answers (items and totals), the replica itself must have answered
 * every combination it serves (no silent fallback), and a search page read through either must be the same and
 * hold only jobs the same filters admit in SQL. Search ranked in memory and search ranked in the database (SEARCH=sql)
 * find the same keyword candidates and the same hybrid shortlist (as a set: its order may differ only where ties
 * break differently), of admitted jobs only; where the database offers no pgvector, the same as memory's with its
 * semantic lists off. Runs on whichever database the suite runs on (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */

let t: TestApp;
let sql: CatalogReadModel;
let replica: CatalogReadModel;
/** The replica's own listing, on the same gate: undefined from it means the replica did not answer. */
let listing: JobListing;
const SHORTLIST = 100;
const BASE = Date.UTC(2026, 10, 20, 12, 0, 0);
const ROLES = ['fde', 'csm', 'engineering', 'sales'] as const;
const PLACES = [
  'Berlin',
  'berlin, DE',
  'Remote',
  'São Paulo',
  'a_b town',
  '',
  'Remote - EMEA',
  'London, UK; Remote - US',
];
// 'İstanbul': the database lower-cases its İ to i, JavaScript to i + a combining dot.
const DEPARTMENTS = ['Sales', 'sales', 'Customer Success', 'Ops', 'İstanbul', 'ÉQUIPE', '', null];
// 'Pre-Sales' and 'Presales': one word in memory and in the database alike (query/word-forms.ts).
const WORDS = ['Forward', 'Deployed', 'Engineer', 'Sales', 'Manager', 'Success', 'Pre-Sales', 'Presales'];

const job = fc.record({
  company: fc.nat({ max: 2 }),
  role: fc.constantFrom(...ROLES),
  place: fc.constantFrom(...PLACES),
  workplace: fc.constantFrom('remote', 'hybrid', 'onsite', 'unknown'),
  department: fc.constantFrom(...DEPARTMENTS),
  // Few distinct minutes (ties) and microseconds inside one millisecond.
  minute: fc.nat({ max: 5 }),
  micros: fc.constantFrom(0, 1, 999),
  // Whole days before BASE's day, most on it (max_age_days counts whole UTC days back from the clock's).
  days: fc.constantFrom(0, 0, 0, 1, 2, 40),
  title: fc.subarray(WORDS, { minLength: 1, maxLength: 3 }),
  active: fc.boolean(),
  pay: fc.option(
    fc.record({
      max: fc.constantFrom(50, 75, 12_500, 150_000),
      period: fc.constantFrom('hour', 'month', 'year'),
      currency: fc.constantFrom('USD', 'EUR'),
    }),
  ),
});

const iso = (minute: number) => new Date(BASE - minute * 60_000).toISOString();
/** A value for every query parameter the /jobs filter declarations read (checked below: none is left out). */
const PARAMS = {
  role_category: fc.constantFrom(...ROLES),
  client_facing: fc.boolean(),
  company: fc.constantFrom('prop-co-0', 'prop-co-1', 'prop-co-2', 'no-such-co'),
  location: fc.constantFrom('berlin', 'REMOTE', 'são', '_', 'a_b', 'x'),
  remote_only: fc.boolean(),
  country: fc.constantFrom('DE', 'germany,us', 'BR', 'gb'),
  region: fc.constantFrom('europe', 'emea', 'latam', 'north_america', 'apac'),
  remote_scope: fc.constantFrom('US', 'emea', 'europe', 'worldwide'),
  workplace: fc.constantFrom('remote', 'hybrid,onsite', 'UNKNOWN', 'onsite , remote', ' , '),
  department: fc.constantFrom(
    'sales',
    'SALES,ops',
    'customer success',
    ' , ',
    'nobody',
    'istanbul',
    'Équipe',
  ),
  posted_since: fc.nat({ max: 6 }).map(iso),
  posted_before: fc.nat({ max: 6 }).map(iso),
  max_age_days: fc.constantFrom(0, 1, 2, 39, 40, 36_500),
  salary_min: fc.constantFrom(0, 100_000, 150_000, 156_000),
  salary_currency: fc.constantFrom('usd', 'EUR'),
  // Rows are written now, long after BASE: the last one admits nothing that was not changed since.
  updated_since: fc.constantFrom(iso(6), iso(0), new Date(Date.now() + 86_400_000).toISOString()),
  after_id: fc.constantFrom('00000000-0000-4000-8000-000000000000', '7fffffff-ffff-4fff-bfff-ffffffffffff'),
};
/** Parameters that only qualify another one, which is refused without it. */
const QUALIFIES: Record<string, string> = { salary_currency: 'salary_min', after_id: 'updated_since' };
type Param = keyof typeof PARAMS;
/**
 * A combination of up to three filters: small catalogs leave few jobs to tell filters apart, and more filters at
 * once mostly select nothing. Each filter alone is checked besides (see singles).
 */
const query = fc
  .uniqueArray(fc.constantFrom(...(Object.keys(PARAMS) as Param[])), { minLength: 1, maxLength: 3 })
  .chain((keys) => fc.record(Object.fromEntries(keys.map((k) => [k, PARAMS[k]]))))
  .map((q) =>
    Object.fromEntries(
      Object.entries(q).filter(([k]) => QUALIFIES[k] === undefined || (QUALIFIES[k] as string) in q),
    ),
  );
/** Any set of the declared job facets. */
const facetSet = fc.subarray(jobFacetNames(), { minLength: 1 });
// Offsets run past the end of every catalog drawn (at most 25 jobs), and past a search's shortlist window.
const page = fc.record({ limit: fc.integer({ min: 1, max: 8 }), offset: fc.nat({ max: 30 }) });

const companies: { id: string; name: string }[] = [];

type Job = typeof job extends fc.Arbitrary<infer T> ? T : never;

async function writeCatalog(jobs: Job[]): Promise<void> {
  const db = t.deps.db;
  await db.query('DELETE FROM jobs');
  await db.transaction(async (tx) => {
    for (const [i, j] of jobs.entries()) {
      const c = companies[j.company]!;
      await tx.query(
        `INSERT INTO jobs (company_id, company_name, source, external_id, title, location, remote, department,
           role_category, url, posted_at, active, salary_min, salary_max, salary_currency, salary_period, salary_source,
           workplace, countries, regions, remote_scopes)
         VALUES ($1, $2, 'test', $3, $4, $5, $6, $7, $8, $9,
                 $10::timestamptz + make_interval(days => -$16::int, secs => $11), $12,
                 $13, $13, $14, $15, CASE WHEN $13::numeric IS NULL THEN NULL ELSE 'structured' END, $17,
                 string_to_array($18, ','), string_to_array($19, ','), string_to_array($20, ','))`,
        [
          c.id,
          c.name,
          `p-${i}`,
          j.title.join(' '),
          j.place,
          j.workplace === 'remote',
          j.department,
          j.role,
          `https://example.com/p/${i}`,
          iso(j.minute),
          j.micros / 1e6,
          j.active,
          j.pay?.max ?? null,
          j.pay?.currency ?? null,
          j.pay?.period ?? null,
          j.days,
          j.workplace,
          ...placesParams([j.place]).map(([p]) => p),
        ],
      );
    }
  });
}

beforeAll(async () => {
  t = await startTestApp({ vector: true });
  for (let i = 0; i < 3; i++) {
    const name = `Prop Co ${i}`;
    const c = await addCompany(t.deps.db, { name, domain: `prop-co-${i}.example` }, t.clock.now());
    companies.push({ id: c.id, name });
  }
  const gate = new ReplicaGate(t.deps.searchParts.replica!, () => `${t.deps.db.writeGeneration}`);
  sql = new SqlReadModel(t.deps.db);
  replica = new ReplicaReadModel(gate, t.deps.db);
  listing = new JobListing(gate);
});
afterAll(async () => t.close());

describe('replica and SQL read models', () => {
  it('draws every declared /jobs filter parameter', () => {
    expect(Object.keys(PARAMS).sort()).toEqual(Object.keys(jobFilterParams()).sort());
  });

  it('give the same listings, totals and search pages for random catalogs and filters', async () => {
    const search = (read: CatalogReadModel) =>
      new CatalogService({ read, search: t.deps.search, now: t.clock.now, shortlist: SHORTLIST });
    const { db } = t.deps;
    const { embedder } = t.deps.searchParts;
    const now = t.clock.now;
    const keywordInMemory = new HybridSearch({
      db,
      index: t.deps.searchParts.replica!,
      embedder,
      mode: 'keyword',
    });
    const keywordInSql = new SqlSearch({ db, embedder, now, mode: 'keyword' });
    const inSql = new SqlSearch({ db, embedder, now });
    // Without pgvector the database ranks keyword lists only: memory's hybrid search with no query vector does too.
    const noVectors: Embedder = {
      id: embedder.id,
      dimension: embedder.dimension,
      maxBatch: embedder.maxBatch,
      embed: () => Promise.reject(new Error('no semantic lists')),
    };
    const inMemory = new HybridSearch({
      db,
      index: t.deps.searchParts.replica!,
      embedder: (await inSql.semantic()) ? embedder : noVectors,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(job, { minLength: 6, maxLength: 25 }),
        fc.array(fc.tuple(query, page, facetSet), { minLength: 1, maxLength: 4 }),
        // With a place word too: the place lists, which the location filter narrows in the database.
        fc.constantFrom(...WORDS.map((w) => w.toLowerCase()), 'sales europe', 'engineer berlin'),
        page,
        async (jobs, cases, word, p0) => {
          await writeCatalog(jobs);
          await t.deps.searchParts.indexer.catchUp();
          // Each combination, and each of its filters alone (a rare filter is then never hidden by the others).
          const singles = cases.flatMap(([q, p, names]) =>
            Object.entries(q)
              .filter(([k]) => QUALIFIES[k] === undefined)
              .map(([k, v]) => {
                const alone: Record<string, unknown> = { [k]: v };
                for (const [qualifier, of] of Object.entries(QUALIFIES)) {
                  if (of === k && qualifier in q) alone[qualifier] = q[qualifier];
                }
                return [alone, p, names] as const;
              }),
          );
          for (const [q, p, names] of [
            ...cases,
            ...singles,
            [{} as Record<string, unknown>, p0, jobFacetNames()] as const,
          ]) {
            const label = JSON.stringify({ q, p, names });
            const filters = parseJobFilters(q, BASE);
            const viaSql = await sql.listJobs(filters, p);
            expect(await replica.listJobs(filters, p), label).toEqual(viaSql);
            if (replicaServes(filters)) expect(await listing.list(filters, p), label).toEqual(viaSql);
            const facetsViaSql = await sql.jobFacets(filters, names);
            expect(await replica.jobFacets(filters, names), label).toEqual(facetsViaSql);
            if (replicaServes(filters))
              expect(await listing.facets(filters, names), label).toEqual(facetsViaSql);
            // Delta sync is refused with a search (400): there is no search page to compare.
            if (q.updated_since !== undefined) continue;
            const admitted = new Set(
              (await sql.listJobs(filters, { limit: 1000, offset: 0 })).items.map((j) => j.id),
            );
            const found = await search(replica).listJobs(filters, word, p, { facets: names });
            expect(found, label).toEqual(await search(sql).listJobs(filters, word, p, { facets: names }));
            // The shortlist's facets came from the replica itself.
            const ids = await t.deps.search.searchJobs(word, filters, SHORTLIST);
            expect(await listing.facets(filters, names, ids), label).toEqual(found.facets);
            for (const item of found.items) expect(admitted.has(item.id), label).toBe(true);
            const candidates = await keywordInMemory.searchJobs(word, filters, SHORTLIST);
            const inDatabase = await keywordInSql.searchJobs(word, filters, SHORTLIST);
            expect(new Set(inDatabase), label).toEqual(new Set(candidates));
            const shortlist = await inSql.searchJobs(word, filters, SHORTLIST);
            for (const id of shortlist) expect(admitted.has(id), label).toBe(true);
            expect(new Set(shortlist), label).toEqual(
              new Set(await inMemory.searchJobs(word, filters, SHORTLIST)),
            );
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
