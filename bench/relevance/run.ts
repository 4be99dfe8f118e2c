import { readFileSync } from 'node:fs';
import { upsertCompanyByDomain } from '../../src/catalog/company-writes.js';
import { setCompanyTags } from '../../src/catalog/tags.js';
import type { CompanyCategory, RoleCategory } from '../../src/catalog/types.js';
import { parseConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { PgliteDb } from '../../src/db/pglite.js';
import { HybridSearch, type SearchMode } from '../../src/search/hybrid.js';
import { createSearchParts } from '../../src/search/service.js';
import { ndcgAt, recallAt, reciprocalRank } from './metrics.js';

/**
 * `npm run bench:relevance`: loads the fixed catalog into a fresh embedded database, embeds it with the
 * configured embedder (EMBEDDINGS, default static), runs every judged query through the real SearchService in
 * keyword-only, semantic-only and hybrid modes, and prints nDCG@10, recall@100 and MRR side by side.
 * Relevant (for recall and MRR) means grade >= 2. Exits 1 when hybrid misses its targets: >= 10% nDCG@10 over
 * keyword-only overall, and no loss on the exact-match subset.
 */

interface CatalogFile {
  companies: {
    name: string;
    domain: string;
    oneLiner: string;
    category: CompanyCategory;
    industry: string[];
    jobs: { title: string; role: RoleCategory; location: string; remote: boolean; daysAgo: number }[];
  }[];
}
interface Rule {
  grade: number;
  title?: string;
  company?: string;
  role?: string;
  location?: string;
}
interface Query {
  query: string;
  kind: string;
  target: 'jobs' | 'companies';
  judgments: Rule[];
}
interface Row {
  id: string;
  title: string;
  company: string;
  role: string;
  location: string;
}

const EXACT_KINDS = new Set(['exact_title', 'company']);
const MODES: SearchMode[] = ['keyword', 'semantic', 'hybrid'];
const here = (f: string) => new URL(f, import.meta.url);

async function main(): Promise<void> {
  const catalog = JSON.parse(readFileSync(here('./catalog.json'), 'utf8')) as CatalogFile;
  const { queries } = JSON.parse(readFileSync(here('./queries.json'), 'utf8')) as { queries: Query[] };
  const config = parseConfig(process.env);
  const now = Date.UTC(2026, 10, 22, 12);
  const db = await PgliteDb.open(undefined);
  try {
    await migrate(db);
    const { jobs, companies } = await load(db, catalog, now);
    const parts = createSearchParts({ db, config, now: () => now });
    const t0 = performance.now();
    await parts.indexer.catchUp();
    const embedMs = performance.now() - t0;
    const services = new Map(
      MODES.map((mode) => [
        mode,
        new HybridSearch({ db, index: parts.index, embedder: parts.embedder, mode }),
      ]),
    );
    // results[mode][queryIndex] = { ndcg, recall, rr }
    const results = new Map<SearchMode, { ndcg: number; recall: number; rr: number }[]>();
    for (const mode of MODES) {
      const service = services.get(mode)!;
      const scores: { ndcg: number; recall: number; rr: number }[] = [];
      for (const q of queries) {
        const rows = q.target === 'jobs' ? jobs : companies;
        const grades = judge(q, rows);
        const ranked =
          q.target === 'jobs'
            ? await service.searchJobs(q.query, {}, 100)
            : await service.searchCompanies(q.query, {}, 100);
        scores.push({
          ndcg: ndcgAt(ranked, grades, 10),
          recall: recallAt(ranked, grades, 100, 2),
          rr: reciprocalRank(ranked, grades, 2),
        });
      }
      results.set(mode, scores);
    }
    report(queries, results, { embedder: parts.embedder.id, rows: jobs.length + companies.length, embedMs });
    await parts.stop();
  } finally {
    await db.close();
  }
}

async function load(
  db: PgliteDb,
  catalog: CatalogFile,
  now: number,
): Promise<{ jobs: Row[]; companies: Row[] }> {
  const jobs: Row[] = [];
  const companies: Row[] = [];
  await db.transaction(async (tx) => {
    for (const c of catalog.companies) {
      const { id } = await upsertCompanyByDomain(
        tx,
        c.domain,
        { name: c.name, oneLiner: c.oneLiner, category: c.category },
        now,
      );
      await setCompanyTags(
        tx,
        id,
        c.industry.map((value) => ({ dimension: 'industry' as const, value })),
        now,
      );
      companies.push({ id, title: c.name, company: c.name, role: '', location: '' });
      for (const [i, j] of c.jobs.entries()) {
        const [row] = await tx.query<{ id: string }>(
          `INSERT INTO jobs (company_id, company_name, source, external_id, title, location, remote, role_category, url, posted_at)
           VALUES ($1, $2, 'bench', $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
          [
            id,
            c.name,
            `${c.domain}-${i}`,
            j.title,
            j.location,
            j.remote,
            j.role,
            `https://${c.domain}/careers#${i}`,
            new Date(now - j.daysAgo * 86_400_000 - i * 60_000),
          ],
        );
        jobs.push({ id: row!.id, title: j.title, company: c.name, role: j.role, location: j.location });
      }
    }
  });
  return { jobs, companies };
}

