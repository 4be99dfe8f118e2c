import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { addSearchCompany, addSearchJobs, listed, type SearchJob } from './search-jobs.js';

/**
 * A query whose last word is still being typed ("customer succ", "sol") matches that word as a prefix. Ranked in
 * the database, a list whose words many titles hold walks the newest jobs (its plan chosen from the titles'
 * counts, src/search/sql/title-counts.ts), one whose words are rare goes through the full-text index: either way
 * the list holds every match. Through HTTP on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: { SEARCH: 'sql', READ_MODEL: 'sql' } });
  const nw = await addSearchCompany(t, 'Northwind', 'northwind.example');
  const init = await addSearchCompany(t, 'Initech', 'initech.example');
  const jobs: SearchJob[] = [
    [nw, 'Customer Success Manager', 'csm', 'Remote - US'],
    [init, 'Senior Customer Success Manager', 'csm', 'Berlin, Germany'],
    [nw, 'Customer Support Specialist', 'operations', 'Austin, TX'],
    [init, 'Customer Success Engineer', 'csm', 'Remote - EU'],
    [nw, 'Solutions Engineer', 'solutions_engineer', 'London, United Kingdom'],
    [init, 'Software Engineer', 'engineering', 'Remote - US'],
    [nw, 'Solar Systems Analyst', 'data', 'Denver, CO'],
    [init, 'Kubernetes Engineer', 'engineering', 'Paris, France'],
    [nw, 'Customer Success Lead', 'csm', 'New York, NY'],
    [init, 'Customer Success Director', 'csm', 'Remote - US'],
    [nw, 'Customer Success Associate', 'csm', 'Toronto, Canada'],
    [init, 'Product Designer', 'design', 'Tokyo, Japan'],
  ];
  // Enough other jobs that one title in the catalog is rare (fewer than one job in 16 at this size: src/search/sql/vocabulary.ts):
  // its list takes the full-text index, where six in 82 walk the newest jobs.
  for (let i = 0; i < 70; i++) jobs.push([i % 2 ? nw : init, 'Account Executive', 'sales', 'Chicago, IL']);
  await addSearchJobs(t, jobs);
  // Departments and pay for the filters a list narrows by: the customer success titles, and the Berlin one's pay.
  await t.deps.db.query(
    `UPDATE jobs SET department = 'Customer Success' WHERE title LIKE 'Customer Success%' OR title LIKE 'Senior%'`,
  );
  await t.deps.db.query(
    `UPDATE jobs SET salary_min = 200000, salary_max = 200000, salary_currency = 'USD', salary_period = 'year'
      WHERE title IN ('Senior Customer Success Manager', 'Account Executive')`,
  );
});

afterAll(async () => {
  await t?.close();
});

const titles = async (url: string) => (await listed<{ title: string }>(t, url)).map((d) => d.title);

describe('prefix queries ranked in the database', () => {
  it('lists every job holding the whole words and a word that starts with the last one', async () => {
    const found = await titles('/api/v1/jobs?search=customer%20succ');
    expect(found.slice(0, 6).sort()).toEqual([
      'Customer Success Associate',
      'Customer Success Director',
      'Customer Success Engineer',
      'Customer Success Lead',
      'Customer Success Manager',
      'Senior Customer Success Manager',
    ]);
    // "Customer Support" holds only one of the words: it comes after every job holding both (the any-word list).
    expect(found.slice(6)).toEqual(['Customer Support Specialist']);
  });

  it('applies the filters to the walk of the newest jobs', async () => {
    const found = await titles('/api/v1/jobs?search=customer%20succ&remote_only=true');
    expect(found.sort()).toEqual([
      'Customer Success Director',
      'Customer Success Engineer',
      'Customer Success Manager',
    ]);
  });

  it('plans a common title under a narrowing filter through the filter, keeping the same matches', async () => {
    const csm = await titles('/api/v1/jobs?search=customer%20succ&role_category=csm');
    expect(csm.sort()).toEqual([
      'Customer Success Associate',
      'Customer Success Director',
      'Customer Success Engineer',
      'Customer Success Lead',
      'Customer Success Manager',
      'Senior Customer Success Manager',
    ]);
    const department = await titles('/api/v1/jobs?search=customer%20succ&department=customer%20success');
    expect(department.sort()).toEqual(csm.sort());
    expect(await titles('/api/v1/jobs?search=customer%20succ&salary_min=150000&salary_currency=USD')).toEqual(
      ['Senior Customer Success Manager'],
    );
    // Every "Account Executive" is in sales, which is not client-facing: the filter keeps none of them.
    expect(await titles('/api/v1/jobs?search=account%20exec&client_facing=true')).toEqual([]);
    const paid = await titles('/api/v1/jobs?search=account%20exec&salary_min=150000&salary_currency=USD');
    expect(new Set(paid)).toEqual(new Set(['Account Executive']));
  });

  it('completes a lone prefix to every word it starts', async () => {
    const found = await titles('/api/v1/jobs?search=sol');
    expect(found.sort()).toEqual(['Solar Systems Analyst', 'Solutions Engineer']);
  });

  it('finds a rare title through the full-text index', async () => {
    expect((await titles('/api/v1/jobs?search=kubernetes%20eng'))[0]).toBe('Kubernetes Engineer');
    expect((await titles('/api/v1/jobs?search=product%20desi'))[0]).toBe('Product Designer');
  });
});
