import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { companyFacetNames, jobFacetNames } from '../../src/catalog/sql/facets.js';
import { ROLE_CATEGORIES } from '../../src/catalog/types.js';
import { type CatalogManifest, prepareCatalog } from './generate.js';
import type { Rng } from './prng.js';
import { type Child, freePort, spawnChild, waitForOk, waitForWarm } from './processes.js';
import { type Row, timeUrls } from './serial.js';
import { benchServiceEnv } from './service-env.js';
import { API, distinctUrls, locationTerms, UrlFactory } from './urls.js';
import { DEPARTMENTS } from './vocabulary.js';

/**
 * `npm run bench:facets`: facet counts (`facets=`) at the bench catalog's size (100k active jobs, 5,000 companies,
 * the catalog `npm run bench` generates and caches), on PGlite and on PostgreSQL, with the read model on
 * (READ_MODEL=memory, the default) and off (READ_MODEL=sql, for reference). One request at a time over distinct
 * URLs (so the response cache never answers): each job facet alone, all of them together, all of them over a search
 * shortlist (a never-seen search, and a search ranked just before by its URL without facets), and the company
 * facets, each with 0–3 random filters. Reports p50, p99 and max per row.
 * `--service-root DIR` times another checkout's build (dist/main.js) on the same catalogs, in the same sitting.
 */

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CACHE = join(ROOT, '.bench-data');
const DAY_MS = 86_400_000;
const log = (msg: string): void => void process.stderr.write(`${msg}\n`);

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '100000' },
    companies: { type: 'string', default: '5000' },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    databases: { type: 'string', default: 'pglite,postgres' },
    'read-models': { type: 'string', default: 'memory,sql' },
    requests: { type: 'string', default: '200' },
    'service-root': { type: 'string', default: ROOT },
    'skip-build': { type: 'boolean', default: false },
    'generate-only': { type: 'boolean', default: false },
    out: { type: 'string', default: join(ROOT, 'bench/results/latest-facets.md') },
  },
});
const size = { seed: 1, jobs: Number(values.jobs), companies: Number(values.companies), inactiveRatio: 0.1 };
const requests = Number(values.requests);
const serviceRoot = resolve(values['service-root'] as string);
const JOB_FACETS = jobFacetNames();
const COMPANY_FACETS = companyFacetNames();

/** 0–3 distinct /jobs filters drawn from every kind the replica serves, as query parameters. */
function jobFilters(rng: Rng, manifest: CatalogManifest): string[] {
  const anchor = Date.parse(manifest.generatedAt);
  const companies = manifest.companies.filter((c) => c.activeJobCount > 0);
  const locations = locationTerms();
  const draw: Record<string, () => string> = {
    role_category: () => rng.pick(ROLE_CATEGORIES),
    client_facing: () => 'true',
    remote_only: () => 'true',
    company: () => rng.pick(companies).slug,
    location: () => rng.pick(locations),
    department: () => rng.pick(Object.values(DEPARTMENTS)),
    posted_since: () => new Date(anchor - rng.int(120) * DAY_MS).toISOString().slice(0, 10),
    salary_min: () => String(rng.range(100, 300) * 1000),
  };
  const keys = rng.sample(Object.keys(draw), rng.int(4));
  return keys.map((k) => `${k}=${encodeURIComponent(draw[k]!())}`);
}

/** A URL without its `facets` parameter. */
function withoutFacets(url: string): string {
  const u = new URL(url, 'http://x');
  u.searchParams.delete('facets');
  return `${u.pathname}${u.search}`;
}

/** The URL sets measured: distinct URLs (a random page keeps a repeated filter combination a distinct URL). */
function scenarios(
  manifest: CatalogManifest,
): { label: string; urls: string[]; prime?: (url: string) => string }[] {
  const urls = new UrlFactory(manifest);
  const page = (rng: Rng) => `limit=20&page=${rng.range(1, 10)}`;
  const jobs = (label: string, stream: number, facets: readonly string[]) => ({
    label,
    urls: distinctUrls(
      size.seed,
      700 + stream,
      (r) => [`${API}/jobs?facets=${facets.join(',')}`, ...jobFilters(r, manifest), page(r)].join('&'),
      requests,
    ),
  });
  const companyFilters = (rng: Rng) =>
    rng
      .sample(Object.keys(manifest.tags) as (keyof CatalogManifest['tags'])[], rng.int(3))
      .map((d) => `${d}=${rng.pick(manifest.tags[d]).slug}`);
  return [
    ...JOB_FACETS.map((f, i) => jobs(`/jobs?facets=${f}`, i, [f])),
    jobs(`/jobs?facets=${JOB_FACETS.join(',')}`, 20, JOB_FACETS),
    {
      label: `/jobs?search=…&facets=${JOB_FACETS.join(',')}`,
      urls: distinctUrls(size.seed, 721, (r) => `${urls.search(r)}&facets=${JOB_FACETS.join(',')}`, requests),
    },
    {
      // The same shape with each search's ranking made first, by the same URL without facets: the facets' own
      // cost over a search's shortlist, apart from the ranking's (a never-seen search's first ranking is the row
      // above, and bench:search's single-client target).
      label: `/jobs?search=…&facets=${JOB_FACETS.join(',')} (the search ranked just before)`,
      urls: distinctUrls(size.seed, 723, (r) => `${urls.search(r)}&facets=${JOB_FACETS.join(',')}`, requests),
      prime: withoutFacets,
    },
    {
      label: `/companies?facets=${COMPANY_FACETS.join(',')}`,
      urls: distinctUrls(
        size.seed,
        722,
        (r) =>
          [`${API}/companies?facets=${COMPANY_FACETS.join(',')}`, ...companyFilters(r), page(r)].join('&'),
        requests,
      ),
    },
  ];
}

