import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleCategory } from '../../src/catalog/types.js';
import { addCompany, addJobs } from '../catalog/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Search that forgives typos in any word, understands company + role queries, and explains itself: through
 * GET /api/v1/jobs on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL; TEST_READ_MODEL=sql runs it
 * with the in-memory read model off).
 */

interface Item {
  id: string;
  title: string;
  company: { name: string };
  highlight?: { title: [number, number][]; company: [number, number][] };
  explain?: { score: number; lists: Record<string, number> };
}

let t: TestApp;
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await startTestApp();
  const now = t.clock.now();
  const companies = [
    ['Anthropic', 'anthropic.com'],
    ['Northwind Robotics', 'northwind.io'],
    ['Globex Data', 'globex.com'],
    // One letter from Anthropic: a corrected match of "anthropic" that must not outrank the exact one.
    ['Anthropix', 'anthropix.dev'],
  ] as const;
  const made: { id: string }[] = [];
  for (const [name, domain] of companies) made.push(await addCompany(t.deps.db, { name, domain }, now));
  const [anthropic, northwind, globex] = made as [{ id: string }, { id: string }, { id: string }];
  const jobs: [{ id: string }, string, string, RoleCategory][] = [
    [northwind, 'Northwind Robotics', 'Kubernetes Platform Engineer', 'engineering'],
    [northwind, 'Northwind Robotics', 'Solutions Engineer', 'solutions_engineer'],
    [globex, 'Globex Data', 'Senior Solutions Engineer', 'solutions_engineer'],
    [globex, 'Globex Data', 'Customer Success Manager', 'csm'],
    [globex, 'Globex Data', 'Platform Engineer', 'engineering'],
    [anthropic, 'Anthropic', 'Senior Accountant', 'finance'],
    [anthropic, 'Anthropic', 'Security Engineer', 'engineering'],
    [anthropic, 'Anthropic', 'Solutions Architect, Applied AI', 'solutions_engineer'],
    [anthropic, 'Anthropic', 'People Partner', 'hr'],
  ];
  await addJobs(
    t.deps.db,
    jobs.map(([c, companyName, title, roleCategory], i) => ({
      companyId: c.id,
      companyName,
      title,
      roleCategory,
      // The misspelled searches' intended jobs are the oldest: recency cannot be what puts them first.
      postedAt: new Date(now - (jobs.length - i) * HOUR),
    })),
    now,
  );
  await t.deps.searchParts.indexer.catchUp();
});

afterAll(async () => {
  await t?.close();
});

async function search(query: string, extra = '', token?: string): Promise<Item[]> {
  const res = await t.get(`/api/v1/jobs?search=${encodeURIComponent(query)}${extra}`, token ?? null);
  expect(res.statusCode).toBe(200);
  return res.json().data as Item[];
}
const titles = (items: Item[]) => items.map((i) => `${i.title} @ ${i.company.name}`);

describe('typo tolerance', () => {
  it('ranks the intended role first for a misspelled role word', async () => {
    const top = titles(await search('solutons engineer')).slice(0, 2);
    expect(top.every((x) => /^(Senior )?Solutions Engineer/.test(x))).toBe(true);
    expect(titles(await search('customer sucess'))[0]).toBe('Customer Success Manager @ Globex Data');
  });

  it('leaves a query of known words as it is: the exact title still ranks first', async () => {
    expect(titles(await search('kubernetes platform engineer'))[0]).toBe(
      'Kubernetes Platform Engineer @ Northwind Robotics',
    );
  });

  it('corrects websearch-syntax queries, which PostgreSQL answers', async () => {
    const found = titles(await search('solutons -senior'));
    expect(found).toContain('Solutions Engineer @ Northwind Robotics');
    expect(found).not.toContain('Senior Solutions Engineer @ Globex Data');
  });
});

describe('company names', () => {
  const companies = async (query: string) => {
    const res = await t.get(`/api/v1/companies?search=${encodeURIComponent(query)}`, null);
    expect(res.statusCode).toBe(200);
    return (res.json().data as { name: string }[]).map((c) => c.name);
  };

  it('finds a company from a misspelled name', async () => {
    expect((await companies('anthropc'))[0]).toBe('Anthropic');
    expect((await companies('nortwind robotics'))[0]).toBe('Northwind Robotics');
    // Two letters swapped: too few shared trigrams for the name-similarity list, within two edits.
    expect((await companies('antrhopic'))[0]).toBe('Anthropic');
  });

  it('ranks the exact name above names one letter away', async () => {
    const found = await companies('anthropic');
    expect(found[0]).toBe('Anthropic');
    expect(found).toContain('Anthropix');
    expect((await companies('anthropix'))[0]).toBe('Anthropix');
  });

  it("lists a misspelled company's jobs first in job search", async () => {
    const found = await search('anthropc');
    expect(found.slice(0, 4).every((i) => i.company.name === 'Anthropic')).toBe(true);
  });
});

describe('company + role', () => {
  it("ranks the company's matching role first", async () => {
    const found = titles(await search('anthropic solutions'));
    expect(found[0]).toBe('Solutions Architect, Applied AI @ Anthropic');
  });

  it('a company name alone still lists that company first', async () => {
    const found = await search('anthropic');
    expect(found.slice(0, 4).every((i) => i.company.name === 'Anthropic')).toBe(true);
  });
});

describe('highlights', () => {
  it('marks matched words in the title and company name, corrections and the prefix word included', async () => {
    const [first] = await search('anthropic solutions');
    expect(first!.highlight).toEqual({ title: [[0, 9]], company: [[0, 9]] });
    const corrected = (await search('solutons engineer')).find(
      (i) => i.title === 'Senior Solutions Engineer',
    );
    expect(corrected!.highlight).toEqual({
      title: [
        [7, 16],
        [17, 25],
      ],
      company: [],
    });
    const prefix = (await search('kube')).find((i) => i.title.startsWith('Kubernetes'));
    expect(prefix!.highlight!.title).toEqual([[0, 10]]);
  });

  it('are absent from listings without search', async () => {
    const res = await t.get('/api/v1/jobs', null);
    expect(res.json().data.some((i: Item) => 'highlight' in i || 'explain' in i)).toBe(false);
  });
});

describe('explain', () => {
  it('is refused to anonymous callers, naming the parameter', async () => {
    const res = await t.get('/api/v1/jobs?search=engineer&explain=true', null);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('explain');
  });

  it("gives token callers each job's score and what each list contributed, in rank order", async () => {
    const items = await search('anthropic solutions', '&explain=true', t.token);
    expect(items.length).toBeGreaterThan(0);
    const plain = await search('anthropic solutions', '', t.token);
    expect(items.map((i) => i.id)).toEqual(plain.map((i) => i.id));
    for (const [i, item] of items.entries()) {
      const { score, lists } = item.explain!;
      const sum = Object.values(lists).reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(score, 9);
      for (const name of Object.keys(lists))
        expect(['keyword', 'semantic', 'company', 'place', 'boost']).toContain(name);
      if (i > 0) expect(score).toBeLessThanOrEqual(items[i - 1]!.explain!.score);
    }
    expect(items[0]!.explain!.lists.company).toBeGreaterThan(0);
    expect(plain.some((i) => 'explain' in i)).toBe(false);
  });
});
