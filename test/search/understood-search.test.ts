import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleCategory } from '../../src/catalog/types.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addSearchCompany, addSearchJobs, listed } from './search-jobs.js';

/**
 * Job search that understands what a query asks: the places it names ("solutions engineer london", "remote
 * CSM"), the abbreviations of the lexicon ("PM", "NYC FDE"), the taxonomy's role phrases ("customer-facing"),
 * and titles that fit the whole query best. Through GET /api/v1/jobs on a real database (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL).
 */

interface Item {
  title: string;
  location: string;
  roleCategory: string;
}

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  const acme = await addSearchCompany(t, 'Acme Cloud', 'acme.dev');
  // Listed newest first: each search's intended job is older than the ones it must outrank.
  const jobs: [string, RoleCategory, string][] = [
    ['Solutions Engineer', 'solutions_engineer', 'San Francisco, CA'],
    ['Sales Manager', 'sales', 'London, United Kingdom'],
    ['Customer Success Manager', 'csm', 'New York, NY'],
    ['Product Marketing Manager', 'marketing', 'San Francisco, CA'],
    ['Forward Deployed Engineer', 'fde', 'San Francisco, CA'],
    ['Platform Engineer', 'engineering', 'San Francisco, CA'],
    ['Work Experience Intern', 'other', 'Paris, France'],
    ['Solutions Engineer', 'solutions_engineer', 'London, United Kingdom'],
    ['Customer Success Manager', 'csm', 'Remote - US'],
    ['Product Manager, Growth', 'product', 'San Francisco, CA'],
    ['Forward Deployed Engineer', 'fde', 'New York, NY'],
    ['Sales Engineer', 'sales_engineer', 'Austin, TX'],
  ];
  await addSearchJobs(
    t,
    jobs.map((j) => [acme, ...j]),
  );
});

afterAll(async () => {
  await t?.close();
});

const search = (query: string) => listed<Item>(t, `/api/v1/jobs?search=${encodeURIComponent(query)}`);
const where = (i: Item | undefined) => i && `${i.title} @ ${i.location}`;

describe('places', () => {
  it('ranks the role at the place named first, the role elsewhere before other jobs there', async () => {
    const found = (await search('solutions engineer london')).map(where);
    expect(found[0]).toBe('Solutions Engineer @ London, United Kingdom');
    expect(found.indexOf('Solutions Engineer @ San Francisco, CA')).toBeLessThan(
      found.indexOf('Sales Manager @ London, United Kingdom') >>> 0,
    );
  });

  it('reads "remote" as remote jobs, and place words are never spelling-corrected', async () => {
    expect(where((await search('remote CSM'))[0])).toBe('Customer Success Manager @ Remote - US');
    // "york" is one letter from "work", a title word: it still names New York.
    expect(where((await search('forward deployed engineer new york'))[0])).toBe(
      'Forward Deployed Engineer @ New York, NY',
    );
  });
});

describe('abbreviations and role phrases', () => {
  it('spells out the lexicon abbreviations, in the order they stand for', async () => {
    expect(where((await search('PM'))[0])).toBe('Product Manager, Growth @ San Francisco, CA');
    expect(where((await search('NYC FDE'))[0])).toBe('Forward Deployed Engineer @ New York, NY');
  });

  it('reads "customer-facing" as the client-facing categories of the taxonomy', async () => {
    const found = await search('customer-facing engineer');
    const platform = found.findIndex((i) => i.title === 'Platform Engineer');
    const clientFacing = found
      .map((i, at) => ({ at, role: i.roleCategory }))
      .filter((x) => ['fde', 'solutions_engineer', 'sales_engineer'].includes(x.role));
    expect(clientFacing.length).toBeGreaterThanOrEqual(3);
    for (const x of clientFacing.slice(0, 3)) expect(platform < 0 || x.at < platform).toBe(true);
  });
});
