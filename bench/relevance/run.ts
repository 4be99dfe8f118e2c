import { readFileSync, writeFileSync } from 'node:fs';
import { CatalogReplica } from '../../src/catalog/replica/catalog-replica.js';
import { parseConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { PgliteDb } from '../../src/db/pglite.js';
import { createEmbedder } from '../../src/search/embedders/index.js';
import { HybridSearch, type SearchMode } from '../../src/search/hybrid.js';
import { mixResults } from '../../src/search/mixed-results.js';
import { createSearchParts } from '../../src/search/service.js';
import { SqlSearch } from '../../src/search/sql/sql-search.js';
import type { SearchService } from '../../src/search/types.js';
import { MiniSearchBaseline } from './baseline.js';
import { type CatalogFile, judge, load, type Query, type Row } from './load.js';
import { ndcgAt, recallAt, reciprocalRank } from './metrics.js';
import { realCatalog } from './real-catalog.js';

/**
 * `npm run bench:relevance`: for each judged set, loads its catalog into a fresh embedded database, embeds it
 * with the configured embedder (EMBEDDINGS, default static), runs every judged query through the real
 * SearchService in keyword-only, semantic-only and hybrid modes and through the MiniSearch baseline
 * (baseline.ts), and prints nDCG@10, recall@100 and MRR side by side. `--search memory|sql|both` (default both)
 * picks the read models ranked: search in memory over the replica (HybridSearch) and search ranked in the database
 * (SqlSearch, columns `sql-…`; semantic lists only where the database offers pgvector). Relevant (for recall and MRR) means grade
 * >= 2. The sets: `lexicon` (catalog.json, queries.json: written with our role lexicon) and `real` (real-catalog.ts,
 * real-queries.json: 2,200 jobs with real titles, queries judged before any ranking was seen). Writes the tables
 * to bench/results/latest-relevance.md. Exits 1 when hybrid misses a target: on lexicon >= 10% nDCG@10 over
 * keyword-only and no loss on the exact-match subset; on real nDCG@10 >= 0.85; on both >= 0.10 above MiniSearch;
 * with both read models, the database's hybrid nDCG@10 within 0.03 of memory's on every set (the mixed list too).
 */

type Scores = { ndcg: number; recall: number; rr: number };
type Ranker = 'minisearch' | SearchMode | `sql-${SearchMode}`;
const EXACT_KINDS = new Set(['exact_title', 'company']);
const MODES: SearchMode[] = ['keyword', 'semantic', 'hybrid'];
const READ_MODELS = readModels(process.argv);
const RANKERS: Ranker[] = [
  'minisearch',
  ...(READ_MODELS.memory ? MODES : []),
  ...(READ_MODELS.sql ? MODES.map((m): Ranker => `sql-${m}`) : []),
];
/** The ranker whose figures the targets read: memory's hybrid, else the database's. */
const HYBRID: Ranker = READ_MODELS.memory ? 'hybrid' : 'sql-hybrid';
/** Largest nDCG@10 gap allowed between the two read models' hybrid search on any set. */
const READ_MODEL_GAP = 0.03;

function readModels(argv: readonly string[]): { memory: boolean; sql: boolean } {
  const i = argv.indexOf('--search');
  const which = i >= 0 ? argv[i + 1] : 'both';
  if (which !== 'memory' && which !== 'sql' && which !== 'both')
    throw new Error(`--search takes memory, sql or both (got ${which})`);
  return { memory: which !== 'sql', sql: which !== 'memory' };
}
const here = (f: string) => new URL(f, import.meta.url);
const readJson = <T>(f: string) => JSON.parse(readFileSync(here(f), 'utf8')) as T;

interface SetResult {
  name: string;
  queries: Query[];
  results: Map<Ranker, Scores[]>;
  info: string;
  /** The mixed list's table, when the set has mixed queries. */
  mixed: string[];
  /** The mixed list's nDCG@10 (mixed by the query) by read model. */
  mixedNdcg: Map<string, number>;
}

async function runSet(
  name: string,
  catalog: CatalogFile,
  queries: Query[],
  mixedQueries: Query[] = [],
): Promise<SetResult> {
  const config = parseConfig(process.env);
  const now = Date.UTC(2026, 10, 22, 12);
  // pgvector where the database ranks too, as a process searching in the database loads it (src/db/open.ts).
  const db = await PgliteDb.open(undefined, { vector: READ_MODELS.sql });
  try {
    await migrate(db);
    const { jobs, companies } = await load(db, catalog, now);
    const embedder = createEmbedder(config);
    const replica = new CatalogReplica(db, { model: embedder.id, now: () => now });
    const parts = createSearchParts({ db, now: () => now, embedder, replica });
    const t0 = performance.now();
    await parts.indexer.catchUp();
    const embedMs = performance.now() - t0;
    const baseline = new MiniSearchBaseline(jobs, companies);
    const results = new Map<Ranker, Scores[]>();
    const clock = () => now;
    const serviceOf = (ranker: Ranker): SearchService | undefined =>
      ranker === 'minisearch'
        ? undefined
        : ranker.startsWith('sql-')
          ? new SqlSearch({ db, embedder, now: clock, mode: ranker.slice(4) as SearchMode })
          : new HybridSearch({ db, index: parts.replica, embedder, mode: ranker as SearchMode });
    for (const ranker of RANKERS) {
      const service = serviceOf(ranker);
      const scores: Scores[] = [];
      for (const q of queries) {
        const grades = judge(q, q.target === 'jobs' ? jobs : companies);
        const ranked = !service
          ? baseline.search(q.query, q.target === 'companies' ? 'companies' : 'jobs', 100)
          : q.target === 'companies'
            ? await service.searchCompanies(q.query, {}, 100)
            : await service.searchJobs(q.query, {}, 100);
        scores.push({
          ndcg: ndcgAt(ranked, grades, 10),
          recall: recallAt(ranked, grades, 100, 2),
          rr: reciprocalRank(ranked, grades, 2),
        });
      }
      results.set(ranker, scores);
    }
    const mixed: string[] = [];
    const mixedNdcg = new Map<string, number>();
    for (const ranker of mixedQueries.length > 0 ? RANKERS.filter((r) => r.endsWith('hybrid')) : []) {
      const table = await mixedTable(serviceOf(ranker)!, jobs, companies, mixedQueries);
      mixed.push(`${ranker === 'hybrid' ? 'memory' : 'sql'} (${ranker}):`, '', ...table.lines, '');
      mixedNdcg.set(ranker, table.ndcg);
    }
    await parts.stop();
    replica.close();
    const rows = jobs.length + companies.length;
    const info = `embedder ${parts.embedder.id}; ${rows} rows embedded in ${embedMs.toFixed(0)} ms; ${queries.length} queries`;
    return { name, queries, results, info, mixed, mixedNdcg };
  } finally {
    await db.close();
  }
}

/**
 * The MCP search tool's one list (10 jobs and 5 companies of the hybrid search): nDCG@10 with the companies
 * listed before the jobs, and as mixResults orders them, per kind of query.
 */
async function mixedTable(search: SearchService, jobs: Row[], companies: Row[], queries: Query[]) {
  const byId = new Map([...jobs, ...companies].map((r) => [r.id, r]));
  const item = (id: string) => {
    const r = byId.get(id)!;
    return { kind: r.type, id, name: r.title, ...(r.text !== undefined && { about: r.text }) };
  };
  const scores: { kind: string; before: number; after: number }[] = [];
  for (const q of queries) {
    const grades = judge(q, [...jobs, ...companies]);
    const j = (await search.searchJobs(q.query, {}, 10)).map(item);
    const c = (await search.searchCompanies(q.query, {}, 5)).map(item);
    const before = ndcgAt(
      [...c, ...j].map((x) => x.id),
      grades,
      10,
    );
    const after = ndcgAt(
      mixResults(q.query, j, c).map((x) => x.id),
      grades,
      10,
    );
    scores.push({ kind: q.kind, before, after });
  }
  const lines = [
    '| mixed list subset | n | companies, then jobs nDCG@10 | mixed by the query nDCG@10 |',
    '|---|---:|---:|---:|',
  ];
  for (const kind of ['all', ...new Set(scores.map((s) => s.kind))]) {
    const xs = scores.filter((s) => kind === 'all' || s.kind === kind);
    const f = (pick: (s: (typeof xs)[number]) => number) => mean(xs.map(pick)).toFixed(3);
    lines.push(`| ${kind} | ${xs.length} | ${f((s) => s.before)} | ${f((s) => s.after)} |`);
  }
  return { lines, ndcg: mean(scores.map((s) => s.after)) };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const ndcgOf = (r: SetResult, ranker: Ranker, pick: (q: Query) => boolean = () => true) =>
  mean(
    r.results
      .get(ranker)!
      .filter((_, i) => pick(r.queries[i]!))
      .map((s) => s.ndcg),
  );

function table(r: SetResult): string[] {
  const lines = [
    `### ${r.name}`,
    '',
    r.info,
    '',
    `| subset | n | ${RANKERS.map((m) => `${m} nDCG@10 / R@100 / MRR`).join(' | ')} |`,
    `|---|---:|${RANKERS.map(() => '---').join('|')}|`,
  ];
  const subsets: [string, (q: Query) => boolean][] = [
    ['all', () => true],
    ['exact-match', (q) => EXACT_KINDS.has(q.kind)],
    ...[...new Set(r.queries.map((q) => q.kind))].map((k): [string, (q: Query) => boolean] => [
      k,
      (q) => q.kind === k,
    ]),
  ];
  for (const [name, pick] of subsets) {
    const idx = r.queries.map((q, i) => (pick(q) ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) continue;
    const cells = RANKERS.map((m) => {
      const s = idx.map((i) => r.results.get(m)![i]!);
      const f = (xs: number[]) => mean(xs).toFixed(3);
      return `${f(s.map((x) => x.ndcg))} / ${f(s.map((x) => x.recall))} / ${f(s.map((x) => x.rr))}`;
    });
    lines.push(`| ${name} | ${idx.length} | ${cells.join(' | ')} |`);
  }
  return lines;
}

/** The targets; each failed one is a line of the report and makes the run exit 1. */
function verdicts(lexicon: SetResult, real: SetResult): string[] {
  const out: string[] = [];
  const check = (ok: boolean, what: string) => out.push(`${ok ? 'met' : 'MISSED'}: ${what}`);
  const kw = ndcgOf(lexicon, READ_MODELS.memory ? 'keyword' : 'sql-keyword');
  const hy = ndcgOf(lexicon, HYBRID);
  check(
    hy / kw - 1 >= 0.1,
    `lexicon hybrid vs keyword nDCG@10 ${((hy / kw - 1) * 100).toFixed(1)}% (>= 10%)`,
  );
  const exact = (q: Query) => EXACT_KINDS.has(q.kind);
  const losses = lexicon.queries.filter(
    (q, i) =>
      exact(q) &&
      lexicon.results.get(HYBRID)![i]!.ndcg <
        lexicon.results.get(READ_MODELS.memory ? 'keyword' : 'sql-keyword')![i]!.ndcg - 1e-9,
  );
  check(losses.length === 0, `lexicon exact-match queries where hybrid loses to keyword: ${losses.length}`);
  check(ndcgOf(real, HYBRID) >= 0.85, `real hybrid nDCG@10 ${ndcgOf(real, HYBRID).toFixed(3)} (>= 0.85)`);
  for (const r of [lexicon, real]) {
    const gap = ndcgOf(r, HYBRID) - ndcgOf(r, 'minisearch');
    check(gap >= 0.1, `${r.name} hybrid - MiniSearch nDCG@10 ${gap.toFixed(3)} (>= 0.10)`);
  }
  if (READ_MODELS.memory && READ_MODELS.sql) out.push(...readModelVerdicts(lexicon, real));
  return out;
}

/** The database's hybrid search within READ_MODEL_GAP of memory's on every set, the mixed list included. */
function readModelVerdicts(lexicon: SetResult, real: SetResult): string[] {
  const sets: [string, number, number][] = [
    ...[lexicon, real].map((r): [string, number, number] => [
      r.name,
      ndcgOf(r, 'hybrid'),
      ndcgOf(r, 'sql-hybrid'),
    ]),
    ['mixed', lexicon.mixedNdcg.get('hybrid') ?? 0, lexicon.mixedNdcg.get('sql-hybrid') ?? 0],
  ];
  return sets.map(([name, memory, sql]) => {
    const gap = memory - sql;
    const ok = gap <= READ_MODEL_GAP;
    return `${ok ? 'met' : 'MISSED'}: ${name} sql hybrid ${sql.toFixed(3)} vs memory ${memory.toFixed(3)} nDCG@10 (gap ${gap.toFixed(3)} <= ${READ_MODEL_GAP})`;
  });
}

async function main(): Promise<void> {
  const lexicon = await runSet(
    'lexicon',
    readJson<CatalogFile>('./catalog.json'),
    readJson<{ queries: Query[] }>('./queries.json').queries,
    readJson<{ queries: Query[] }>('./mixed-queries.json').queries,
  );
  const real = await runSet(
    'real',
    realCatalog(),
    readJson<{ queries: Query[] }>('./real-queries.json').queries,
  );
  const lines = [...table(lexicon), '', ...lexicon.mixed, '', ...table(real), '', ...verdicts(lexicon, real)];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (process.argv.includes('--verbose')) {
    for (const r of [lexicon, real]) {
      for (const [i, q] of r.queries.entries()) {
        const cells = RANKERS.map((m) => r.results.get(m)![i]!.ndcg.toFixed(2)).join('  ');
        process.stdout.write(
          `${r.name.padEnd(8)} ${q.kind.padEnd(14)} ${JSON.stringify(q.query).padEnd(44)} ${cells}\n`,
        );
      }
    }
  }
  const doc = `# Relevance (npm run bench:relevance)\n\nnDCG@10 / recall@100 / MRR per ranker; relevant = grade >= 2.\n\n${lines.join('\n')}\n`;
  writeFileSync(here('../results/latest-relevance.md'), doc);
  if (lines.some((l) => l.startsWith('MISSED'))) process.exitCode = 1;
}

await main();
