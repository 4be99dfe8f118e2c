import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { slugify } from '../../src/catalog/tags.js';
import type { TagDimension } from '../../src/catalog/types.js';
import { parseConfig } from '../../src/config.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { PgliteDb } from '../../src/db/pglite.js';
import type { Db, Queryable } from '../../src/db/port.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { createEmbedder } from '../../src/search/embedders/index.js';
import { EmbeddingIndexer } from '../../src/search/indexer.js';
import { LocationPlaces } from '../../src/sources/normalize/job-places.js';
import {
  assignJobs,
  buildCompanies,
  buildJobs,
  type CatalogSize,
  type SynthCompany,
} from './catalog-model.js';
import { type HistoryFigures, insertHistory } from './history.js';
import { Rng } from './prng.js';
import { deferIndexes, type IndexBuild } from './scale-indexes.js';

/**
 * Writes the synthetic catalog into an embedded data directory or a fresh PostgreSQL database, with bulk
 * `INSERT ... SELECT FROM unnest(arrays)` batches in one transaction, then VACUUM ANALYZE (without statistics
 * PGlite's planner seq-scans filtered count(*)). The result is cached by (generator version, seed, sizes,
 * migrations), so a re-run with the same inputs skips generation.
 */

/** Bump when the generated data changes shape, so stale caches are rebuilt. */
const GENERATOR_VERSION = 7;
const JOB_BATCH = 5_000;
const SAMPLED_JOB_IDS = 20_000;

export interface CatalogManifest {
  key: string;
  size: CatalogSize;
  /** The UTC day the data is anchored to (posting dates, "new today"). */
  anchorDay: string;
  generatedAt: string;
  generationMs: { total: number; companies: number; jobs: number; embed: number; analyze: number };
  embedding: EmbeddingFigures;
  companies: { id: string; slug: string; name: string; activeJobCount: number }[];
  tags: Record<TagDimension, { slug: string; companies: number }[]>;
  /** Active job ids drawn uniformly at random. */
  jobIds: string[];
  /** The two years of hiring events (bench/catalog/history.ts). */
  history: HistoryFigures;
  /** The jobs table's secondary indexes, built once after the load (PostgreSQL catalogs: scale-indexes.ts). */
  indexBuilds?: IndexBuild[];
}

/** The embedding figures (target ≥ 5,000 jobs/s), measured while the catalog is embedded with the service's own indexer. */
export interface EmbeddingFigures {
  model: string;
  /** Rows embedded by the catch-up (companies + active jobs). */
  rows: number;
  /** Active jobs per second through the indexer's embedIds: text query, embedding, write. */
  catchUpJobsPerSec: number;
  /** ms of the indexer's staleness check (both kinds) on the fully embedded catalog. */
  staleCheckMs: number;
  /** ms of a restarted process's embedding catch-up, which resumes from the recorded mark. */
  resumeMs: number;
  /** Job texts per second through the embedder alone (10,000 texts, one process, no database). */
  embedderJobsPerSec: number;
}

/** `prefix`: the start of a server catalog's database name (default `frontline_bench_`), before the cache key. */
export type CatalogTarget =
  | { kind: 'pglite'; root: string }
  | { kind: 'postgres'; url: string; prefix?: string };

export interface PreparedCatalog {
  manifest: CatalogManifest;
  /** true when this run generated the data, false when it came from the cache. */
  generated: boolean;
  /** DATA_DIR for the service (embedded mode). */
  dataDir?: string;
  /** DATABASE_URL for the service (server mode). */
  databaseUrl?: string;
}

export function cacheKey(size: CatalogSize): string {
  const schema = loadMigrations()
    .map((m) => `${m.name}:${m.checksum}`)
    .join(',');
  const hash = createHash('sha256')
    .update(`${GENERATOR_VERSION}|${size.inactiveRatio}|${schema}`)
    .digest('hex')
    .slice(0, 10);
  return `s${size.seed}-j${size.jobs}-c${size.companies}-${hash}`;
}

