import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type CatalogManifest, prepareCatalog } from './generate.js';
import type { Rng } from './prng.js';
import { type Child, freePort, memoryOf, spawnChild, waitForOk, waitForWarm } from './processes.js';
import { searchScenarios, twoProcesses } from './scale-search.js';
import { type RelationSize, scrapeWriteCosts, searchRelationSizes, type WriteCost } from './scale-writes.js';
import { type Row, timeUrls } from './serial.js';
import { benchServiceEnv } from './service-env.js';
import { API, distinctUrls, TOKEN_JOBS, UrlFactory } from './urls.js';
import { DEPARTMENTS } from './vocabulary.js';

/**
 * `npm run bench:scale`: the catalog past one machine's memory. On a PostgreSQL catalog of --jobs / --companies
 * (generated once, as `npm run bench` does), it times each read one request at a time with READ_MODEL=sql (distinct
 * URLs, so the response cache never answers): p50 and p99 per filter, a detail and a search; with --search sql (the
 * default) searches are ranked in the database (SEARCH=sql), and fresh searches (each query asked once) are timed
 * alone, with each filter and with every facet, then on two API processes behind the database, which must answer
 * alike (scale-search.ts). Then, with the read model on, the first answer after a start, the first search (which
 * waits for the replica to load) and RSS.
 */

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CACHE = join(ROOT, '.bench-data');
const DAY_MS = 86_400_000;
const log = (msg: string): void => void process.stderr.write(`${msg}\n`);

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '1000000' },
    companies: { type: 'string', default: '20000' },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    // The generated database's name starts with it (then the cache key), so runs on a shared server keep apart.
    'database-prefix': { type: 'string', default: 'frontline_bench_' },
    requests: { type: 'string', default: '200' },
    restarts: { type: 'string', default: '2' },
    search: { type: 'string', default: 'sql' },
    'skip-build': { type: 'boolean', default: false },
    'generate-only': { type: 'boolean', default: false },
    out: { type: 'string', default: join(ROOT, 'bench/results/latest-scale.md') },
  },
});
const size = { seed: 1, jobs: Number(values.jobs), companies: Number(values.companies), inactiveRatio: 0.1 };
const requests = Number(values.requests);
if (values.search !== 'sql' && values.search !== 'memory') throw new Error('--search takes sql or memory');
/** What the run found besides its timings (the two processes' agreement), printed under the rows. */
const NOTES: string[] = [];
/** The first process's spawn → first answer of each endpoint after /jobs and the first search. */
const FIRST_ANSWERS: { path: string; ms: number }[] = [];
/** Where the READ_MODEL=sql process ranks searches. */
const SEARCH = values.search as 'sql' | 'memory';

/** The URL sets measured: each filter alone on token-tier pages (limit up to 50, window 1,000). */
function scenarios(manifest: CatalogManifest): { label: string; urls: string[] }[] {
  const urls = new UrlFactory(manifest);
  const anchor = Date.parse(manifest.generatedAt);
  const day = (rng: Rng, max: number) => new Date(anchor - rng.int(max) * DAY_MS).toISOString().slice(0, 10);
  const page = (rng: Rng) => `&limit=${rng.pick([10, 20, 50])}&page=${rng.range(1, 20)}`;
  const set = (label: string, stream: number, draw: (rng: Rng) => string) => ({
    label,
    urls: distinctUrls(size.seed, 500 + stream, draw, requests),
  });
  const departments = Object.values(DEPARTMENTS);
  return [
    set('/jobs (plain, pages 1–20)', 1, (r) => `${API}/jobs?${page(r).slice(1)}`),
    set('/jobs?role_category=', 2, (r) => urls.jobs(r, 'role', TOKEN_JOBS)),
    set('/jobs?client_facing=true', 3, (r) => urls.jobs(r, 'client', TOKEN_JOBS)),
    set('/jobs?location=', 4, (r) => urls.jobs(r, 'location', TOKEN_JOBS)),
    set('/jobs?remote_only=true', 5, (r) => urls.jobs(r, 'remote', TOKEN_JOBS)),
    set('/jobs?company=', 6, (r) => urls.jobs(r, 'company', TOKEN_JOBS)),
    set(
      '/jobs?department=',
      7,
      (r) => `${API}/jobs?department=${encodeURIComponent(r.pick(departments))}${page(r)}`,
    ),
    set(
      '/jobs?posted_since= (0–120 days back)',
      8,
      (r) => `${API}/jobs?posted_since=${day(r, 120)}${page(r)}`,
    ),
    set(
      '/jobs?posted_before= (0–120 days back)',
      9,
      (r) => `${API}/jobs?posted_before=${day(r, 120)}${page(r)}`,
    ),
    set(
      '/jobs?salary_min= (USD 150k–300k)',
      10,
      (r) => `${API}/jobs?salary_min=${r.range(150, 300) * 1000}&salary_currency=USD${page(r)}`,
    ),
    // A client polling every hour or so: the instant is up to an hour before the catalog's latest changes (its
    // generation), whose window holds that hour's new jobs, as a live catalog's would.
    set(
      '/jobs?updated_since= (a poll: the last hour)',
      11,
      (r) => `${API}/jobs?updated_since=${new Date(anchor - r.int(3_600_000)).toISOString()}&limit=50`,
    ),
    set('/jobs/:id', 12, (r) => urls.job(r)),
    set('/companies?<tags>', 13, (r) => urls.companies(r)),
    set('/companies/:id', 14, (r) => urls.company(r)),
    set('/jobs?search=', 15, (r) => urls.search(r)),
  ];
}

