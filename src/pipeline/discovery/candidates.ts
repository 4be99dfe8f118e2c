import type { Db } from '../../db/port.js';

/** GET /candidates: the read side of discovery candidates. */

/**
 * pending: waiting for validation (new, or reopened by new evidence after a rejection or failure);
 * validating: claimed by a promote run; qualified: passed validation, handed to onboarding (outcome pending);
 * onboarded: its onboarding run succeeded; rejected: failed validation (see reason); failed: onboarding failed;
 * tracked: the domain was already a company in the catalog, so it is not onboarded again.
 */
export const CANDIDATE_STATUSES = [
  'pending',
  'validating',
  'qualified',
  'onboarded',
  'rejected',
  'failed',
  'tracked',
] as const;
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number];

export interface Candidate {
  id: string;
  domain: string;
  status: CandidateStatus;
  evidence: { sources: string[]; sightingCount: number; firstSeenAt: string; lastSeenAt: string };
  reason: string | null;
  reasonMessage: string | null;
  siteName: string | null;
  careersUrl: string | null;
  companyId: string | null;
  onboardWorkflowId: string | null;
  validationAttempts: number;
  validatedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  domain: string;
  status: CandidateStatus;
  sources: string[];
  sighting_count: number;
  first_seen_at: Date;
  last_seen_at: Date;
  reason: string | null;
  reason_message: string | null;
  site_name: string | null;
  careers_url: string | null;
  company_id: string | null;
  onboard_workflow_id: string | null;
  validation_attempts: number;
  validated_at: Date | null;
  created_at: Date;
  updated_at: Date;
  total: number;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toCandidate(r: Row): Candidate {
  return {
    id: r.id,
    domain: r.domain,
    status: r.status,
    evidence: {
      sources: r.sources,
      sightingCount: r.sighting_count,
      firstSeenAt: r.first_seen_at.toISOString(),
      lastSeenAt: r.last_seen_at.toISOString(),
    },
    reason: r.reason,
    reasonMessage: r.reason_message,
    siteName: r.site_name,
    careersUrl: r.careers_url,
    companyId: r.company_id,
    onboardWorkflowId: r.onboard_workflow_id,
    validationAttempts: r.validation_attempts,
    validatedAt: iso(r.validated_at),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** Most recently seen first, then domain: what changed lately is what an operator looks at. */
export async function listCandidates(
  db: Db,
  statuses: readonly CandidateStatus[] | undefined,
  page: { limit: number; offset: number },
): Promise<{ items: Candidate[]; total: number }> {
  // Statuses travel as one JSON array: both drivers pass a string parameter identically.
  const filter = statuses !== undefined && statuses.length > 0;
  const rows = await db.query<Row>(
    `SELECT *, count(*) OVER ()::int AS total FROM discovery_candidates
      ${filter ? 'WHERE status IN (SELECT jsonb_array_elements_text($3::jsonb))' : ''}
      ORDER BY last_seen_at DESC, domain, id
      LIMIT $1 OFFSET $2`,
    filter ? [page.limit, page.offset, JSON.stringify(statuses)] : [page.limit, page.offset],
  );
  if (rows.length === 0 && page.offset > 0) {
    const counted = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM discovery_candidates ${filter ? 'WHERE status IN (SELECT jsonb_array_elements_text($1::jsonb))' : ''}`,
      filter ? [JSON.stringify(statuses)] : [],
    );
    return { items: [], total: counted[0]?.n ?? 0 };
  }
  return { items: rows.map(toCandidate), total: rows[0]?.total ?? 0 };
}
