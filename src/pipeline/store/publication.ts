import { bumpCatalogVersion } from '../../catalog/version.js';
import type { Queryable } from '../../db/port.js';

/**
 * Publication of a company onboarded by domain (docs/pipeline.md, Publication). A new company is held unpublished
 * and inactive, so no public read lists or answers it; it is published in the transaction that stores its first
 * board listing, or by the onboarding's finalize step when no board failed (no board found, boards gone). Jobs are
 * only ever written in the first of those transactions, so an unpublished company never has a job to show.
 */

/** Holds a company just created by the onboarding unpublished (same transaction as its insert). */
export async function holdUnpublished(tx: Queryable, companyId: string): Promise<void> {
  await tx.query('UPDATE companies SET active = false, published_at = NULL WHERE id = $1', [companyId]);
}

/** Publishes the company if it is not yet; true when this call published it. Idempotent (a replayed step). */
export async function publishCompany(tx: Queryable, companyId: string, nowMs: number): Promise<boolean> {
  const held = await tx.query<{ id: string }>(
    'SELECT id FROM companies WHERE id = $1 AND published_at IS NULL',
    [companyId],
  );
  if (held.length === 0) return false;
  await bumpCatalogVersion(tx, nowMs);
  const now = new Date(nowMs);
  await tx.query(
    'UPDATE companies SET published_at = $2, active = true, updated_at = $2 WHERE id = $1 AND published_at IS NULL',
    [companyId, now],
  );
  return true;
}

/** Whether the company is public (false for an unknown id). */
export async function isPublished(db: Queryable, companyId: string): Promise<boolean> {
  const rows = await db.query<{ published: boolean }>(
    'SELECT published_at IS NOT NULL AS published FROM companies WHERE id = $1',
    [companyId],
  );
  return rows[0]?.published === true;
}
