import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { upsertCompanyByDomain } from '../../src/catalog/company-writes.js';
import { setCompanyTags, type TagInput } from '../../src/catalog/tags.js';
import { ROLE_CATEGORIES } from '../../src/catalog/vocabulary.js';
import { parseConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { planHistory, seededRandom, writeHistory } from '../../src/signals/history.js';
import { ReplicaSignalReads } from '../../src/signals/replica/replica-reads.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

/**
 * The in-process copy of the hiring rollups answers exactly what SQL answers: random histories (companies tracked
 * from random days, some delisted, carrying random stage and industry tags, one with nothing on record), then
 * random company series and trends (intervals, ranges, role filters, per-category series, the role mix, tag and
 * category filters) asked through the HTTP surface of two apps on one database: one reading the copy
 * (READ_MODEL=memory, checked to have answered each read itself), one reading SQL.
 */

const DAY = 86_400_000;
const clock = new TestClock(Date.UTC(2026, 10, 22, 12));
const STAGES = ['seed', 'growth', 'public'];
const INDUSTRIES = ['legal', 'insurance', 'healthcare', 'retail'];

let t: TestApp;
let sqlDeps: Deps;
let sqlApp: FastifyInstance;
let memory: ReplicaSignalReads;
const companies: { id: string; slug: string }[] = [];

async function addCompany(seed: number, c: number, random: () => number): Promise<string> {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  const { id } = await t.deps.db.transaction((tx) =>
    upsertCompanyByDomain(tx, `s${seed}c${c}.example`, { name: `Seed ${seed} Company ${c}` }, clock.now()),
  );
  const [row] = await t.deps.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [id]);
  companies.push({ id, slug: row?.slug as string });
  const tags: TagInput[] = [{ dimension: 'stage', value: pick(STAGES) }];
  for (const value of INDUSTRIES) if (random() < 0.4) tags.push({ dimension: 'industry', value });
  await t.deps.db.transaction((tx) => setCompanyTags(tx, id, tags, clock.now()));
  return id;
}

async function writeCatalog(seed: number): Promise<void> {
  const random = seededRandom(seed);
  for (let c = 0; c < 14; c++) {
    const id = await addCompany(seed, c, random);
    if (c === 13) continue; // nothing on record
    const trackedFromMs = clock.now() - Math.floor(60 + random() * 700) * DAY;
    const jobs = planHistory(
      {
        trackedFromMs: trackedFromMs - (trackedFromMs % DAY) + Math.floor(random() * 20) * 3_600_000,
        nowMs: clock.now(),
        initialJobs: Math.floor(random() * 6),
        weeklyOpenings: random() * 3,
        clientFacingShare: [random() * 0.3, 0.2 + random() * 0.5],
      },
      random,
    );
    const history = {
      companyId: id,
      companyName: `Seed ${seed} Company ${c}`,
      externalPrefix: `h${seed}-${c}-`,
      urlBase: `https://s${seed}c${c}.example/jobs`,
      jobs,
    };
    await t.deps.db.transaction((tx) => writeHistory(tx, [history]));
    if (random() < 0.2) await t.deps.db.query('UPDATE companies SET active = false WHERE id = $1', [id]);
  }
}

/** A random series query string: interval, range, role filter, per-category series. */
function seriesQuery(random: () => number): string[] {
  const interval = ['day', 'week', 'month'][Math.floor(random() * 3)] as string;
  const span = interval === 'day' ? 366 : 1830;
  const toBack = Math.floor(random() * 120);
  const from = Math.floor(toBack + random() * (span - toBack));
  const day = (back: number) => new Date(clock.now() - back * DAY).toISOString().slice(0, 10);
  const q = [`interval=${interval}`, `from=${day(from)}`];
  if (random() < 0.5) q.push(`to=${day(toBack)}`);
  const role = random();
  if (role < 0.3) q.push('client_facing=true');
  else if (role < 0.5)
    q.push(`role_category=${ROLE_CATEGORIES[Math.floor(random() * ROLE_CATEGORIES.length)]}`);
  else if (role < 0.6) q.push('client_facing=true', 'role_category=fde');
  if (random() < 0.3) q.push('by=role_category');
  return q;
}

