import { upsertCompanyByDomain } from '../../../catalog/company-writes.js';
import type { CompanyCategory } from '../../../catalog/vocabulary.js';
import { holdUnpublished } from '../../store/publication.js';
import type { PipelineContext } from '../context.js';

/**
 * The steps of the onboarding, re-enrichment and re-scrape workflows live in this folder, one module per step.
 * Each is idempotent: its writes are upserts keyed by natural identities and commit in one transaction together
 * with its completion marker, so a crash before commit leaves nothing and a re-run after commit rewrites the same
 * rows.
 */

/** A step that did nothing because its completion marker was set (or its input was missing). */
export interface Skipped {
  skipped: true;
  reason: string;
}

export interface CompanyRef {
  companyId: string;
  name: string;
  slug: string;
  created: boolean;
}

/** The `company` step: the company's row (held unpublished when new) and its pipeline row. */
export async function ensureCompany(
  ctx: PipelineContext,
  domain: string,
  name: string,
  category?: CompanyCategory,
): Promise<CompanyRef> {
  return ctx.db.transaction(async (tx) => {
    const fields = { name, website: `https://${domain}`, ...(category ? { category } : {}) };
    const c = await upsertCompanyByDomain(tx, domain, fields, ctx.now());
    // Public once its onboarding has produced a listing (store/publication.ts).
    if (c.created) await holdUnpublished(tx, c.id);
    await tx.query(
      'INSERT INTO company_pipeline (company_id) VALUES ($1) ON CONFLICT (company_id) DO NOTHING',
      [c.id],
    );
    return { companyId: c.id, name, slug: c.slug, created: c.created };
  });
}
