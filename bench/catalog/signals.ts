import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { parseConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { PgliteDb } from '../../src/db/pglite.js';
import type { Db } from '../../src/db/port.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { createDeps } from '../../src/deps.js';
import { activeBoards, upsertBoards } from '../../src/pipeline/store/boards.js';
import { type ClassifiedPosting, writeBoardPostings } from '../../src/pipeline/store/jobs.js';
import { assignJobs, buildCompanies, type CatalogSize, type SynthCompany } from './catalog-model.js';
import { insertCompanies, insertJobs } from './generate.js';
import { insertHistory } from './history.js';
import { Rng } from './prng.js';

/**
 * `npm run bench:signals [-- --database-url URL]`: the hiring-signal figures on the bench catalog's shape (5,000
 * companies, 100,000 active jobs, two years of events) without the full bench's embedding and load runs:
 *   - company series and trends, cold (every URL distinct, so no response-cache hit), one client, p50/p99;
 *   - what the rollup trigger adds to a day's job writes of a scrape (the same writes with it on and off).
 */

const SIZE: CatalogSize = { seed: 20260101, jobs: 100_000, companies: 5_000, inactiveRatio: 0.1 };
const REQUESTS = 300;
const DAY = 86_400_000;
const log = (m: string) => process.stderr.write(`${m}\n`);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};
const fmt = (xs: number[]) =>
  `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms (n=${xs.length})`;

async function fill(db: Db, nowMs: number): Promise<SynthCompany[]> {
  await migrate(db);
  const companies = buildCompanies(SIZE);
  const owners = assignJobs(SIZE, companies);
  await db.transaction(async (tx) => {
    await insertCompanies(tx, companies, nowMs);
    await insertJobs(tx, SIZE, companies, owners, nowMs, new Set(), [], []);
    const t0 = performance.now();
    const h = await insertHistory(tx, companies, nowMs, SIZE.seed);
    log(
      `history: ${h.historyJobs} closed jobs, ${h.events} events, ${h.rollupRows} rollup rows (${Math.round(performance.now() - t0)} ms)`,
    );
  });
  await db.exec('VACUUM ANALYZE');
  return companies;
}

async function reads(db: Db, companies: SynthCompany[], nowMs: number, dataDir: string): Promise<void> {
  const config = parseConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, RATE_LIMIT_ANONYMOUS: '10000000' });
  const deps = await createDeps(config, { db, now: () => nowMs, deferCatchUp: true });
  const app = await buildApp(deps);
  await app.ready();
  const rng = new Rng(SIZE.seed, 99);
  const time = async (url: string) => {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200 || res.headers['x-cache'] === 'hit')
      throw new Error(`${url}: ${res.statusCode} ${res.headers['x-cache']}`);
    return ms;
  };
  const day = (back: number) => new Date(nowMs - back * DAY).toISOString().slice(0, 10);
  const company: number[] = [];
  const trends: number[] = [];
  const tagged: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    company.push(
      await time(
        `/api/v1/companies/${(companies[i] as SynthCompany).slug}/hiring?interval=week&from=${day(364)}`,
      ),
    );
    trends.push(await time(`/api/v1/trends?interval=week&from=${day(364 + i)}`));
    const stage = rng.pick(['seed', 'series-a', 'series-b', 'growth']);
    tagged.push(
      await time(`/api/v1/trends?interval=month&from=${day(700 - i)}&stage=${stage}&client_facing=true`),
    );
  }
  log(`GET /companies/:id/hiring (52 weeks), cold: ${fmt(company)}`);
  log(`GET /trends (52+ weeks), cold: ${fmt(trends)}`);
  log(`GET /trends?stage=…&client_facing=true (2 years by month), cold: ${fmt(tagged)}`);
  await app.close();
  await deps.close();
}

const posting = (id: string, k: number): ClassifiedPosting => ({
  externalId: id,
  title: `Role ${id}`,
  location: 'Remote',
  remote: true,
  department: null,
  postedAt: null,
  url: `https://jobs.example.com/${id}`,
  descriptionText: 'A posting of the rollup measurement.',
  roleCategory: k % 3 === 0 ? 'fde' : 'engineering',
  classificationRule: 'bench',
});

/** A day's scrape of 60-posting boards (three open, two close) timed with the rollup trigger on, then off. */
async function rollupCost(db: Db, companies: SynthCompany[], nowMs: number): Promise<void> {
  const boards: { id: string; company: SynthCompany; ids: string[] }[] = [];
  for (const c of companies.slice(0, 40)) {
    await db.transaction((tx) =>
      upsertBoards(
        tx,
        c.id,
        [{ provider: 'greenhouse', token: `rollup-${c.slug}`, url: 'https://x' }],
        nowMs,
      ),
    );
    const [b] = await activeBoards(db, c.id);
    boards.push({
      id: (b as { id: string }).id,
      company: c,
      ids: Array.from({ length: 60 }, (_, k) => `${c.slug}-r${k}`),
    });
  }
  const write = (b: (typeof boards)[number], at: number) =>
    db.transaction((tx) =>
      writeBoardPostings(
        tx,
        {
          companyId: b.company.id,
          companyName: b.company.name,
          boardId: b.id,
          provider: 'greenhouse',
          postings: b.ids.map(posting),
        },
        at,
      ),
    );
  for (const b of boards) await write(b, nowMs);
  await db.query('UPDATE boards SET last_scraped_at = $1 WHERE token LIKE $2', [new Date(nowMs), 'rollup-%']);
  const on: number[] = [];
  const off: number[] = [];
  for (let d = 1; d <= 10; d++) {
    const trigger = d % 2 === 0 ? 'ENABLE' : 'DISABLE';
    if (d > 1) await db.query(`ALTER TABLE job_events ${trigger} TRIGGER job_events_hiring_daily`);
    for (const b of boards) {
      b.ids = [...b.ids.slice(2), `${b.ids[0]}-d${d}a`, `${b.ids[0]}-d${d}b`, `${b.ids[0]}-d${d}c`];
      const t0 = performance.now();
      await write(b, nowMs + d * DAY);
      (trigger === 'ENABLE' ? on : off).push(performance.now() - t0);
    }
  }
  await db.query('ALTER TABLE job_events ENABLE TRIGGER job_events_hiring_daily');
  await db.query('SELECT rebuild_hiring_daily()');
  const median = (xs: number[]) => pct(xs, 50);
  log(`a day's job writes of a 60-posting board: with rollups ${fmt(on)}; without ${fmt(off)}`);
  log(
    `rollups add ${(((median(on) - median(off)) / median(off)) * 100).toFixed(1)}% to the job writes (medians)`,
  );
}

async function main(): Promise<void> {
  const url = process.argv.includes('--database-url')
    ? process.argv[process.argv.indexOf('--database-url') + 1]
    : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'frontline-bench-signals-'));
  const db: Db = url
    ? new PostgresDb({ url, poolSize: 4, statementTimeoutMs: 3_600_000 })
    : await PgliteDb.open(dir);
  const nowMs = Date.now();
  try {
    const t0 = performance.now();
    const companies = await fill(db, nowMs);
    log(`catalog written in ${Math.round((performance.now() - t0) / 1000)} s`);
    await reads(db, companies, nowMs, dir);
    await rollupCost(db, companies, nowMs);
  } finally {
    await db.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
