import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJobFilters } from '../../src/catalog/filters.js';
import { jobsByIds, listJobs } from '../../src/catalog/jobs.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addCompany } from './fixtures.js';

/**
 * The in-memory replica is an optimisation of the SQL read model: for random small catalogs and random
 * combinations of every declared /jobs filter, pages and windows, its listings must equal the SQL listings row for
 * row (totals included), and a search must only return jobs the same filters admit in SQL. Runs on whichever
 * database the suite runs on (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */

let t: TestApp;
const BASE = Date.UTC(2026, 10, 20, 12, 0, 0);
const ROLES = ['fde', 'csm', 'engineering', 'sales'] as const;
const PLACES = ['Berlin', 'berlin, DE', 'Remote', 'São Paulo', 'a_b town', ''];
const DEPARTMENTS = ['Sales', 'sales', 'Customer Success', 'Ops', null];
const WORDS = ['Forward', 'Deployed', 'Engineer', 'Sales', 'Manager', 'Success'];

const job = fc.record({
  company: fc.nat({ max: 2 }),
  role: fc.constantFrom(...ROLES),
  place: fc.constantFrom(...PLACES),
  remote: fc.boolean(),
  department: fc.constantFrom(...DEPARTMENTS),
  // Few distinct minutes (ties) and microseconds inside one millisecond.
  minute: fc.nat({ max: 5 }),
  micros: fc.constantFrom(0, 1, 999),
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
const query = fc
  .record(
    {
      role_category: fc.constantFrom(...ROLES),
      client_facing: fc.boolean(),
      company: fc.constantFrom('prop-co-0', 'prop-co-1', 'prop-co-2', 'no-such-co'),
      location: fc.constantFrom('berlin', 'REMOTE', 'são', '_', 'a_b', 'x'),
      remote_only: fc.boolean(),
      department: fc.constantFrom('sales', 'SALES,ops', 'customer success', ' , ', 'nobody'),
      posted_since: fc.nat({ max: 6 }).map(iso),
      posted_before: fc.nat({ max: 6 }).map(iso),
      salary_min: fc.constantFrom(0, 100_000, 150_000, 156_000),
      salary_currency: fc.constantFrom('usd', 'EUR'),
    },
    { requiredKeys: [] },
    // salary_currency qualifies salary_min and is refused alone.
  )
  .map(({ salary_currency, ...q }) => (q.salary_min === undefined ? q : { ...q, salary_currency }));
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
           role_category, url, posted_at, active, salary_min, salary_max, salary_currency, salary_period, salary_source)
         VALUES ($1, $2, 'test', $3, $4, $5, $6, $7, $8, $9, $10::timestamptz + make_interval(secs => $11), $12,
                 $13, $13, $14, $15, CASE WHEN $13::numeric IS NULL THEN NULL ELSE 'structured' END)`,
        [
          c.id,
          c.name,
          `p-${i}`,
          j.title.join(' '),
          j.place,
          j.remote,
          j.department,
          j.role,
          `https://example.com/p/${i}`,
          iso(j.minute),
          j.micros / 1e6,
          j.active,
          j.pay?.max ?? null,
          j.pay?.currency ?? null,
          j.pay?.period ?? null,
        ],
      );
    }
  });
}

beforeAll(async () => {
  t = await startTestApp();
  for (let i = 0; i < 3; i++) {
    const name = `Prop Co ${i}`;
    const c = await addCompany(t.deps.db, { name, domain: `prop-co-${i}.example` }, t.clock.now());
    companies.push({ id: c.id, name });
  }
});
afterAll(async () => t.close());

describe('replica and SQL read models', () => {
  it('give the same listings, totals and filtered search candidates for random catalogs and filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(job, { maxLength: 25 }),
        fc.array(fc.tuple(query, page), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...WORDS.map((w) => w.toLowerCase())),
        async (jobs, cases, word) => {
          await writeCatalog(jobs);
          // Each combination, and each of its filters alone (a rare filter is then never hidden by the others).
          const singles = cases.flatMap(([q, p]) =>
            Object.entries(q)
              .filter(([k]) => k !== 'salary_currency')
              .map(
                ([k, v]) =>
                  [
                    k === 'salary_min'
                      ? { [k]: v, salary_currency: (q as Record<string, unknown>).salary_currency }
                      : { [k]: v },
                    p,
                  ] as const,
              ),
          );
          for (const [q, p] of [...cases, ...singles]) {
            const filters = parseJobFilters(q);
            const viaReplica = await t.deps.catalog.listJobs(filters, undefined, p);
            const viaSql = await listJobs(t.deps.db, filters, p);
            expect(viaReplica, JSON.stringify(q)).toEqual(viaSql);
            const admitted = new Set(
              (await listJobs(t.deps.db, filters, { limit: 1000, offset: 0 })).items.map((j) => j.id),
            );
            const found = await t.deps.catalog.listJobs(filters, word, { limit: 100, offset: 0 });
            for (const item of found.items) expect(admitted.has(item.id), JSON.stringify(q)).toBe(true);
            const ids = found.items.map((j) => j.id);
            expect(found.items).toEqual(await jobsByIds(t.deps.db, ids));
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});
