import type { Db, Queryable } from '../../db/port.js';

/**
 * Stages 1 and 2 of a promote run, in one transaction: take up to `limit` unprocessed sightings in arrival
 * order, mark them processed by the run, and fold them into candidates per normalized domain. Doing both at once
 * means a sighting is never marked processed without its evidence being counted.
 *
 * Idempotent per run: the summary is checkpointed in discovery_runs in the same transaction, and a re-entry
 * (a crash after commit, before the engine recorded the step) returns it instead of taking a second batch.
 */

export interface IntakeSummary {
  /** Sightings taken in and marked processed. */
  takenIn: number;
  /** Of those, sightings whose key carries no domain: logged, but they name no candidate. */
  withoutDomain: number;
  /** Distinct domains among them. */
  domains: number;
  candidatesCreated: number;
  /** Existing candidates that gained evidence. */
  candidatesUpdated: number;
  /** Rejected or failed candidates sent back to pending by new evidence. */
  reopened: number;
  /** Domains already in the companies table: recorded as tracked, never onboarded again. */
  tracked: number;
}

export interface RunArgs {
  limit: number;
  maxValidations: number;
}

/** Creates the run's checkpoint row (first entry only). */
export async function beginRun(db: Db, runId: string, args: RunArgs, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO discovery_runs (run_id, args, started_at, updated_at) VALUES ($1, $2::jsonb, $3, $3)
     ON CONFLICT (run_id) DO NOTHING`,
    [runId, JSON.stringify(args), at],
  );
}

interface Group {
  domain: string;
  sources: string[];
  n: number;
  first: Date;
  last: Date;
}

export async function intake(db: Db, runId: string, limit: number, at: Date): Promise<IntakeSummary> {
  return db.transaction(async (tx) => {
    // Locks the run row: a concurrent re-entry of the same run waits here, then sees the checkpoint.
    const run = await tx.query<{ intake: IntakeSummary | null }>(
      'SELECT intake FROM discovery_runs WHERE run_id = $1 FOR UPDATE',
      [runId],
    );
    if (!run[0]) throw new Error(`discovery run ${runId} was not begun`);
    if (run[0].intake) return run[0].intake;

    const taken = await tx.query<{
      domain: string | null;
      sources: string[];
      n: number;
      first: Date;
      last: Date;
    }>(
      `WITH taken AS (
         UPDATE sightings SET processed_at = $3, processed_by = $1
          WHERE id IN (SELECT id FROM sightings WHERE processed_at IS NULL ORDER BY id LIMIT $2
                       FOR UPDATE SKIP LOCKED)
         RETURNING source, domain, received_at)
       SELECT domain, array_agg(DISTINCT source ORDER BY source) AS sources, count(*)::int AS n,
              min(received_at) AS first, max(received_at) AS last
         FROM taken GROUP BY domain`,
      [runId, limit, at],
    );
    const groups = taken.filter((g): g is Group => g.domain !== null);
    const summary: IntakeSummary = {
      takenIn: taken.reduce((s, g) => s + g.n, 0),
      withoutDomain: taken.find((g) => g.domain === null)?.n ?? 0,
      domains: groups.length,
      candidatesCreated: 0,
      candidatesUpdated: 0,
      reopened: 0,
      tracked: 0,
    };
    if (groups.length > 0) Object.assign(summary, await foldIntoCandidates(tx, groups, at));
    await tx.query('UPDATE discovery_runs SET intake = $2::jsonb, updated_at = $3 WHERE run_id = $1', [
      runId,
      JSON.stringify(summary),
      at,
    ]);
    return summary;
  });
}

/**
 * Upserts one candidate per domain, accumulating sources, counts and first/last seen. New evidence reopens a
 * rejected or failed candidate (back to pending, its last reason kept for reference); a domain present in the
 * companies table becomes tracked unless discovery itself onboarded it.
 */
async function foldIntoCandidates(
  tx: Queryable,
  groups: Group[],
  at: Date,
): Promise<Pick<IntakeSummary, 'candidatesCreated' | 'candidatesUpdated' | 'reopened' | 'tracked'>> {
  const rows = await tx.query<{ created: boolean; reopened: boolean; tracked: boolean }>(
    `WITH g AS (
       SELECT r.domain, r.sources, r.n, r.first, r.last, c.id AS company_id, d.status AS before
         FROM jsonb_to_recordset($1::jsonb) AS r(domain text, sources text[], n int, first timestamptz, last timestamptz)
         LEFT JOIN companies c ON c.domain = r.domain
         LEFT JOIN discovery_candidates d ON d.domain = r.domain),
     up AS (
       INSERT INTO discovery_candidates AS d
         (domain, status, sources, sighting_count, first_seen_at, last_seen_at, evidence_at, company_id,
          created_at, updated_at)
       SELECT domain, CASE WHEN company_id IS NULL THEN 'pending' ELSE 'tracked' END, sources, n, first, last, $2,
              company_id, $2, $2
         FROM g
       ON CONFLICT (domain) DO UPDATE SET
         sources = ARRAY(SELECT DISTINCT s FROM unnest(d.sources || EXCLUDED.sources) AS s ORDER BY s),
         sighting_count = d.sighting_count + EXCLUDED.sighting_count,
         first_seen_at = least(d.first_seen_at, EXCLUDED.first_seen_at),
         last_seen_at = greatest(d.last_seen_at, EXCLUDED.last_seen_at),
         evidence_at = EXCLUDED.evidence_at,
         company_id = coalesce(EXCLUDED.company_id, d.company_id),
         status = CASE
           WHEN d.status = 'onboarded' THEN d.status
           WHEN EXCLUDED.company_id IS NOT NULL AND d.status IN ('pending', 'rejected', 'failed') THEN 'tracked'
           WHEN d.status IN ('rejected', 'failed') THEN 'pending'
           ELSE d.status END,
         updated_at = EXCLUDED.updated_at
       RETURNING d.domain, d.status)
     SELECT g.before IS NULL AS created,
            g.before IN ('rejected', 'failed') AND up.status = 'pending' AS reopened,
            up.status = 'tracked' AND g.before IS DISTINCT FROM 'tracked' AS tracked
       FROM up JOIN g ON g.domain = up.domain`,
    [JSON.stringify(groups), at],
  );
  return {
    candidatesCreated: rows.filter((r) => r.created).length,
    candidatesUpdated: rows.filter((r) => !r.created).length,
    reopened: rows.filter((r) => r.reopened).length,
    tracked: rows.filter((r) => r.tracked).length,
  };
}