function judge(q: Query, rows: Row[]): Map<string, number> {
  const grades = new Map<string, number>();
  for (const row of rows) {
    let grade = 0;
    for (const r of q.judgments) {
      const ok =
        (r.title === undefined || new RegExp(r.title, 'i').test(row.title)) &&
        (r.company === undefined || new RegExp(r.company, 'i').test(row.company)) &&
        (r.role === undefined || r.role === row.role) &&
        (r.location === undefined || row.location.toLowerCase().includes(r.location.toLowerCase()));
      if (ok) grade = Math.max(grade, r.grade);
    }
    if (grade > 0) grades.set(row.id, grade);
  }
  return grades;
}

function report(
  queries: Query[],
  results: Map<SearchMode, { ndcg: number; recall: number; rr: number }[]>,
  info: { embedder: string; rows: number; embedMs: number },
): void {
  const out = (s: string) => process.stdout.write(`${s}\n`);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const subsets: [string, (q: Query) => boolean][] = [
    ['all', () => true],
    ['exact-match', (q) => EXACT_KINDS.has(q.kind)],
    ...[...new Set(queries.map((q) => q.kind))].map((k): [string, (q: Query) => boolean] => [
      k,
      (q) => q.kind === k,
    ]),
  ];
  out(
    `embedder ${info.embedder}; ${info.rows} rows embedded in ${info.embedMs.toFixed(0)} ms; ${queries.length} queries`,
  );
  out('');
  out(
    `${'subset'.padEnd(16)}${'n'.padStart(4)}  ${MODES.map((m) => `${m} nDCG@10 / R@100 / MRR`.padEnd(31)).join('')}`,
  );
  for (const [name, pick] of subsets) {
    const idx = queries.map((q, i) => (pick(q) ? i : -1)).filter((i) => i >= 0);
    const cells = MODES.map((m) => {
      const s = idx.map((i) => results.get(m)![i]!);
      return `${mean(s.map((x) => x.ndcg)).toFixed(3)} / ${mean(s.map((x) => x.recall)).toFixed(3)} / ${mean(s.map((x) => x.rr)).toFixed(3)}`.padEnd(
        31,
      );
    });
    out(`${name.padEnd(16)}${String(idx.length).padStart(4)}  ${cells.join('')}`);
  }
  const kw = mean(results.get('keyword')!.map((x) => x.ndcg));
  const hy = mean(results.get('hybrid')!.map((x) => x.ndcg));
  const exactIdx = queries.map((q, i) => (EXACT_KINDS.has(q.kind) ? i : -1)).filter((i) => i >= 0);
  const exactKw = mean(exactIdx.map((i) => results.get('keyword')![i]!.ndcg));
  const exactHy = mean(exactIdx.map((i) => results.get('hybrid')![i]!.ndcg));
  const losses = exactIdx.filter(
    (i) => results.get('hybrid')![i]!.ndcg < results.get('keyword')![i]!.ndcg - 1e-9,
  );
  out('');
  out(`hybrid vs keyword nDCG@10: ${((hy / kw - 1) * 100).toFixed(1)}% (target >= 10%)`);
  out(
    `exact-match subset: keyword ${exactKw.toFixed(3)}, hybrid ${exactHy.toFixed(3)}; queries where hybrid loses: ${losses.length ? losses.map((i) => JSON.stringify(queries[i]!.query)).join(', ') : 'none'}`,
  );
  const verbose = process.argv.includes('--verbose');
  if (verbose) {
    out('');
    for (const [i, q] of queries.entries()) {
      out(
        `${q.kind.padEnd(14)} ${JSON.stringify(q.query).padEnd(46)} ${MODES.map((m) => results.get(m)![i]!.ndcg.toFixed(2)).join('  ')}`,
      );
    }
  }
  if (hy / kw - 1 < 0.1 || exactHy < exactKw) process.exitCode = 1;
}

await main();
