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
import { assignJobs, buildCompanies, type CatalogSize, type SynthCompany } from './catalog-model.js';
import { insertCompanies, insertJobs } from './generate.js';
import { insertHistory } from './history.js';
import { Rng } from './prng.js';
import { scrapeCost } from './signals-scrape.js';

/**
 * `npm run bench:signals [-- options]`: the hiring-signal figures on the bench catalog's shape (5,000 companies,
 * 100,000 active jobs, two years of events) without the full bench's embedding and load runs:
 *   - company series and trends, cold (every URL distinct, so no response-cache hit), one client, p50/p99;
 *   - what the rollups' upkeep adds to a whole scrape (signals-scrape.ts: the same scrapes with it on and off).
 *
 * Options: --database-url URL (PostgreSQL; else PGlite in a scratch directory); --data-dir DIR (PGlite kept in DIR:
 * filled on the first run, reused after, so runs compare on one catalog); --reuse (the PostgreSQL database given is
 * already filled); --read-model sql|memory (the catalog's READ_MODEL);
 * --skip-scrape (no scrape cost: it writes, so a kept catalog would change).
 */

const SIZE: CatalogSize = { seed: 20260101, jobs: 100_000, companies: 5_000, inactiveRatio: 0.1 };
const REQUESTS = 300;
const DAY = 86_400_000;
const log = (m: string) => process.stderr.write(`${m}\n`);
const arg = (name: string) =>
  process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : undefined;
const flag = (name: string) => process.argv.includes(`--${name}`);

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
  const config = parseConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    RATE_LIMIT_ANONYMOUS: '10000000',
    READ_MODEL: arg('read-model') ?? 'memory',
  });
  const deps = await createDeps(config, { db, now: () => nowMs, deferCatchUp: true });
  const app = await buildApp(deps);
  await app.ready();
  // With node --expose-gc (NODE_OPTIONS), what the copy keeps is measured after a full collection.
  const gc = (globalThis as { gc?: () => void }).gc;
  const held = async () => {
    // Callbacks queued for the next turn (inject's requests never leave the microtask queue) hold their buffers.
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc?.();
    const m = process.memoryUsage();
    return { rss: m.rss, kept: m.heapUsed + m.arrayBuffers, heap: m.heapTotal };
  };
  const t0 = performance.now();
  await deps.signals.reads.warm();
  log(`read model ${config.readModel}: signal reads warmed in ${Math.round(performance.now() - t0)} ms`);
  const mb = (n: number) => (n / 1e6).toFixed(1);
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
  const industries: number[] = [];
  const dimensions: number[] = [];
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
    const industry = rng.pick([
      'healthcare,insurance',
      'legal,financial-services',
      'insurance,retail-e-commerce',
    ]);
    industries.push(await time(`/api/v1/trends?interval=week&from=${day(364 + i)}&industry=${industry}`));
    const pair = `stage=${stage}&industry=${rng.pick(['healthcare', 'financial-services', 'insurance', 'legal'])}`;
    dimensions.push(await time(`/api/v1/trends?interval=week&from=${day(364 + i)}&${pair}`));
  }
  log(`GET /companies/:id/hiring (52 weeks), cold: ${fmt(company)}`);
  log(`GET /trends (52+ weeks), cold: ${fmt(trends)}`);
  log(`GET /trends?stage=…&client_facing=true (2 years by month), cold: ${fmt(tagged)}`);
  log(`GET /trends?industry=a,b (two industries, 52+ weeks), cold: ${fmt(industries)}`);
  log(`GET /trends?stage=…&industry=… (two dimensions, 52+ weeks), cold: ${fmt(dimensions)}`);
  const m2 = await held();
  log(
    `after the reads: RSS ${mb(m2.rss)} MB, V8 heap ${mb(m2.heap)} MB, heap used + array buffers ${mb(m2.kept)} MB${gc ? ' (after GC)' : ''}`,
  );
  await app.close();
  await deps.close();
}

async function main(): Promise<void> {
  const url = arg('database-url');
  const kept = arg('data-dir');
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'frontline-bench-signals-'));
  const db: Db = url
    ? new PostgresDb({ url, poolSize: 4, statementTimeoutMs: 3_600_000 })
    : await PgliteDb.open(dir);
  // A kept catalog is the one its first run wrote, on the day it ran: the series end on that day.
  const nowMs = Date.now();
  try {
    const t0 = performance.now();
    await migrate(db);
    const [filled] = await db.query<{ n: number; at: Date | null }>(
      'SELECT count(*)::int AS n, max(created_at) AS at FROM companies',
    );
    const reuse = (flag('reuse') || kept !== undefined) && (filled?.n ?? 0) > 0;
    const companies = reuse ? buildCompanies(SIZE) : await fill(db, nowMs);
    const asOf = reuse && filled?.at ? filled.at.getTime() : nowMs;
    log(reuse ? 'catalog reused' : `catalog written in ${Math.round((performance.now() - t0) / 1000)} s`);
    await reads(db, companies, asOf, dir);
    if (flag('skip-scrape')) return;
    const cost = await scrapeCost(db, companies, nowMs, dir);
    const median = (xs: number[]) => pct(xs, 50);
    log(`a company's whole scrape (60-posting board): with rollups ${fmt(cost.withRollups)}`);
    log(`                                   without rollups ${fmt(cost.withoutRollups)}`);
    const share = (median(cost.withRollups) - median(cost.withoutRollups)) / median(cost.withoutRollups);
    log(`rollup upkeep adds ${(share * 100).toFixed(1)}% to a scrape (medians)`);
  } finally {
    await db.close().catch(() => undefined);
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
