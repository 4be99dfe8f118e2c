import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { addCompany, addJobs } from './fixtures.js';

/**
 * Delta sync through HTTP: a client mirrors the catalog's active jobs with updated_since / after_id alone
 * (docs/catalog.md, "Mirroring the catalog"), through creations, changes, a company rename and closures, and
 * its mirror equals the full listing after each round.
 */

let t: TestApp;
const LIMIT = 20;

interface Item {
  id: string;
  title: string;
  company: { name: string; slug: string };
  active?: boolean;
  updatedAt?: string;
  [field: string]: unknown;
}
interface Page {
  data: Item[];
  meta: { total: number };
}

const get = async (query: string): Promise<Page> => {
  const res = await t.get(`/api/v1/jobs?${query}`, t.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** The client's side: a map of active jobs and a cursor, as docs/catalog.md describes it. */
class Mirror {
  readonly jobs = new Map<string, Item>();
  private cursor = { since: '1970-01-01T00:00:00.000Z', afterId: undefined as string | undefined };
  requests = 0;

  async sync(): Promise<void> {
    for (;;) {
      const after = this.cursor.afterId ? `&after_id=${this.cursor.afterId}` : '';
      const page = await get(`updated_since=${this.cursor.since}${after}&limit=${LIMIT}`);
      this.requests++;
      for (const { active, updatedAt, ...item } of page.data) {
        if (active) this.jobs.set(item.id, item);
        else this.jobs.delete(item.id);
        this.cursor = { since: updatedAt!, afterId: item.id };
      }
      if (page.data.length < LIMIT) return;
    }
  }
}

/** Every active job as GET /jobs lists it, by id. */
async function everything(): Promise<Map<string, Item>> {
  const out = new Map<string, Item>();
  for (let page = 1; ; page++) {
    const { data } = await get(`limit=50&page=${page}`);
    for (const item of data) out.set(item.id, item);
    if (data.length < 50) return out;
  }
}

let acme: { id: string; slug: string };
let ids: string[] = [];

/** Sets the jobs' updated_at to the test clock, as the pipeline's writers do when they change a job. */
const touch = (where: string, params: unknown[]) =>
  t.deps.db.query(`UPDATE jobs SET ${where}, updated_at = $1 WHERE id = ANY($2::uuid[])`, [
    new Date(t.clock.now()),
    ...params,
  ]);

beforeAll(async () => {
  t = await startTestApp();
  const now = t.clock.now();
  acme = await addCompany(t.deps.db, { name: 'Mirror Acme', domain: 'mirror-acme.ai' }, now);
  const beta = await addCompany(t.deps.db, { name: 'Mirror Beta', domain: 'mirror-beta.ai' }, now);
  // 45 jobs changed at one instant: pages of 20 must continue by id within it.
  ids = await addJobs(
    t.deps.db,
    Array.from({ length: 45 }, (_, i) => ({
      companyId: i % 3 === 0 ? beta.id : acme.id,
      companyName: i % 3 === 0 ? 'Mirror Beta' : 'Mirror Acme',
      title: `Mirror job ${i}`,
      roleCategory: 'fde' as const,
      postedAt: new Date(now - i * 60_000),
    })),
    now,
  );
  await t.deps.db.query('UPDATE jobs SET updated_at = $1', [new Date(now)]);
  await t.deps.db.query('UPDATE companies SET updated_at = $1', [new Date(now)]);
});
afterAll(async () => t.close());

describe('mirroring the catalog with updated_since', () => {
  it('converges through creations, changes, a rename and closures', async () => {
    const mirror = new Mirror();
    await mirror.sync();
    expect(mirror.requests).toBe(3);
    expect(mirror.jobs).toEqual(await everything());

    // Round 2: one job retitled, two closed, one new, the other company renamed.
    t.clock.advance(60_000);
    await touch(`title = 'Retitled job'`, [[ids[1]]]);
    await touch('active = false', [[ids[2], ids[4]]]);
    const [fresh] = await addJobs(
      t.deps.db,
      [
        {
          companyId: acme.id,
          companyName: 'Mirror Acme',
          title: 'New job',
          roleCategory: 'csm',
          postedAt: new Date(t.clock.now()),
        },
      ],
      t.clock.now(),
    );
    await touch('active = true', [[fresh]]);
    await t.deps.db.query(
      `UPDATE companies SET name = 'Mirror Beta Renamed', updated_at = $1 WHERE slug <> $2`,
      [new Date(t.clock.now()), acme.slug],
    );
    const before = mirror.requests;
    await mirror.sync();
    expect(mirror.jobs).toEqual(await everything());
    expect(mirror.jobs.get(ids[1]!)?.title).toBe('Retitled job');
    expect(mirror.jobs.has(ids[2]!)).toBe(false);
    expect(mirror.jobs.get(ids[0]!)?.company.name).toBe('Mirror Beta Renamed');
    // Only what changed was read: 1 + 2 + 1 + the 15 jobs of the renamed company, in one page.
    expect(mirror.requests - before).toBe(1);

    // Round 3: nothing changed, one request with an empty page.
    await mirror.sync();
    expect(mirror.jobs).toEqual(await everything());
  });

  it('lists closed jobs with active: false, oldest change first, and pages by keyset', async () => {
    const page = await get('updated_since=1970-01-01&limit=50');
    const closed = page.data.filter((j) => j.active === false).map((j) => j.id);
    expect(closed.sort()).toEqual([ids[2], ids[4]].sort());
    const keys = page.data.map((j) => `${j.updatedAt} ${j.id}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('refuses after_id without updated_since, updated_since with search, and a bad instant', async () => {
    for (const [query, name] of [
      [`after_id=${ids[0]}`, 'after_id'],
      ['updated_since=2026-01-01T00:00:00Z&search=engineer', 'updated_since'],
      ['updated_since=last-week', 'updated_since'],
    ] as const) {
      const res = await t.get(`/api/v1/jobs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.message).toContain(`'${name}'`);
    }
  });
});
