import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon, { type Request, type Result } from 'autocannon';
import pg from 'pg';
import { cliToken, type ServiceProcess, startProxy, startService } from '../../test/support/fleet.js';
import {
  type OnboardingOutcome,
  onboardingReport,
  type PostStats,
  startOnboardingLoad,
} from './onboarding.js';

/**
 * `npm run bench:load`: two API processes and one worker on PostgreSQL + Redis behind a round-robin proxy, driven
 * by autocannon with a mix of catalog reads, search, /discover batches and onboarding of fake companies (sites
 * and Greenhouse boards on loopback, reached through OUTBOUND_HOST_MAP); then the onboarding runs are followed to
 * their end and checked in the database, and a rate-limit exactness probe runs.
 * Options (environment): LOAD_DURATION_S (60), LOAD_CONNECTIONS (per route, 4), LOAD_ONBOARD_RATE (new companies
 * per second, 0.5), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres; a fresh database is created
 * and dropped), BENCH_REDIS_URL (redis://127.0.0.1:6379/10). Writes bench/results/latest-load.md (a run shorter
 * than 60 s writes latest-load-<N>s.md, so a smoke run never replaces the measurement).
 */

const ROOT = resolve(import.meta.dirname, '../..');
const env = process.env;
const duration = Number(env.LOAD_DURATION_S ?? 60);
const connections = Number(env.LOAD_CONNECTIONS ?? 4);
const server = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/10';
const log = (m: string) => process.stderr.write(`${m}\n`);
const ITEMS_PER_BATCH = 10;
const onboardRate = Number(env.LOAD_ONBOARD_RATE ?? 0.5);
const POSTINGS_PER_COMPANY = 25;
/** How long the bench waits after the load for the last onboardings to finish. */
const SETTLE_MS = 180_000;

interface Route {
  name: string;
  requests: Request[];
  anonymous?: boolean;
}

async function main(): Promise<void> {
  const name = `frontline_load_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(server);
  dbUrl.pathname = `/${name}`;
  const runTag = randomBytes(3).toString('hex');
  // Enough companies that every POST in the run onboards a new one.
  const onboarding = await startOnboardingLoad({
    companies: Math.ceil(duration * onboardRate * 1.5) + 5,
    postings: POSTINGS_PER_COMPANY,
    tag: runTag,
  });
  const common = {
    OUTBOUND_HOST_MAP: Object.entries(onboarding.hostMap)
      .map(([h, o]) => `${h}=${o}`)
      .join(','),
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    LOG_LEVEL: 'warn',
    SAMPLE_DATA: 'true',
    TRUST_PROXY: '127.0.0.1',
    RATE_LIMIT_TOKEN: '10000000',
  };
  const procs: ServiceProcess[] = [];
  try {
    log('starting 1 worker + 2 API processes…');
    procs.push(await startService({ ...common, FRONTLINE_ROLE: 'api' }));
    procs.push(await startService({ ...common, FRONTLINE_ROLE: 'api' }));
    procs.push(await startService({ ...common, DBOS__VMID: 'load-worker-1' }, { command: 'worker' }));
    const proxy = await startProxy(procs.slice(0, 2).map((p) => p.url));
    const token = await cliToken('load', { DATABASE_URL: common.DATABASE_URL });
    const auth = { authorization: `Bearer ${token}` };
    let batch = 0;
    const routes: Route[] = [
      { name: 'GET /jobs', requests: [{ method: 'GET', path: '/api/v1/jobs?limit=50' }] },
      { name: 'GET /companies', requests: [{ method: 'GET', path: '/api/v1/companies?limit=50' }] },
      {
        name: 'GET /jobs?search',
        requests: [{ method: 'GET', path: '/api/v1/jobs?search=customer%20success' }],
      },
      {
        name: 'GET /companies?search',
        requests: [{ method: 'GET', path: '/api/v1/companies?search=forward%20deployed%20engineer' }],
      },
      { name: 'GET /stats', requests: [{ method: 'GET', path: '/api/v1/stats' }] },
      {
        name: 'POST /discover (10 items)',
        requests: [
          {
            method: 'POST',
            path: '/api/v1/discover',
            setupRequest: (req) => {
              const b = batch++;
              const items = Array.from({ length: ITEMS_PER_BATCH }, (_, i) => ({
                source: 'load',
                key: { domain: `load-${runTag}-${b}-${i}.ai` },
              }));
              return {
                ...req,
                headers: { ...auth, 'content-type': 'application/json' },
                body: JSON.stringify({ items }),
              } as Request;
            },
          },
        ],
      },
    ];
    log(
      `load: ${routes.length} routes × ${connections} connections and ${onboardRate} onboardings/s for ${duration} s`,
    );
    const [results, onboardPosts] = await Promise.all([
      Promise.all(
        routes.map((r) =>
          autocannon({
            url: proxy.url,
            connections,
            duration,
            headers: auth,
            requests: r.requests,
            timeout: 30,
          }),
        ),
      ),
      onboarding.drive(proxy.url, auth, onboardRate, duration),
    ]);
    const discoverResult = results[routes.findIndex((r) => r.name.startsWith('POST /discover'))] as Result;
    const okBatches = discoverResult.statusCodeStats['200']?.count ?? 0;
    const client = new pg.Client({ connectionString: common.DATABASE_URL });
    await client.connect();
    const [row] = (
      await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM sightings WHERE source = 'load'`)
    ).rows;
    const stored = row?.n ?? 0;
    log(`load done; waiting for the onboarding runs to end (at most ${SETTLE_MS / 1000} s)…`);
    const onboarded = await onboarding.settle(proxy.url, auth, client, SETTLE_MS);
    await client.end();

    // Rate-limit exactness: per window, one fresh client address sends 30 anonymous requests through the proxy.
    const allowedPerWindow: number[] = [];
    for (let w = 0; w < 3; w++) {
      const ip = `10.${randomBytes(3).join('.')}`;
      let ok = 0;
      for (let i = 0; i < 30; i++) {
        const res = await fetch(`${proxy.url}/api/v1/tags`, { headers: { 'x-forwarded-for': ip } });
        await res.arrayBuffer();
        if (res.status === 200) ok++;
      }
      allowedPerWindow.push(ok);
    }
    await proxy.close();
    writeReport(routes, results, {
      okBatches,
      sentBatches: batch,
      stored,
      allowedPerWindow,
      onboardPosts,
      onboarded,
    });
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await onboarding.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