/** A row stops after this long, so one pathological filter cannot hold the run: its n then says how far it got. */
const ROW_BUDGET_MS = 120_000;

async function start(
  databaseUrl: string,
  readModel: 'sql' | 'memory',
  logName = 'scale-service',
): Promise<Child> {
  const port = await freePort();
  mkdirSync(CACHE, { recursive: true });
  return spawnChild({
    command: process.execPath,
    args: [join(ROOT, 'dist/main.js'), 'serve'],
    env: benchServiceEnv(port, { databaseUrl }, CACHE, {
      READ_MODEL: readModel,
      SEARCH: readModel === 'sql' ? SEARCH : 'memory',
      // The SQL processes run as a fleet's API processes do: the pipeline, its engine and the embedding
      // catch-up run on workers.
      ...(readModel === 'sql' && { FRONTLINE_ROLE: 'api' }),
    }),
    logFile: join(CACHE, `${logName}.log`),
    port,
    cwd: ROOT,
  });
}

/** The other public reads whose first answer a start is timed to (after /jobs and the first search). */
function otherEndpoints(manifest: CatalogManifest): string[] {
  const company = manifest.companies[0]!;
  return [
    `/jobs/${manifest.jobIds[0]}`,
    '/jobs?search=customer%20succ&remote_only=true',
    '/companies',
    `/companies/${company.id}`,
    `/companies?search=${encodeURIComponent(company.name)}`,
    `/companies/${company.id}/hiring`,
    '/stats',
    '/tags',
    '/trends',
    // Newly hiring asks for a category (without one it is a 400); client-facing is what the web page asks.
    '/signals/newly-hiring?client_facing=true',
    '/signals/time-to-close',
  ];
}

/**
 * Spawn to first 2xx on /jobs, and to the first search answered (it waits for the replica's load); with
 * `manifest`, then spawn to the first answer of each other endpoint, one after the other.
 */
async function startTimes(
  databaseUrl: string,
  readModel: 'sql' | 'memory',
  logName?: string,
  manifest?: CatalogManifest,
) {
  const child = await start(databaseUrl, readModel, logName);
  const firstMs = await waitForOk(child, `${child.origin}${API}/jobs`, 120_000);
  const searchMs = await waitForOk(child, `${child.origin}${API}/jobs?search=solutions%20engineer`, 600_000);
  const others: { path: string; ms: number }[] = [];
  for (const path of manifest ? otherEndpoints(manifest) : []) {
    // An endpoint that never answers 2xx is reported as such (NaN), not allowed to stop the run.
    const ms = await waitForOk(child, `${child.origin}${API}${path}`, 30_000).catch(() => Number.NaN);
    others.push({ path, ms });
  }
  if (others.length > 0) FIRST_ANSWERS.push(...others);
  // The rows after this measure the process serving, not finishing its start.
  await waitForWarm(child, 120_000);
  return { child, firstMs, searchMs };
}

interface StartRun {
  readModel: 'sql' | 'memory';
  firstMs: number;
  searchMs: number;
  rssMb: number;
  peakMb: number;
}

