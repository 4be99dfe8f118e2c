import { upsertCompanyByDomain } from '../../../catalog/company-writes.js';
import { setCompanyTags } from '../../../catalog/tags.js';
import type { CompanyCategory } from '../../../catalog/vocabulary.js';
import { fetchCompanyPages } from '../../enrich/index.js';
import { readMarkers, setMarker } from '../../store/markers.js';
import type { PipelineContext } from '../context.js';
import type { CompanyRef, Skipped } from './company.js';

export interface EnrichOutcome {
  oneLiner: string | null;
  category: string | null;
  tags: number;
  source: string;
}

/**
 * The `enrich` step: the company's pages, the facts the enricher reads from them, stored with its tags and
 * re-embedded. The homepage is handed to the boards step that follows (context.ts, HomepageHandoff).
 */
export async function enrichStep(
  ctx: PipelineContext,
  company: CompanyRef,
  domain: string,
  force: boolean,
  /** The category known beforehand (the registry's), which stands over the derived one. */
  category?: CompanyCategory,
): Promise<EnrichOutcome | Skipped> {
  const markers = await readMarkers(ctx.db, company.companyId);
  if (markers.enrichedAt && !force) {
    return { skipped: true, reason: `enriched at ${markers.enrichedAt.toISOString()}` };
  }
  const pages = await fetchCompanyPages(domain, ctx.http);
  if (pages[0]) ctx.homepages.put(domain, pages[0]);
  const derived = await ctx.enricher.enrich(domain, pages);
  const facts = category ? { ...derived, category } : derived;
  const social = Object.fromEntries(
    Object.entries(facts.social).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    // The caller's name stands: a homepage title is often a slogan, not the company's name.
    await upsertCompanyByDomain(
      tx,
      domain,
      {
        name: company.name,
        oneLiner: facts.oneLiner ?? undefined,
        description: facts.description ?? undefined,
        category: facts.category ?? undefined,
        socialLinks: social,
      },
      now,
    );
    await setCompanyTags(tx, company.companyId, facts.tags, now);
    await setMarker(tx, company.companyId, 'enriched_at', now);
  });
  await ctx.indexer.embedIds('company', [company.companyId]);
  return {
    oneLiner: facts.oneLiner,
    category: facts.category,
    tags: facts.tags.length,
    source: facts.source,
  };
}
