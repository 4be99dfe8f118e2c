import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleCategory } from '../../src/catalog/types.js';
import { joinWordForms } from '../../src/search/query/word-forms.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { addSearchCompany, addSearchJobs, listed } from './search-jobs.js';

/**
 * Words as people type them: a compound hyphenated, spaced or joined ("Pre-Sales", "pre sales", "presales";
 * "GTM", "go-to-market") is one word in titles and queries alike, and queries describing a role without naming
 * it find that role. Through GET /api/v1/jobs on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  const acme = await addSearchCompany(t, 'Acme Cloud', 'acme.dev');
  // Listed newest first: the jobs each search must find are older than those that merely share a word.
  const jobs: [string, RoleCategory][] = [
    ['Sales Manager', 'sales'],
    ['Market Research Analyst', 'marketing'],
    ['Commerce Partnerships Lead', 'sales'],
    ['Product Designer', 'design'],
    ['Solutions Engineer, Pre-Sales', 'solutions_engineer'],
    ['Sales Engineer (Presales)', 'sales_engineer'],
    ['Pre Sales Consultant', 'sales_engineer'],
    ['Enablement Manager | Post-Sales', 'csm'],
    ['GTM Enablement Manager', 'operations'],
    ['Go-To-Market Strategy Lead', 'operations'],
    ['E-commerce Platform Engineer', 'engineering'],
    ['Implementation Manager', 'implementation'],
    ['Onboarding Specialist', 'implementation'],
  ];
  await addSearchJobs(
    t,
    jobs.map((j) => [acme, ...j]),
  );
});

afterAll(async () => {
  await t?.close();
});

const titles = async (query: string) =>
  (await listed<{ title: string }>(t, `/api/v1/jobs?search=${encodeURIComponent(query)}`)).map(
    (j) => j.title,
  );

const PRESALES = ['Solutions Engineer, Pre-Sales', 'Sales Engineer (Presales)', 'Pre Sales Consultant'];

describe('compounds hyphenated, spaced or joined', () => {
  it.each([
    'presales',
    'pre-sales',
    'pre sales',
    'Pre-Sale',
  ])('"%s" finds every form of pre-sales first', async (q) => {
    const found = await titles(q);
    expect(new Set(found.slice(0, 3))).toEqual(new Set(PRESALES));
  });

  it('go-to-market and its abbreviation are one word', async () => {
    for (const q of ['gtm', 'go-to-market', 'go to market', 'gotomarket']) {
      const found = await titles(q);
      expect(new Set(found.slice(0, 2)), q).toEqual(
        new Set(['GTM Enablement Manager', 'Go-To-Market Strategy Lead']),
      );
    }
    expect((await titles('gtm enablement'))[0]).toBe('GTM Enablement Manager');
  });

  it('post-sales and e-commerce match their joined forms', async () => {
    expect((await titles('postsales'))[0]).toBe('Enablement Manager | Post-Sales');
    expect((await titles('ecommerce'))[0]).toBe('E-commerce Platform Engineer');
    expect((await titles('e-commerce engineer'))[0]).toBe('E-commerce Platform Engineer');
  });

  it('gives the joined form to a full-text path as text', () => {
    expect(joinWordForms('Solutions Engineer, Pre-Sales (GTM) – E-Commerce')).toBe(
      'Solutions Engineer, presales (gotomarket) – ecommerce',
    );
    // Only spaces and dashes join the parts: "pre, sales" stays two words.
    expect(joinWordForms('pre, sales')).toBe('pre, sales');
  });
});

describe('roles described without naming them', () => {
  it('a technical person who demos the product to prospects is a sales or solutions engineer', async () => {
    const found = await titles('technical person who demos the product to prospects');
    expect(PRESALES).toContain(found[0]);
    expect(found.slice(0, 3).every((x) => PRESALES.includes(x))).toBe(true);
  });

  it('helping customers get set up is implementation and onboarding', async () => {
    const found = await titles('help customers get set up');
    expect(new Set(found.slice(0, 2))).toEqual(new Set(['Implementation Manager', 'Onboarding Specialist']));
  });
});
