import type { Queryable } from '../db/port.js';
import type { Dossier, Processor, ProviderName, ResearchMode, ResearchRun } from './dossier.js';
import type { ResearchSubject } from './types.js';

/** SQL of deep research: the research_runs history (migration 0005) and the company lookups it needs. */

export interface CompanyRef {
  id: string;
  name: string;
  domain: string;
  slug: string;
}

export interface StoredResearch {
  run: ResearchRun;
  dossier: Dossier;
}

export interface NewRun {
  companyId: string;
  runKey: string;
  mode: ResearchMode;
  processor: Processor;
  provider: ProviderName;
  providerProcessor: string | null;
  providerRunId: string | null;
  costUsd: number | null;
  durationMs: number;
  dossier: Dossier;
  createdAtMs: number;
}

interface RunRow {
  id: string;
  mode: ResearchMode;
  processor: Processor;
  provider: ProviderName;
  provider_processor: string | null;
  cost_usd: number | null;
  duration_ms: number;
  created_at: Date;
  dossier?: Dossier;
}

const RUN_COLUMNS = 'id, mode, processor, provider, provider_processor, cost_usd, duration_ms, created_at';

const toRun = (r: RunRow): ResearchRun => ({
  id: r.id,
  mode: r.mode,
  processor: r.processor,
  provider: r.provider,
  providerProcessor: r.provider_processor,
  costUsd: r.cost_usd === null ? null : Number(r.cost_usd),
  durationMs: r.duration_ms,
  createdAt: r.created_at.toISOString(),
});

/** The tracked company with this (normalized) domain, active or not. */
export async function companyByDomain(
  db: Queryable,
  domain: string,
): Promise<(CompanyRef & ResearchSubject) | undefined> {
  const rows = await db.query<{
    id: string;
    name: string;
    domain: string;
    slug: string;
    website: string | null;
    one_liner: string;
    description: string | null;
  }>('SELECT id, name, domain, slug, website, one_liner, description FROM companies WHERE domain = $1', [
    domain,
  ]);
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    companyId: r.id,
    name: r.name,
    domain: r.domain,
    slug: r.slug,
    website: r.website,
    oneLiner: r.one_liner,
    description: r.description,
  };
}

/** Inserts the run once per run key; a replay returns the id stored the first time. */
export async function insertRun(tx: Queryable, run: NewRun): Promise<{ id: string; inserted: boolean }> {
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO research_runs (company_id, run_key, mode, processor, provider, provider_processor,
                                provider_run_id, cost_usd, duration_ms, dossier, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11)
     ON CONFLICT (run_key) DO NOTHING RETURNING id`,
    [
      run.companyId,
      run.runKey,
      run.mode,
      run.processor,
      run.provider,
      run.providerProcessor,
      run.providerRunId,
      run.costUsd,
      run.durationMs,
      JSON.stringify(run.dossier),
      new Date(run.createdAtMs),
    ],
  );
  if (inserted[0]) return { id: inserted[0].id, inserted: true };
  const prior = await tx.query<{ id: string }>('SELECT id FROM research_runs WHERE run_key = $1', [
    run.runKey,
  ]);
  if (!prior[0]) throw new Error(`research run ${run.runKey} vanished`);
  return { id: prior[0].id, inserted: false };
}

export async function researchById(db: Queryable, id: string): Promise<StoredResearch | undefined> {
  const rows = await db.query<RunRow>(`SELECT ${RUN_COLUMNS}, dossier FROM research_runs WHERE id = $1`, [
    id,
  ]);
  const r = rows[0];
  return r?.dossier ? { run: toRun(r), dossier: r.dossier } : undefined;
}

export async function latestResearch(db: Queryable, companyId: string): Promise<StoredResearch | undefined> {
  const rows = await db.query<RunRow>(
    `SELECT ${RUN_COLUMNS}, dossier FROM research_runs WHERE company_id = $1 ORDER BY created_at DESC, seq DESC LIMIT 1`,
    [companyId],
  );
  const r = rows[0];
  return r?.dossier ? { run: toRun(r), dossier: r.dossier } : undefined;
}

/** Every run of the company, newest first (without the dossiers). */
export async function listRuns(db: Queryable, companyId: string, limit: number): Promise<ResearchRun[]> {
  const rows = await db.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM research_runs WHERE company_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2`,
    [companyId, limit],
  );
  return rows.map(toRun);
}