/** The 1-minute load average, sampled every 5 s while the bench runs (the machine may be shared). */
class LoadSampler {
  readonly samples: number[] = [loadavg()[0] ?? 0];
  private readonly timer = setInterval(() => this.samples.push(loadavg()[0] ?? 0), 5_000);
  stop(): string {
    clearInterval(this.timer);
    const min = Math.min(...this.samples);
    const max = Math.max(...this.samples);
    const mean = this.samples.reduce((a, b) => a + b, 0) / this.samples.length;
    return `${min.toFixed(1)}–${max.toFixed(1)} (mean ${mean.toFixed(1)}, ${this.samples.length} samples)`;
  }
}

/** Each scenario timed on a READ_MODEL=sql process, one request at a time; then that process's memory. */
async function timeRows(
  databaseUrl: string,
  manifest: CatalogManifest,
): Promise<{ rows: Row[]; start: StartRun }> {
  log(`READ_MODEL=sql on ${size.jobs} jobs`);
  const sql = await startTimes(databaseUrl, 'sql', undefined, manifest);
  const rows: Row[] = [];
  let start: StartRun | undefined;
  try {
    for (const s of [...scenarios(manifest), ...searchScenarios(manifest, size.seed, requests)]) {
      // A few of the set first, so connections and the query plans are warm; then every URL once.
      await timeUrls(sql.child.origin, s.label, s.urls.slice(0, 5));
      const row = await timeUrls(sql.child.origin, s.label, s.urls, ROW_BUDGET_MS);
      row.load = loadavg()[0] ?? 0;
      log(
        `  ${row.label}: p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, load ${row.load.toFixed(1)}`,
      );
      rows.push(row);
    }
    const mem = memoryOf(sql.child.pid);
    start = { readModel: 'sql', ...sql, rssMb: mem?.currentMb ?? 0, peakMb: mem?.peakMb ?? 0 };
    rows.push(...(await secondProcess(databaseUrl, manifest, sql.child.origin, NOTES)));
  } finally {
    await sql.child.stop();
  }
  return { rows, start };
}

/** A second READ_MODEL=sql process beside the first: fresh searches timed on both at once, answers compared. */
async function secondProcess(
  databaseUrl: string,
  manifest: CatalogManifest,
  first: string,
  notes: string[],
): Promise<Row[]> {
  const other = await startTimes(databaseUrl, 'sql', 'scale-service-2');
  try {
    // Terms of their own: a stream no other row draws from.
    const [fresh] = searchScenarios(manifest, size.seed + 1, requests);
    const { rows, same, asked } = await twoProcesses([first, other.child.origin], fresh!.urls);
    for (const row of rows) row.load = loadavg()[0] ?? 0;
    log(`  two processes: ${same} of ${asked} fresh searches answered alike`);
    notes.push(
      `Two processes: ${same} of ${asked} fresh searches listed the same jobs in the same order on both.`,
    );
    return rows;
  } finally {
    await other.child.stop();
  }
}

/** Starts with each read model: spawn to first answer and to first search, then RSS once the listings are built. */
async function timeStarts(databaseUrl: string): Promise<StartRun[]> {
  const runs: StartRun[] = [];
  for (let i = 0; i < Number(values.restarts); i++) {
    const readModel = 'memory';
    const run = await startTimes(databaseUrl, readModel);
    // The listing order is built once the replica is in: ask for it, then read the memory.
    await timeUrls(run.child.origin, 'warm', [`${API}/jobs`, `${API}/jobs?role_category=fde`]);
    const mem = memoryOf(run.child.pid);
    runs.push({
      readModel,
      firstMs: run.firstMs,
      searchMs: run.searchMs,
      rssMb: mem?.currentMb ?? 0,
      peakMb: mem?.peakMb ?? 0,
    });
    log(
      `  ${readModel}: first 2xx ${Math.round(run.firstMs)} ms, first search ${Math.round(run.searchMs)} ms, RSS ${Math.round(mem?.currentMb ?? 0)} MB`,
    );
    await run.child.stop();
  }
  return runs;
}

/** The search indexes' sizes and build times, and a scrape's write cost, as markdown sections. */
function renderDatabase(sizes: RelationSize[], writes: WriteCost[]): string[] {
  const mb = (b: number) => (b / 2 ** 20).toFixed(1);
  return [
    '## Search indexes',
    '',
    '| Relation | size (MB) | build after the load |',
    '|---|---|---|',
    ...sizes.map(
      (s) =>
        `| ${s.name} | ${mb(s.bytes)} | ${s.buildMs === undefined ? '–' : `${(s.buildMs / 1000).toFixed(1)} s`} |`,
    ),
    '',
    "## A scrape's writes (one statement each, rolled back; after a first untimed run)",
    '',
    '| Change | ms with every index | ms without jobs_search_idx | ms per row |',
    '|---|---|---|---|',
    ...writes.map(
      (w) =>
        `| ${w.label} | ${w.ms.toFixed(0)} | ${w.withoutSearchIndexMs.toFixed(0)} | ${(w.ms / w.rows).toFixed(2)} |`,
    ),
    '',
  ];
}