function start(target: { dataDir?: string; databaseUrl?: string }, readModel: string, port: number): Child {
  mkdirSync(CACHE, { recursive: true });
  return spawnChild({
    command: process.execPath,
    args: [join(serviceRoot, 'dist/main.js'), 'serve'],
    env: benchServiceEnv(port, target, CACHE, { READ_MODEL: readModel }),
    logFile: join(CACHE, 'facets-service.log'),
    port,
    cwd: serviceRoot,
  });
}

interface Table {
  database: string;
  readModel: string;
  rows: Row[];
}

async function measure(database: string, readModel: string): Promise<Table> {
  const target =
    database === 'postgres'
      ? { kind: 'postgres' as const, url: values['database-url'] as string }
      : { kind: 'pglite' as const, root: CACHE };
  const prepared = await prepareCatalog(size, target, CACHE, log);
  const child = start(prepared, readModel, await freePort());
  const rows: Row[] = [];
  try {
    // The first search waits for the replica's load (with READ_MODEL=sql it is answered at once).
    await waitForOk(child, `${child.origin}${API}/jobs`, 120_000);
    await waitForOk(child, `${child.origin}${API}/jobs?search=solutions%20engineer`, 600_000);
    await waitForWarm(child, 120_000);
    log(`${database}, READ_MODEL=${readModel}`);
    for (const s of scenarios(prepared.manifest)) {
      // A few of the set first (connections, plans, the listing order), then every URL once.
      await timeUrls(child.origin, s.label, s.urls.slice(0, 5), Infinity, s.prime);
      const row = await timeUrls(child.origin, s.label, s.urls.slice(5), Infinity, s.prime);
      log(`  ${row.label}: p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms`);
      rows.push(row);
    }
  } finally {
    await child.stop();
  }
  return { database, readModel, rows };
}

async function main(): Promise<void> {
  const databases = (values.databases as string).split(',').filter(Boolean);
  if (values['generate-only']) {
    for (const d of databases) {
      const target =
        d === 'postgres'
          ? { kind: 'postgres' as const, url: values['database-url'] as string }
          : { kind: 'pglite' as const, root: CACHE };
      await prepareCatalog(size, target, CACHE, log);
    }
    return;
  }
  if (!values['skip-build'])
    spawnSync('npm', ['run', 'build', '--silent'], { cwd: serviceRoot, stdio: 'inherit' });
  const load = loadavg().map((l) => l.toFixed(1));
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: serviceRoot })
    .stdout.toString()
    .trim();
  const tables: Table[] = [];
  for (const database of databases) {
    for (const readModel of (values['read-models'] as string).split(',').filter(Boolean)) {
      tables.push(await measure(database, readModel));
    }
  }
  const f = (n: number) => n.toFixed(1);
  const report = [
    `# Facet counts: ${size.jobs.toLocaleString('en-US')} active jobs, ${size.companies.toLocaleString('en-US')} companies`,
    '',
    `Run ${new Date().toISOString()} by \`npm run bench:facets\` on commit ${commit}, ${cpus().length} cores ` +
      `(${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GB, load average ${load.join(' ')} at ` +
      `the start (finishing at ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}). One request at a time, ` +
      `${requests - 5} distinct URLs per row after 5 warm-up requests (no response-cache hits); each URL has 0–3 ` +
      'random filters and a page of 20.',
    '',
    ...tables.flatMap((t) => [
      `## ${t.database === 'postgres' ? 'PostgreSQL' : 'PGlite'}, READ_MODEL=${t.readModel}`,
      '',
      '| Request | p50 ms | p99 ms | max ms |',
      '|---|---|---|---|',
      ...t.rows.map((r) => `| ${r.label} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.max)} |`),
      '',
    ]),
  ].join('\n');
  mkdirSync(dirname(values.out as string), { recursive: true });
  writeFileSync(values.out as string, report);
  process.stdout.write(report);
}

await main();