function writeReport(
  routes: Route[],
  results: Result[],
  w: {
    okBatches: number;
    sentBatches: number;
    stored: number;
    allowedPerWindow: number[];
    onboardPosts: PostStats;
    onboarded: OnboardingOutcome;
  },
): void {
  const rows = routes.map((r, i) => {
    const res = results[i] as Result;
    const fivexx = Object.entries(res.statusCodeStats)
      .filter(([s]) => s.startsWith('5'))
      .reduce((n, [, v]) => n + v.count, 0);
    const codes = Object.entries(res.statusCodeStats)
      .map(([s, v]) => `${s}:${v.count}`)
      .join(' ');
    return `| ${r.name} | ${res.requests.total} | ${res.requests.average.toFixed(0)} | ${res.latency.p50} | ${res.latency.p99} | ${codes} | ${fivexx} | ${res.errors + res.timeouts} |`;
  });
  const p = w.onboardPosts;
  const codes = Object.entries(p.statuses)
    .map(([s, n]) => `${s}:${n}`)
    .join(' ');
  const fivexx = Object.entries(p.statuses)
    .filter(([s]) => s.startsWith('5'))
    .reduce((n, [, v]) => n + v, 0);
  rows.push(
    `| POST /onboard (new company, ${onboardRate}/s) | ${p.requests} | ${(p.requests / duration).toFixed(1)} | ${p.p50} | ${p.p99} | ${codes} | ${fivexx} | ${p.statuses['0'] ?? 0} |`,
  );
  const total = results.reduce((n, r) => n + r.requests.total, 0) + p.requests;
  const expected = w.okBatches * ITEMS_PER_BATCH;
  const md = [
    `# Load: 2 API processes + 1 worker on PostgreSQL + Redis (${new Date().toISOString()})`,
    '',
    `${duration} s, ${connections} connections per route (onboarding: one new company every ${1 / onboardRate} s) ` +
      `through a round-robin proxy; ${cpus().length} CPUs, ` +
      `load average at end ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (shared machine). Total ${total} requests, ${(total / duration).toFixed(0)} req/s.`,
    '',
    '| route | requests | req/s | p50 ms | p99 ms | statuses | 5xx | errors+timeouts |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    // autocannon stops counting at the deadline while up to one request per connection is still in flight: those
    // batches are stored but never acknowledged. No write is lost when every acknowledged batch is stored, nothing
    // beyond what was sent is, and no batch is stored in part.
    `Writes: ${w.okBatches} /discover batches acknowledged (200) and ${w.sentBatches} sent, × ${ITEMS_PER_BATCH} ` +
      `items; ${w.stored} sightings stored after the run: ` +
      (w.stored >= expected && w.stored <= w.sentBatches * ITEMS_PER_BATCH && w.stored % ITEMS_PER_BATCH === 0
        ? `zero lost (${(w.stored - expected) / ITEMS_PER_BATCH} unacknowledged in-flight batches stored whole at the deadline).`
        : `LOST OR PARTIAL WRITES (expected ${expected} to ${w.sentBatches * ITEMS_PER_BATCH}, multiple of ${ITEMS_PER_BATCH}).`),
    '',
    onboardingReport(w.onboarded, onboardRate),
    '',
    `Rate limit (anonymous 20/min, 30 requests per fresh client address through both processes): allowed per window ` +
      `${w.allowedPerWindow.join(', ')} (exact = 20).`,
    '',
  ].join('\n');
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, duration >= 60 ? 'latest-load.md' : `latest-load-${duration}s.md`);
  writeFileSync(file, md);
  process.stdout.write(`${md}\nwritten to ${file}\n`);
}

await main();