export async function insertCompanies(
  tx: Queryable,
  companies: readonly SynthCompany[],
  nowMs: number,
): Promise<void> {
  const col = <T>(f: (c: SynthCompany) => T): T[] => companies.map(f);
  // Onboarded the day before the anchor day: today's changes (a delta-sync poll's window) are the new jobs only.
  const now = new Date((Math.floor(nowMs / 86_400_000) - 1) * 86_400_000).toISOString();
  await tx.query(
    `INSERT INTO companies (id, name, slug, domain, website, one_liner, description, category, founded_year,
       employee_count, headquarters, funding_summary, total_funding_usd, social_links, active_job_count,
       created_at, updated_at)
     SELECT id, name, slug, domain, 'https://' || domain, one_liner, description, category, founded_year,
       employee_count, headquarters, funding_summary, total_funding_usd, social_links::jsonb, active_job_count,
       $15::timestamptz, $15::timestamptz
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
       $9::int[], $10::text[], $11::text[], $12::bigint[], $13::text[], $14::int[])
       AS t(id, name, slug, domain, one_liner, description, category, founded_year, employee_count, headquarters,
            funding_summary, total_funding_usd, social_links, active_job_count)`,
    [
      col((c) => c.id),
      col((c) => c.name),
      col((c) => c.slug),
      col((c) => c.domain),
      col((c) => c.oneLiner),
      col((c) => c.description),
      col((c) => c.category),
      col((c) => c.foundedYear),
      col((c) => c.employeeCount),
      col((c) => c.headquarters),
      col((c) => c.fundingSummary),
      col((c) => String(c.totalFundingUsd)),
      col((c) => c.socialLinks),
      col((c) => c.activeJobCount),
      now,
    ],
  );
  const distinct = new Map<string, { dimension: string; value: string; slug: string }>();
  for (const c of companies) {
    for (const t of c.tags) distinct.set(`${t.dimension}/${t.value}`, { ...t, slug: slugify(t.value) });
  }
  const tags = [...distinct.values()];
  const rows = await tx.query<{ id: number; dimension: string; value: string }>(
    `INSERT INTO tags (dimension, value, slug) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
     RETURNING id, dimension, value`,
    [tags.map((t) => t.dimension), tags.map((t) => t.value), tags.map((t) => t.slug)],
  );
  const tagIds = new Map(rows.map((r) => [`${r.dimension}/${r.value}`, r.id]));
  const pairs = companies.flatMap((c) =>
    c.tags.map((t) => [c.id, tagIds.get(`${t.dimension}/${t.value}`)] as const),
  );
  // company_tags' change-feed trigger updates the company row once per tag (migration 0002): 30k+ single-row
  // UPDATEs here, minutes on PGlite. The companies are brand new, so there is no feed to notify; user triggers
  // are off for this one statement, inside the transaction.
  await tx.query('ALTER TABLE company_tags DISABLE TRIGGER USER');
  await tx.query(
    'INSERT INTO company_tags (company_id, tag_id) SELECT * FROM unnest($1::uuid[], $2::int[])',
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  await tx.query('ALTER TABLE company_tags ENABLE TRIGGER USER');
}

/**
 * The range the sources' parser reads from the synthetic salary text ("$160,000 – $230,000", US dollars a year),
 * so the salary_min filter has pay to compare.
 */
const SALARY_RANGE = `(regexp_match(salary, '^\\$(\\d+),000'))[1]::numeric * 1000,
  (regexp_match(salary, '– \\$(\\d+),000$'))[1]::numeric * 1000,
  CASE WHEN salary IS NULL THEN NULL ELSE 'USD' END, CASE WHEN salary IS NULL THEN NULL ELSE 'year' END,
  CASE WHEN salary IS NULL THEN NULL ELSE 'description' END`;

export async function insertJobs(
  tx: Queryable,
  size: CatalogSize,
  companies: readonly SynthCompany[],
  owners: Int32Array,
  nowMs: number,
  sampled: Set<number>,
  jobIds: string[],
  activeIds: string[],
): Promise<void> {
  const places = new LocationPlaces();
  for (let start = 0; start < owners.length; start += JOB_BATCH) {
    const end = Math.min(owners.length, start + JOB_BATCH);
    const jobs = buildJobs(size, companies, owners, start, end, nowMs);
    jobs.forEach((j, i) => {
      if (sampled.has(start + i)) jobIds.push(j.id);
      if (j.active) activeIds.push(j.id);
    });
    const col = <T>(f: (j: (typeof jobs)[number]) => T): T[] => jobs.map(f);
    // updated_at is the last change of a listed field, as the writers keep it: an open job's first sighting (a
    // re-scrape that sees it again changes nothing), a closed one's closing (drawn between its first sighting and now when its last one is later).
    await tx.query(
      `INSERT INTO jobs (id, company_id, company_name, source, external_id, title, location, remote, department,
         role_category, url, description, salary, salary_min, salary_max, salary_currency, salary_period,
         salary_source, posted_at, first_seen_at, last_seen_at, active, created_at, updated_at, countries, regions,
         remote_scopes)
       SELECT id, company_id, company_name, source, external_id, title, location, remote, department, role_category,
         url, description, salary, ${SALARY_RANGE}, posted_at, first_seen_at, last_seen_at, active, first_seen_at,
         CASE WHEN active THEN first_seen_at WHEN last_seen_at <= $18::timestamptz THEN last_seen_at
           ELSE first_seen_at + ($18::timestamptz - first_seen_at) * ((hashtext(id::text) & 1023) / 1024.0::float8) END,
         string_to_array(countries, ','), string_to_array(regions, ','), string_to_array(remote_scopes, ',')
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
         $8::boolean[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::timestamptz[],
         $15::timestamptz[], $16::timestamptz[], $17::boolean[], $19::text[], $20::text[], $21::text[])
         AS t(id, company_id, company_name, source, external_id, title, location, remote, department, role_category,
              url, description, salary, posted_at, first_seen_at, last_seen_at, active, countries, regions,
              remote_scopes)`,
      [
        col((j) => j.id),
        col((j) => (companies[j.companyIndex] as SynthCompany).id),
        col((j) => (companies[j.companyIndex] as SynthCompany).name),
        col((j) => j.source),
        col((j) => j.externalId),
        col((j) => j.title),
        col((j) => j.location),
        col((j) => j.remote),
        col((j) => j.department),
        col((j) => j.roleCategory),
        col((j) => j.url),
        col((j) => j.description),
        col((j) => j.salary),
        col((j) => j.postedAt.toISOString()),
        col((j) => j.firstSeenAt.toISOString()),
        col((j) => j.lastSeenAt.toISOString()),
        col((j) => j.active),
        new Date(nowMs).toISOString(),
        // The places the writers derive from the location (few distinct locations: each derived once).
        col((j) => places.of(j.location).countries.join(',')),
        col((j) => places.of(j.location).regions.join(',')),
        col((j) => places.of(j.location).remoteScopes.join(',')),
      ],
    );
  }
}

/**
 * Embeds every active row with the service's own indexer and bundled embedder, through embedIds as the write path
 * does, so the service starts on a fully embedded catalog instead of embedding 100k rows in the background
 * mid-bench. (The indexer's catch-up pass would do the same but rescans every already-embedded row per batch.)
 */
async function embedAll(
  db: Db,
  cacheDir: string,
  companyIds: string[],
  jobIds: string[],
  log: (msg: string) => void,
): Promise<EmbeddingFigures> {
  const embedder = createEmbedder(parseConfig({ DATA_DIR: cacheDir }));
  const parts = { embedder, indexer: new EmbeddingIndexer(db, embedder, Date.now) };
  const texts = (
    await db.query<{ text: string }>('SELECT text FROM search_job_texts ORDER BY id LIMIT 10000')
  ).map((r) => r.text);
  await parts.embedder.embed(texts.slice(0, 10)); // loads (or builds) the word-vector cache outside the timing
  const tEmbedder = performance.now();
  for (let i = 0; i < texts.length; i += parts.embedder.maxBatch) {
    await parts.embedder.embed(texts.slice(i, i + parts.embedder.maxBatch));
  }
  const embedderJobsPerSec = texts.length / ((performance.now() - tEmbedder) / 1000);
  let rows = await parts.indexer.embedIds('company', companyIds);
  const jobsStart = performance.now();
  let lastLog = jobsStart;
  for (let i = 0; i < jobIds.length; i += 5_000) {
    rows += await parts.indexer.embedIds('job', jobIds.slice(i, i + 5_000));
    if (performance.now() - lastLog > 15_000) {
      log(`  embedding jobs: ${Math.min(i + 5_000, jobIds.length)} of ${jobIds.length}`);
      lastLog = performance.now();
    }
  }
  const catchUpJobsPerSec = jobIds.length / ((performance.now() - jobsStart) / 1000);
  // The full staleness scan (first start, model change, `frontline reindex`); it must find nothing left.
  const tCheck = performance.now();
  const stale = (await parts.indexer.countStale('job')) + (await parts.indexer.countStale('company'));
  const staleCheckMs = performance.now() - tCheck;
  if (stale > 0) throw new Error(`${stale} rows are still without a current embedding`);
  // A first catch-up records the marks, as the service's first start would; then what a restart costs.
  await parts.indexer.resume();
  const tResume = performance.now();
  await new EmbeddingIndexer(db, parts.embedder).resume();
  const resumeMs = performance.now() - tResume;
  return { model: parts.embedder.id, rows, catchUpJobsPerSec, embedderJobsPerSec, staleCheckMs, resumeMs };
}

/** Generates the whole catalog into an empty, migrated database and returns its manifest. */
async function fill(
  db: Db,
  size: CatalogSize,
  key: string,
  cacheDir: string,
  log: (msg: string) => void,
  deferJobIndexes = false,
): Promise<CatalogManifest> {
  const t0 = performance.now();
  const nowMs = Date.now();
  await migrate(db);
  const companies = buildCompanies(size);
  const owners = assignJobs(size, companies);
  const sampled = new Set(new Rng(size.seed, 3).sample([...Array(size.jobs).keys()], SAMPLED_JOB_IDS));
  const jobIds: string[] = [];
  const activeIds: string[] = [];
  let tCompanies = 0;
  let tJobs = 0;
  let history: HistoryFigures = { historyJobs: 0, events: 0, rollupRows: 0 };
  let indexBuilds: IndexBuild[] | undefined;
  await db.transaction(async (tx) => {
    await insertCompanies(tx, companies, nowMs);
    tCompanies = performance.now() - t0;
    log(`  companies and tags written (${Math.round(tCompanies)} ms)`);
    const buildIndexes = deferJobIndexes ? await deferIndexes(tx, 'jobs') : undefined;
    // Each inserted batch's events went through the hiring rollups' triggers (three quarters of a batch's time);
    // insertHistory writes every job's events again from the jobs table and rebuilds the rollups in one pass, so
    // the load records none.
    await tx.query('ALTER TABLE jobs DISABLE TRIGGER jobs_record_events_insert');
    await insertJobs(tx, size, companies, owners, nowMs, sampled, jobIds, activeIds);
    tJobs = performance.now() - t0 - tCompanies;
    log(`  ${owners.length} jobs written (${Math.round(tJobs)} ms)`);
    const tHistory = performance.now();
    history = await insertHistory(tx, companies, nowMs, size.seed);
    await tx.query('ALTER TABLE jobs ENABLE TRIGGER jobs_record_events_insert');
    log(
      `  two years of hiring history: ${history.historyJobs} closed jobs, ${history.events} events, ` +
        `${history.rollupRows} rollup rows (${Math.round(performance.now() - tHistory)} ms)`,
    );
    if (buildIndexes) {
      await tx.query(`SET LOCAL maintenance_work_mem = '256MB'`);
      indexBuilds = await buildIndexes();
      const ms = indexBuilds.reduce((sum, b) => sum + b.ms, 0);
      log(`  ${indexBuilds.length} indexes of jobs built (${Math.round(ms)} ms)`);
    }
    await tx.query('UPDATE catalog_version SET version = version + 1, changed_at = now()');
  });
  const tEmbed0 = performance.now();
  const embedding = await embedAll(
    db,
    cacheDir,
    companies.map((c) => c.id),
    activeIds,
    log,
  );
  const embed = performance.now() - tEmbed0;
  log(
    `  ${embedding.rows} rows embedded (${Math.round(embed)} ms; ${Math.round(embedding.catchUpJobsPerSec)} jobs/s ` +
      `through the indexer, ${Math.round(embedding.embedderJobsPerSec)} jobs/s through the embedder alone; ` +
      `staleness check ${Math.round(embedding.staleCheckMs)} ms; restart catch-up ${Math.round(embedding.resumeMs)} ms)`,
  );
  const tAnalyze0 = performance.now();
  await db.exec('VACUUM ANALYZE');
  const analyze = performance.now() - tAnalyze0;
  log(`  VACUUM ANALYZE (${Math.round(analyze)} ms)`);

  const tagCounts = await db.query<{ dimension: TagDimension; slug: string; companies: number }>(
    `SELECT t.dimension, t.slug, count(*)::int AS companies FROM tags t JOIN company_tags ct ON ct.tag_id = t.id
     GROUP BY t.dimension, t.slug ORDER BY t.dimension, companies DESC, t.slug`,
  );
  const tags = {
    industry: [],
    stage: [],
    business_model: [],
    ai_role: [],
    funding_tier: [],
  } as CatalogManifest['tags'];
  for (const r of tagCounts) tags[r.dimension].push({ slug: r.slug, companies: r.companies });
  return {
    key,
    size,
    anchorDay: new Date(nowMs).toISOString().slice(0, 10),
    generatedAt: new Date(nowMs).toISOString(),
    generationMs: {
      total: Math.round(performance.now() - t0),
      companies: Math.round(tCompanies),
      jobs: Math.round(tJobs),
      embed: Math.round(embed),
      analyze: Math.round(analyze),
    },
    embedding,
    companies: companies.map((c) => ({
      id: c.id,
      slug: c.slug,
      name: c.name,
      activeJobCount: c.activeJobCount,
    })),
    tags,
    jobIds,
    history,
    ...(indexBuilds && { indexBuilds }),
  };
}

async function preparePglite(
  size: CatalogSize,
  root: string,
  log: (m: string) => void,
): Promise<PreparedCatalog> {
  const key = cacheKey(size);
  const dataDir = resolve(root, `catalog-${key}`);
  const manifestFile = join(dataDir, 'manifest.json');
  // The manifest is written last (by rename), so its presence means the directory is complete.
  if (existsSync(manifestFile)) {
    return { manifest: JSON.parse(readFileSync(manifestFile, 'utf8')), generated: false, dataDir };
  }
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  log(`generating ${size.jobs} jobs / ${size.companies} companies (seed ${size.seed}) into ${dataDir}`);
  const db = await PgliteDb.open(dataDir);
  let manifest: CatalogManifest;
  try {
    manifest = await fill(db, size, key, dataDir, log);
  } finally {
    await db.close();
  }
  writeFileSync(`${manifestFile}.tmp`, JSON.stringify(manifest));
  renameSync(`${manifestFile}.tmp`, manifestFile);
  return { manifest, generated: true, dataDir };
}

/** Server mode's DATA_DIR (the service keeps its word-vector cache there), shared by every server-mode run. */
export const embeddingsCacheDir = (root: string): string => resolve(root, 'server-mode-data');

/**
 * Server mode: a database named after the cache key on the server of `url`. It is reused when its comment says
 * it is complete for this key; otherwise it is dropped and rebuilt. The manifest sits in the cache root.
 */
async function preparePostgres(
  size: CatalogSize,
  url: string,
  prefix: string,
  root: string,
  log: (m: string) => void,
): Promise<PreparedCatalog> {
  const key = cacheKey(size);
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`database prefix ${prefix}: lower case, digits, _`);
  const name = `${prefix}${key.replace(/-/g, '_')}`;
  const marker = `frontline-bench ${key} complete`;
  const target = new URL(url);
  target.pathname = `/${name}`;
  const manifestFile = resolve(root, `postgres-${key}.json`);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const existing = await admin.query<{ comment: string | null }>(
      'SELECT shobj_description(oid, $2) AS comment FROM pg_database WHERE datname = $1',
      [name, 'pg_database'],
    );
    if (existing.rows[0]?.comment === marker && existsSync(manifestFile)) {
      return {
        manifest: JSON.parse(readFileSync(manifestFile, 'utf8')),
        generated: false,
        databaseUrl: target.toString(),
      };
    }
    log(
      `generating ${size.jobs} jobs / ${size.companies} companies (seed ${size.seed}) into database ${name}`,
    );
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const db = new PostgresDb({ url: target.toString(), poolSize: 2, statementTimeoutMs: 3_600_000 });
  let manifest: CatalogManifest;
  try {
    manifest = await fill(db, size, key, embeddingsCacheDir(root), log, true);
  } finally {
    await db.close();
  }
  mkdirSync(root, { recursive: true });
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const done = new pg.Client({ connectionString: url });
  await done.connect();
  await done.query(`COMMENT ON DATABASE ${name} IS '${marker}'`);
  await done.end();
  return { manifest, generated: true, databaseUrl: target.toString() };
}

export function prepareCatalog(
  size: CatalogSize,
  target: CatalogTarget,
  cacheRoot: string,
  log: (m: string) => void,
): Promise<PreparedCatalog> {
  return target.kind === 'pglite'
    ? preparePglite(size, target.root, log)
    : preparePostgres(size, target.url, target.prefix ?? 'frontline_bench_', cacheRoot, log);
}