function render(
  manifest: CatalogManifest,
  databaseUrl: string,
  rows: Row[],
  runs: StartRun[],
  load: string,
  database: string[],
): string {
  const f = (n: number) => n.toFixed(1);
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.trim();
  let memoryStart = 0;
  return [
    `# Catalog at scale: ${size.jobs.toLocaleString('en-US')} active jobs, ${size.companies.toLocaleString('en-US')} companies, PostgreSQL`,
    '',
    `Run ${new Date().toISOString()} by \`npm run bench:scale\` on commit ${commit}, ${cpus().length} cores ` +
      `(${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GB. Load average (1 min) during the run: ` +
      `${load}; the machine may be shared, so figures are upper bounds.`,
    `Database ${databaseUrl.replace(/\/\/[^@]*@/, '//')} (${size.jobs + Math.round(size.jobs * size.inactiveRatio)} job rows, ` +
      `10 % closed); generated in ${Math.round(manifest.generationMs.total / 1000)} s.`,
    '',
    `## READ_MODEL=sql: one request at a time, ${requests} distinct URLs each (token tier, no response-cache hits)`,
    '',
    '| Request | p50 ms | p99 ms | max ms | load after |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.label}${r.stopped ? ` (stopped after ${r.n} requests)` : r.n < requests ? ` (${r.n} distinct URLs)` : ''} | ${f(r.p50)} | ` +
        `${f(r.p99)} | ${f(r.max)} | ${f(r.load ?? 0)} |`,
    ),
    '',
    ...NOTES.flatMap((n) => [n, '']),
    ...database,
    '## Start and memory',
    '',
    '| READ_MODEL | spawn → first 2xx on /jobs | spawn → first search (replica loaded) | RSS after (MB) | peak RSS (MB) |',
    '|---|---|---|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.readModel === 'sql' ? 'sql' : `memory (start ${++memoryStart})`} | ${(r.firstMs / 1000).toFixed(2)} s | ` +
        `${(r.searchMs / 1000).toFixed(1)} s | ${Math.round(r.rssMb)} | ${Math.round(r.peakMb)} |`,
    ),
    '',
    ...(FIRST_ANSWERS.length > 0
      ? [
          'The `sql` process, spawn → first 2xx of each other endpoint, asked one after the other after its first ' +
            `search: ${FIRST_ANSWERS.map((a) => `\`${a.path}\` ${Number.isNaN(a.ms) ? 'no 2xx within 30 s' : `${(a.ms / 1000).toFixed(2)} s`}`).join(', ')}.`,
          '',
        ]
      : []),
    'RSS of the `sql` process is read after the rows above; of a `memory` one once the replica is loaded and the ' +
      `listing order built. The \`sql\` process ranks searches ${SEARCH === 'sql' ? 'in the database (SEARCH=sql)' : 'from its in-process replica'}; ` +
      'the `memory` ones from their replica. The two-process rows ran both processes at once.',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const url = values['database-url'] as string;
  const prepared = await prepareCatalog(
    size,
    { kind: 'postgres', url, prefix: values['database-prefix'] as string },
    CACHE,
    log,
  );
  const { manifest } = prepared;
  const databaseUrl = prepared.databaseUrl as string;
  if (values['generate-only']) return log(`catalog ready: ${databaseUrl}`);
  if (!values['skip-build']) spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const load = new LoadSampler();
  const { rows, start } = await timeRows(databaseUrl, manifest);
  const runs = [start, ...(await timeStarts(databaseUrl))];
  log("search index sizes; a scrape's write cost");
  const database = renderDatabase(
    await searchRelationSizes(databaseUrl, manifest.indexBuilds),
    await scrapeWriteCosts(databaseUrl),
  );
  const report = render(manifest, databaseUrl, rows, runs, load.stop(), database);
  mkdirSync(dirname(values.out as string), { recursive: true });
  writeFileSync(values.out as string, report);
  process.stdout.write(report);
}

await main();
