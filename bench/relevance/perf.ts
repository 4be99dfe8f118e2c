import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogReplica } from '../../src/catalog/replica/catalog-replica.js';
import { parseConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { PgliteDb } from '../../src/db/pglite.js';
import type { Db } from '../../src/db/port.js';
import { createEmbedder } from '../../src/search/embedders/index.js';
import { HybridSearch, type SearchMode } from '../../src/search/hybrid.js';
import { createSearchParts } from '../../src/search/service.js';
import { freshDatabase } from '../../test/support/db.js';

/**
 * `npm run bench:search [-- --jobs 100000]`: search latency on a synthetic catalog, single client, in process
 * (no HTTP): keyword-only vs hybrid p50/p99, plus embedding throughput and index load time. Embedded PGlite by
 * default; with BENCH_DATABASE_URL a fresh database on that PostgreSQL server is used (and dropped).
 */

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const JOBS = arg('jobs', 100_000);
const COMPANIES = Math.max(10, Math.round(JOBS / 100));
const ROUNDS = arg('rounds', 5);

const TITLES = [
  'Forward Deployed Engineer',
  'Solutions Architect',
  'Solutions Engineer',
  'Customer Success Manager',
  'Technical Account Manager',
  'Implementation Manager',
  'Sales Engineer',
  'Professional Services Consultant',
  'Software Engineer, Backend',
  'Machine Learning Engineer',
  'Site Reliability Engineer',
  'Kubernetes Platform Engineer',
  'Product Manager',
  'Product Designer',
  'Data Scientist',
  'Account Executive',
  'Technical Recruiter',
  'Senior Accountant',
  'Product Counsel',
  'Research Scientist',
  'DevOps Engineer',
  'Frontend Engineer (TypeScript)',
];
const ROLES = [
  'fde',
  'solutions_engineer',
  'solutions_engineer',
  'csm',
  'tam',
  'implementation',
  'sales_engineer',
  'professional_services',
  'engineering',
  'engineering',
  'engineering',
  'engineering',
  'product',
  'design',
  'data',
  'sales',
  'hr',
  'finance',
  'legal',
  'other',
  'engineering',
  'engineering',
];
const SENIORITY = ['', 'Senior ', 'Staff ', 'Lead ', ''];
const PLACES = [
  'San Francisco, CA',
  'New York, NY',
  'London, United Kingdom',
  'Remote - US',
  'Berlin, Germany',
  'Paris, France',
];

/**
 * A fresh database: in-memory-template PGlite, or a new database on BENCH_DATABASE_URL's server. With
 * `--db-dir DIR` (PGlite only) the generated and embedded catalog is kept in DIR and reused by later runs.
 */
async function openBenchDb(): Promise<{ db: Db; drop: () => Promise<void>; reused: boolean }> {
  const dir = option('db-dir');
  if (!dir) {
    const fresh = await freshDatabase(process.env.BENCH_DATABASE_URL || undefined, {
      statementTimeoutMs: 600_000,
    });
    return { ...fresh, reused: false };
  }
  const reused = existsSync(join(dir, 'pgdata', 'PG_VERSION'));
  const db = await PgliteDb.open(dir);
  return { db, drop: () => db.close(), reused };
}

async function generate(db: Db): Promise<void> {
  await db.query(
    `INSERT INTO companies (name, slug, domain, one_liner, category)
     SELECT 'Company ' || i, 'company-' || i, 'company' || i || '.example', 'Synthetic company number ' || i, 'other'
       FROM generate_series(1, $1) AS i`,
    [COMPANIES],
  );
  await db.query(
    `INSERT INTO jobs (company_id, company_name, source, external_id, title, location, remote, role_category, url, posted_at)
     SELECT c.id, c.name, 'bench', 'b-' || i,
            ($2::text[])[1 + (i * 7) % array_length($2::text[], 1)] || ($3::text[])[1 + i % array_length($3::text[], 1)],
            ($4::text[])[1 + (i * 13) % array_length($4::text[], 1)], (i * 13) % 6 = 3,
            ($5::text[])[1 + i % array_length($5::text[], 1)], 'https://jobs.example/' || i,
            now() - (i || ' minutes')::interval
       FROM generate_series(1, $1) AS i JOIN companies c ON c.slug = 'company-' || (1 + i % $6)`,
    [JOBS, SENIORITY, TITLES, PLACES, ROLES, COMPANIES],
  );
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function main(): Promise<void> {
  const out = (s: string) => process.stdout.write(`${s}\n`);
  const { db, drop, reused } = await openBenchDb();
  try {
    await migrate(db);
    let t = performance.now();
    const embedder = createEmbedder(parseConfig(process.env));
    const replica = new CatalogReplica(db, { model: embedder.id, now: Date.now });
    const parts = createSearchParts({ db, now: Date.now, embedder, replica });
    if (!reused) {
      await generate(db);
      out(
        `${db.kind}: generated ${JOBS} jobs over ${COMPANIES} companies in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
      await parts.embedder.embed(['warm up']);
      const texts = (await db.query<{ text: string }>('SELECT text FROM search_job_texts')).map(
        (r) => r.text,
      );
      t = performance.now();
      await parts.embedder.embed(texts);
      out(
        `embedder ${parts.embedder.id}: ${Math.round(texts.length / ((performance.now() - t) / 1000))} texts/s (embedding only)`,
      );
      t = performance.now();
      const n = await parts.indexer.catchUp();
      out(
        `catch-up (read texts, embed, write vectors): ${n} rows in ${((performance.now() - t) / 1000).toFixed(1)} s = ${Math.round(n / ((performance.now() - t) / 1000))} rows/s`,
      );
    }
    t = performance.now();
    const fresh = new CatalogReplica(db, { model: parts.embedder.id });
    await fresh.refresh();
    out(
      `index start-up (bulk load ${fresh.jobs.size} jobs + ${fresh.companies.size} companies): ${Math.round(performance.now() - t)} ms`,
    );
    await parts.replica.refresh();
    if (db.kind === 'postgres') {
      // A load on PostgreSQL schedules one full re-read a lag window (10 s) later (src/catalog/replica/catalog-replica.ts); it is part
      // of start-up, not of steady-state search latency, so it is let happen before measuring.
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      t = performance.now();
      await parts.replica.refresh();
      out(
        `post-load re-read of the change feed: ${Math.round(performance.now() - t)} ms (not measured below)`,
      );
    }
    const { queries } = JSON.parse(readFileSync(new URL('./queries.json', import.meta.url), 'utf8')) as {
      queries: { query: string; target: string }[];
    };
    const qs = queries.filter((q) => q.target === 'jobs').map((q) => q.query);
    const rows: string[] = [];
    const p50s = new Map<SearchMode, number>();
    const stages = new Map<string, number[]>();
    const onStage = flag('profile')
      ? (stage: string, ms: number) => {
          if (measuring) stages.set(stage, [...(stages.get(stage) ?? []), ms]);
        }
      : undefined;
    let measuring = false;
    for (const mode of ['keyword', 'semantic', 'hybrid'] as SearchMode[]) {
      const s = new HybridSearch({
        db,
        index: parts.replica,
        embedder: parts.embedder,
        mode,
        ...(onStage && mode === 'hybrid' ? { onStage } : {}),
      });
      for (const q of qs) await s.searchJobs(q, {}, 100);
      measuring = true;
      const lat: number[] = [];
      const started = performance.now();
      for (let r = 0; r < ROUNDS; r++) {
        for (const q of qs) {
          const t0 = performance.now();
          await s.searchJobs(q, r % 2 ? { remoteOnly: true } : {}, 100);
          lat.push(performance.now() - t0);
        }
      }
      measuring = false;
      const qps = lat.length / ((performance.now() - started) / 1000);
      p50s.set(mode, pct(lat, 50));
      rows.push(
        `${mode.padEnd(9)} p50 ${pct(lat, 50).toFixed(1).padStart(6)} ms  p99 ${pct(lat, 99).toFixed(1).padStart(6)} ms  max ${Math.max(
          ...lat,
        )
          .toFixed(1)
          .padStart(6)} ms  ${qps.toFixed(0)} q/s`,
      );
    }
    out(
      `search /jobs, single client, ${qs.length} queries x ${ROUNDS} rounds (odd rounds with remote_only):`,
    );
    for (const r of rows) out(`  ${r}`);
    out(`  hybrid adds ${(p50s.get('hybrid')! - p50s.get('keyword')!).toFixed(1)} ms p50 over keyword-only`);
    if (onStage) {
      out('hybrid stages (ms per search that ran the stage; n = searches):');
      for (const [stage, xs] of stages) {
        const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
        out(
          `  ${stage.padEnd(12)} n ${String(xs.length).padStart(4)}  mean ${mean.toFixed(2).padStart(6)}  p50 ${pct(xs, 50).toFixed(2).padStart(6)}  p99 ${pct(xs, 99).toFixed(2).padStart(6)}`,
        );
      }
      // Query vectors are cached per process, so the rounds above mostly hit the cache: time cold embeddings.
      const cold: number[] = [];
      for (const q of qs) {
        const t0 = performance.now();
        await parts.embedder.embed([q]);
        cold.push(performance.now() - t0);
      }
      out(`  embed (uncached) p50 ${pct(cold, 50).toFixed(2)}  p99 ${pct(cold, 99).toFixed(2)}`);
    }
    await parts.stop();
    replica.close();
  } finally {
    await drop();
  }
}

await main();
