import type { Db } from '../../db/port.js';
import type { RejectionReason, Validation } from './validate.js';

/**
 * Stages 3 and 4 of a promote run as idempotent, checkpointed functions: each records its outcome on the
 * candidate (or on discovery_runs) and, entered again by the same run, returns what it recorded instead of
 * repeating the work. The workflow wraps each in an engine step; without an engine they are still safe to
 * re-run after a crash.
 */

export interface Selected {
  domain: string;
  sources: number;
  sightings: number;
}

/**
 * A run's claim on a candidate lapses after this long (ms): a run that died without being recovered (cancelled,
 * or its workflow timed out) must not strand its candidates in 'validating' or 'qualified'.
 */
export const CLAIM_TTL_MS = 2 * 60 * 60_000;

/**
 * Picks up to `max` candidates to validate, best evidence first: most distinct sources, then most sightings,
 * then most recently seen, then domain. Pending ones, plus claims of dead runs past CLAIM_TTL_MS. A candidate
 * whose domain has since become a company is marked tracked instead. Checkpointed in discovery_runs.selected.
 */
export async function selectForValidation(db: Db, runId: string, max: number, at: Date): Promise<Selected[]> {
  return db.transaction(async (tx) => {
    const run = await tx.query<{ selected: Selected[] | null }>(
      'SELECT selected FROM discovery_runs WHERE run_id = $1 FOR UPDATE',
      [runId],
    );
    if (!run[0]) throw new Error(`discovery run ${runId} was not begun`);
    if (run[0].selected) return run[0].selected;

    await tx.query(
      `UPDATE discovery_candidates d SET status = 'tracked', company_id = c.id, updated_at = $1
         FROM companies c
        WHERE c.domain = d.domain AND d.status IN ('pending', 'validating', 'qualified')
          AND d.onboard_workflow_id IS NULL AND (d.status = 'pending' OR d.updated_at < $2)`,
      [at, new Date(at.getTime() - CLAIM_TTL_MS)],
    );
    const selected = await tx.query<Selected>(
      `WITH pick AS (
         SELECT id FROM discovery_candidates
          WHERE status = 'pending'
             OR (status = 'validating' AND updated_at < $4)
             OR (status = 'qualified' AND onboard_workflow_id IS NULL AND updated_at < $4)
          ORDER BY cardinality(sources) DESC, sighting_count DESC, last_seen_at DESC, domain
          LIMIT $2 FOR UPDATE SKIP LOCKED)
       -- A fresh claim forgets any earlier onboarding run: a re-qualified candidate is handed off again.
       UPDATE discovery_candidates d
          SET status = 'validating', run_id = $1, onboard_workflow_id = NULL, updated_at = $3
         FROM pick WHERE d.id = pick.id
       RETURNING d.domain, cardinality(d.sources) AS sources, d.sighting_count AS sightings, d.last_seen_at`,
      [runId, max, at, new Date(at.getTime() - CLAIM_TTL_MS)],
    );
    // UPDATE ... RETURNING has no order: restore the evidence order for the run's log and its validation order.
    const ordered = (selected as (Selected & { last_seen_at: Date })[])
      .sort(
        (a, b) =>
          b.sources - a.sources ||
          b.sightings - a.sightings ||
          b.last_seen_at.getTime() - a.last_seen_at.getTime() ||
          a.domain.localeCompare(b.domain),
      )
      .map(({ domain, sources, sightings }) => ({ domain, sources, sightings }));
    await tx.query('UPDATE discovery_runs SET selected = $2::jsonb, updated_at = $3 WHERE run_id = $1', [
      runId,
      JSON.stringify(ordered),
      at,
    ]);
    return ordered;
  });
}

export type ValidationOutcome =
  | { domain: string; status: 'qualified'; siteName: string; careersUrl: string | null }
  | { domain: string; status: 'rejected'; reason: RejectionReason; message: string }
  /** Became a company meanwhile (someone onboarded it by hand), or another run owns it now. */
  | { domain: string; status: 'tracked' | 'skipped' };

interface CandidateRow {
  status: string;
  run_id: string | null;
  reason: RejectionReason | null;
  reason_message: string | null;
  site_name: string | null;
  careers_url: string | null;
}

/** The outcome this run already recorded for the candidate, if any (the checkpoint of validateCandidate). */
function recorded(domain: string, runId: string, row: CandidateRow | undefined): ValidationOutcome | null {
  if (!row || row.run_id !== runId) return { domain, status: 'skipped' };
  switch (row.status) {
    case 'validating':
      return null;
    case 'qualified':
    case 'onboarded':
    case 'failed':
      return { domain, status: 'qualified', siteName: row.site_name ?? domain, careersUrl: row.careers_url };
    case 'rejected':
      return {
        domain,
        status: 'rejected',
        reason: row.reason ?? 'unreachable',
        message: row.reason_message ?? '',
      };
    case 'tracked':
      return { domain, status: 'tracked' };
    default:
      return { domain, status: 'skipped' };
  }
}

