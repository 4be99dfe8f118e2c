import { upsertCompanyByDomain } from '../../catalog/company-writes.js';
import { setCompanyTags } from '../../catalog/tags.js';
import type { CompanyCategory } from '../../catalog/vocabulary.js';
import type { Provider } from '../../sources/types.js';
import { recordBoardFailure } from '../store/board-health.js';
import { activeBoards, type StoredBoard, upsertBoards } from '../store/boards.js';
import { readMarkers, setMarker } from '../store/markers.js';
import { holdUnpublished, isPublished, publishCompany } from '../store/publication.js';
import { nextScrapeAt, type PipelineContext } from './context.js';

/**
 * The step bodies shared by the onboarding, re-enrichment and re-scrape workflows. Each is idempotent: its
 * writes are upserts keyed by natural identities and commit in one transaction together with its completion
 * marker, so a crash before commit leaves nothing and a re-run after commit rewrites the same rows.
 */

export interface Skipped {
  skipped: true;
  reason: string;
}
const skipped = (reason: string): Skipped => ({ skipped: true, reason });

export interface CompanyRef {
  companyId: string;
  name: string;
  slug: string;
  created: boolean;
}

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

export interface EnrichOutcome {
  oneLiner: string | null;
  category: string | null;
  tags: number;
  source: string;
}

export async function enrichStep(
  ctx: PipelineContext,
  company: CompanyRef,
  domain: string,
  force: boolean,
  /** The category known beforehand (the registry's), which stands over the derived one. */
  category?: CompanyCategory,
): Promise<EnrichOutcome | Skipped> {
  const markers = await readMarkers(ctx.db, company.companyId);
  if (markers.enrichedAt && !force) return skipped(`enriched at ${markers.enrichedAt.toISOString()}`);
  const derived = await ctx.enrichCompany(domain);
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
  await ctx.embed('company', [company.companyId]);
  return {
    oneLiner: facts.oneLiner,
    category: facts.category,
    tags: facts.tags.length,
    source: facts.source,
  };
}

export interface DiscoverOutcome {
  careersUrl: string | null;
  boards: Array<{ provider: string; token: string; url: string; postingCount: number | null }>;
  rejected: Array<{ provider: string; token: string; reason: string }>;
}

export async function discoverStep(
  ctx: PipelineContext,
  company: CompanyRef,
  domain: string,
  force: boolean,
): Promise<DiscoverOutcome | Skipped> {
  const markers = await readMarkers(ctx.db, company.companyId);
  if (markers.boardsDiscoveredAt && !force) {
    return skipped(`boards discovered at ${markers.boardsDiscoveredAt.toISOString()}`);
  }
  const found = await ctx.discoverBoards(domain);
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    await upsertBoards(
      tx,
      company.companyId,
      found.boards.map((b) => ({ provider: b.provider, token: b.token, url: b.url, evidence: b.evidence })),
      now,
    );
    await setMarker(tx, company.companyId, 'boards_discovered_at', now, { careersUrl: found.careersUrl });
  });
  return {
    careersUrl: found.careersUrl,
    boards: found.boards.map((b) => ({
      provider: b.provider,
      token: b.token,
      url: b.url,
      postingCount: b.postingCount,
    })),
    rejected: found.rejected,
  };
}

/** The boards to scrape, read in a step so that a replay after a crash walks the same list. */
export async function loadBoardsStep(
  ctx: PipelineContext,
  companyId: string,
  skipIfScraped: boolean,
): Promise<{ boards: StoredBoard[] } | Skipped> {
  if (skipIfScraped) {
    const markers = await readMarkers(ctx.db, companyId);
    if (markers.scrapedAt) return skipped(`scraped at ${markers.scrapedAt.toISOString()}`);
  }
  return { boards: await activeBoards(ctx.db, companyId) };
}

export { type BoardOutcome, scrapeBoardStep } from './scrape-board.js';

/** A board whose scrape step failed after its retries (recorded in its health by the finalize step). */
export interface FailedBoard {
  id: string;
  provider: Provider;
  error: string;
}

export async function finalizeScrapeStep(
  ctx: PipelineContext,
  companyId: string,
  failed: readonly FailedBoard[],
): Promise<{ activeJobs: number; nextScrapeAt: string; published: boolean }> {
  const complete = failed.length === 0;
  for (const f of failed) ctx.onBoardScrape?.(f.provider, 'error');
  const out = await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    // Every board scraped (or none found): the company is listed even with no job. A board stored earlier in the
    // run has already published it (scrape-board.ts).
    const publishedNow = complete && (await publishCompany(tx, companyId, now));
    for (const f of failed) await recordBoardFailure(tx, f.id, 'error', f.error, now);
    const next = nextScrapeAt(ctx, now);
    if (complete) {
      await setMarker(tx, companyId, 'scraped_at', now, { nextScrapeAt: next });
    } else {
      await tx.query(
        'UPDATE company_pipeline SET next_scrape_at = $2, updated_at = $3 WHERE company_id = $1',
        [companyId, next, new Date(now)],
      );
    }
    const rows = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM jobs WHERE company_id = $1 AND active',
      [companyId],
    );
    return {
      publishedNow,
      activeJobs: rows[0]?.n ?? 0,
      nextScrapeAt: next.toISOString(),
      published: await isPublished(tx, companyId),
    };
  });
  // Search embeds active companies only: the enrichment's embedding of an unpublished one was skipped.
  if (out.publishedNow) await ctx.embed('company', [companyId]);
  return { activeJobs: out.activeJobs, nextScrapeAt: out.nextScrapeAt, published: out.published };
}
