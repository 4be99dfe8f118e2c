/**
 * `npm run bench:fresh-search`: the CPU of one fresh search, in process, on the catalog bench's data. It takes the
 * mixed search row's distinct (query, filters) pairs, warms up on the first 300, then times each stage of the
 * next N (default 2,000) through HybridSearch's stage hook, and prints the mean per stage and the slowest
 * searches. The mixed row at 32 connections is bound by exactly this cost (nearly every request ranks anew).
 *
 *   npm run bench:fresh-search [-- N [SLOWEST]]
 *
 * Uses the bench's default PGlite catalog (100k jobs, seed 1), generating it first when `.bench-data/` has none.
 * Stop any service running on that data directory first: the embedded database belongs to one process.
 */
import { join } from 'node:path';
import { CatalogReplica } from '../../src/catalog/replica/catalog-replica.js';
import { parseConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { PgliteDb } from '../../src/db/pglite.js';
import { jobFilters } from '../../src/http/routes/jobs/list-jobs.js';
import { createEmbedder } from '../../src/search/embedders/index.js';
import { HybridSearch } from '../../src/search/hybrid.js';
import { createSearchParts } from '../../src/search/service.js';
import { prepareCatalog } from './generate.js';
import { buildScenarios } from './scenarios.js';

const count = Number(process.argv[2] ?? 2_000);
const slowest = Number(process.argv[3] ?? 10);
const WARM_UP = 300;
const out = (s: string) => process.stdout.write(`${s}\n`);

// The bench's default catalog, generated once into .bench-data/ as `npm run bench` does.
const root = join(import.meta.dirname, '../../.bench-data');
const size = { seed: 1, jobs: 100_000, companies: 5_000, inactiveRatio: 0.1 };
const { manifest, dataDir } = await prepareCatalog(size, { kind: 'pglite', root }, root, out);
const dir = dataDir as string;
const db = await PgliteDb.open(dir);
await migrate(db);
const embedder = createEmbedder(parseConfig({ DATA_DIR: dir }));
const replica = new CatalogReplica(db, {
  model: embedder.id,
  now: Date.now,
  snapshotPath: join(dir, 'search-index.snapshot'),
});
const parts = createSearchParts({ db, now: Date.now, embedder, replica });
await parts.replica.refresh();

// The mixed search row's URLs (the default 10,000), as the route parses them.
const row = buildScenarios(manifest, 32, 10_000).find((s) => s.id === 'jobs-search:mixed');
const work = new Map<string, [string, ReturnType<typeof jobFilters>]>();
for (const path of row?.paths ?? []) {
  const p = new URL(path, 'http://bench').searchParams;
  const filters = jobFilters(
    {
      role_category: (p.get('role_category') ?? undefined) as never,
      client_facing: p.get('client_facing') === 'true' ? true : undefined,
      location: p.get('location') ?? undefined,
      remote_only: p.get('remote_only') === 'true' ? true : undefined,
    },
    Date.now(),
  );
  const q = p.get('search') as string;
  work.set(`${q}\u0000${JSON.stringify(filters)}`, [q, filters]);
}
const pairs = [...work.values()];

let measuring = false;
let current: Record<string, number> = {};
const stages = new Map<string, number[]>();
const search = new HybridSearch({
  db,
  index: parts.replica,
  embedder: parts.embedder,
  onStage: (stage, ms) => {
    if (!measuring) return;
    current[stage] = ms;
    stages.set(stage, [...(stages.get(stage) ?? []), ms]);
  },
});
for (const [q, f] of pairs.slice(0, WARM_UP)) await search.searchJobs(q, f, 100);
measuring = true;
const timed: { ms: number; what: string }[] = [];
const t0 = performance.now();
for (const [q, f] of pairs.slice(WARM_UP, WARM_UP + count)) {
  current = {};
  const t = performance.now();
  await search.searchJobs(q, f, 100);
  const ms = performance.now() - t;
  const split = Object.entries(current).map(([s, v]) => `${s} ${v.toFixed(1)}`);
  timed.push({ ms, what: `"${q}" ${JSON.stringify(f)}: ${split.join(', ')}` });
}
const total = performance.now() - t0;
const sorted = timed.map((x) => x.ms).sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2);
out(
  `${pairs.length} distinct (query, filters) pairs in the mixed row; ${timed.length} timed after ${WARM_UP}`,
);
out(`fresh search: mean ${(total / timed.length).toFixed(2)} ms, p50 ${pct(0.5)}, p99 ${pct(0.99)}`);
out('stage        runs   mean ms (when run)   ms per search');
for (const [stage, xs] of stages) {
  const sum = xs.reduce((a, b) => a + b, 0);
  out(
    `${stage.padEnd(12)} ${String(xs.length).padStart(5)}   ${(sum / xs.length).toFixed(3).padStart(8)}             ${(sum / timed.length).toFixed(3)}`,
  );
}
if (slowest > 0) {
  out(`slowest ${slowest}:`);
  for (const x of timed.sort((a, b) => b.ms - a.ms).slice(0, slowest))
    out(`  ${x.ms.toFixed(1)} ms ${x.what}`);
}
await parts.stop();
replica.close();
await db.close();