function trendsFilter(random: () => number): string[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  const share = random() < 0.5 ? ['share=client_facing'] : [];
  const r = random();
  if (r < 0.3) return share;
  if (r < 0.5) return [...share, `stage=${pick(STAGES)}`];
  if (r < 0.7) return [...share, `industry=${pick(INDUSTRIES)},${pick(INDUSTRIES)}`];
  if (r < 0.8) return [...share, `industry=${INDUSTRIES.join(',')}`];
  if (r < 0.9) return [...share, `stage=${pick(STAGES)},${pick(STAGES)}`, `industry=${pick(INDUSTRIES)}`];
  return [...share, `category=${pick(['other', 'ai_native'])}`];
}

/** The same URL through both apps: same status and body, the memory app's answered from the copy. */
async function same(url: string): Promise<void> {
  const before = memory.answered;
  const [m, s] = await Promise.all([t.get(url), sqlApp.inject({ method: 'GET', url })]);
  if (m.headers['x-cache'] !== 'hit') expect(memory.answered, `${url} from memory`).toBeGreaterThan(before);
  expect(m.statusCode, url).toBe(s.statusCode);
  expect(m.body, url).toBe(s.body);
}

beforeAll(async () => {
  t = await startTestApp({ clock, env: { READ_MODEL: 'memory' } });
  sqlDeps = await createDeps(
    parseConfig({
      LOG_LEVEL: 'silent',
      READ_MODEL: 'sql',
      CACHE_COHERENCE_MS: '0',
      RATE_LIMIT_ANONYMOUS: '100000',
    }),
    { db: t.deps.db, now: clock.now, deferCatchUp: true },
  );
  sqlApp = await buildApp(sqlDeps);
  await sqlApp.ready();
  memory = t.deps.signals.reads as ReplicaSignalReads;
  expect(memory).toBeInstanceOf(ReplicaSignalReads);
  await writeCatalog(11);
  await writeCatalog(29);
  await memory.warm();
});

afterAll(async () => {
  await sqlApp?.close();
  await sqlDeps?.close();
  await t?.close();
});

/**
 * Reads drawn per test. Each read is a full comparison of two bodies, and the draws are fixed by their seeds: 40
 * series reads take every interval, key form (id, slug, upper-cased slug), role filter and per-category series
 * three times or more; 50 trends reads take each of them and every kind of company filter at least once.
 */
const SERIES_READS = 40;
const TRENDS_READS = 50;

describe('hiring reads from memory', () => {
  it('answer the company series as SQL does', async () => {
    const random = seededRandom(7);
    for (let i = 0; i < SERIES_READS; i++) {
      const c = companies[Math.floor(random() * companies.length)] as (typeof companies)[number];
      const key = random() < 0.3 ? c.id : random() < 0.5 ? c.slug.toUpperCase() : c.slug;
      await same(`/api/v1/companies/${key}/hiring?${seriesQuery(random).join('&')}`);
    }
    await same('/api/v1/companies/no-such-company/hiring');
    await same('/api/v1/companies/00000000-0000-4000-8000-000000000000/hiring');
  });

  it('answer trends, unfiltered and over company filters, as SQL does', async () => {
    const random = seededRandom(8);
    for (let i = 0; i < TRENDS_READS; i++)
      await same(`/api/v1/trends?${[...seriesQuery(random), ...trendsFilter(random)].join('&')}`);
  });

  it('keep answering, without a reload, after a write that leaves the catalog as it was', async () => {
    const loaded = memory.current();
    expect(loaded).toBeDefined();
    // A write statement through the app's database moves the validity token; catalog_version stays.
    await t.deps.db.query('DELETE FROM companies WHERE false');
    expect(memory.current()).toBeUndefined();
    await same(
      `/api/v1/trends?interval=week&from=${new Date(clock.now() - 300 * DAY).toISOString().slice(0, 10)}`,
    );
    expect(memory.current()).toBe(loaded);
  });

  it('step aside for SQL after a write until reloaded, then answer the new rows', async () => {
    const from = new Date(clock.now() - 700 * DAY).toISOString().slice(0, 10);
    const url = `/api/v1/trends?interval=month&from=${from}&share=client_facing`;
    const loaded = memory.current();
    expect(loaded).toBeDefined();
    await writeCatalog(43);
    expect(memory.current()).toBeUndefined();
    const before = memory.answered;
    const [m, s] = await Promise.all([t.get(url), sqlApp.inject({ method: 'GET', url })]);
    expect(memory.answered).toBe(before);
    expect(m.body).toBe(s.body);
    await memory.warm();
    expect(memory.current()).not.toBe(loaded);
    const last = companies[companies.length - 2] as (typeof companies)[number];
    await same(`${url}&stage=seed`);
    await same(`/api/v1/companies/${last.slug}/hiring?interval=week&from=${from}&by=role_category`);
  });
});