/** Validates one claimed candidate and records the outcome; re-entry returns the recorded outcome. */
export async function validateCandidate(
  db: Db,
  runId: string,
  domain: string,
  validate: (domain: string) => Promise<Validation>,
  now: () => number,
): Promise<ValidationOutcome> {
  const row = (
    await db.query<CandidateRow>('SELECT * FROM discovery_candidates WHERE domain = $1', [domain])
  )[0];
  const done = recorded(domain, runId, row);
  if (done) return done;

  const at = () => new Date(now());
  const company = (await db.query<{ id: string }>('SELECT id FROM companies WHERE domain = $1', [domain]))[0];
  // Every write below holds only while this run still owns the claim: a lapsed claim taken over by another run
  // wins, and this run reports the candidate as skipped.
  if (company) {
    const rows = await db.query(
      `UPDATE discovery_candidates SET status = 'tracked', company_id = $3, updated_at = $4
        WHERE domain = $1 AND run_id = $2 AND status = 'validating' RETURNING 1`,
      [domain, runId, company.id, at()],
    );
    return rows.length > 0 ? { domain, status: 'tracked' } : { domain, status: 'skipped' };
  }
  const v = await validate(domain);
  const rows = await db.query(
    `UPDATE discovery_candidates
        SET status = $3, reason = $4, reason_message = $5, site_name = $6, careers_url = $7,
            validation_attempts = validation_attempts + 1, validated_at = $8, updated_at = $8
      WHERE domain = $1 AND run_id = $2 AND status = 'validating' RETURNING 1`,
    v.qualified
      ? [domain, runId, 'qualified', null, null, v.siteName, v.careersUrl, at()]
      : [domain, runId, 'rejected', v.reason, v.message, null, null, at()],
  );
  if (rows.length === 0) return { domain, status: 'skipped' };
  return v.qualified
    ? { domain, status: 'qualified', siteName: v.siteName, careersUrl: v.careersUrl }
    : { domain, status: 'rejected', reason: v.reason, message: v.message };
}

/** Hands a qualified candidate to onboarding once; re-entry returns the recorded onboarding run id. */
export async function handOff(
  db: Db,
  runId: string,
  domain: string,
  startOnboard: () => Promise<string>,
  now: () => number,
): Promise<string | null> {
  const row = (
    await db.query<{ onboard_workflow_id: string | null; status: string; run_id: string | null }>(
      'SELECT onboard_workflow_id, status, run_id FROM discovery_candidates WHERE domain = $1',
      [domain],
    )
  )[0];
  if (!row || row.run_id !== runId || row.status !== 'qualified') return null;
  if (row.onboard_workflow_id) return row.onboard_workflow_id;
  // Onboarding collapses per domain (its dedup key), so a repeat of this call cannot start a second run.
  const workflowId = await startOnboard();
  await db.query(
    `UPDATE discovery_candidates SET onboard_workflow_id = $3, updated_at = $4
      WHERE domain = $1 AND run_id = $2`,
    [domain, runId, workflowId, new Date(now())],
  );
  return workflowId;
}

export type OnboardState = 'onboarded' | 'failed' | 'running';

/** Records how a candidate's onboarding run ended (idempotent: only a 'qualified' candidate changes). */
export async function recordOnboarding(
  db: Db,
  domain: string,
  state: OnboardState,
  error: string | null,
  now: () => number,
): Promise<void> {
  if (state === 'running') return;
  const at = new Date(now());
  if (state === 'onboarded') {
    await db.query(
      `UPDATE discovery_candidates d
          SET status = 'onboarded', reason = NULL, reason_message = NULL,
              company_id = (SELECT id FROM companies c WHERE c.domain = d.domain), updated_at = $2
        WHERE domain = $1 AND status = 'qualified'`,
      [domain, at],
    );
  } else {
    await db.query(
      `UPDATE discovery_candidates
          SET status = 'failed', reason = 'onboarding_failed', reason_message = $2, updated_at = $3
        WHERE domain = $1 AND status = 'qualified'`,
      [domain, (error ?? 'onboarding failed').slice(0, 1000), at],
    );
  }
}

/** Candidates handed to onboarding whose outcome is not recorded yet (any run), for reconciliation. */
export async function awaitingOnboarding(db: Db): Promise<{ domain: string; workflowId: string }[]> {
  return db.query<{ domain: string; workflowId: string }>(
    `SELECT domain, onboard_workflow_id AS "workflowId" FROM discovery_candidates
      WHERE status = 'qualified' AND onboard_workflow_id IS NOT NULL ORDER BY updated_at, domain LIMIT 1000`,
  );
}
