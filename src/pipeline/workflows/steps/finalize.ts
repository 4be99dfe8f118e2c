import type { Provider } from '../../../sources/types.js';
import { recordBoardFailure } from '../../store/board-health.js';
import { setMarker } from '../../store/markers.js';
import { isPublished, publishCompany } from '../../store/publication.js';
import { nextScrapeAt, type PipelineContext } from '../context.js';

/** A board whose scrape step failed after its retries (recorded in its health by the finalize step). */
export interface FailedBoard {
  id: string;
  provider: Provider;
  error: string;
}

/**
 * The `finalize` step of a scrape: failed boards recorded, the company published when every board was scraped,
 * the scrape marker set (or only the next scrape time when a board failed), and the company's count of jobs.
 */
export async function finalizeScrapeStep(
  ctx: PipelineContext,
  companyId: string,
  failed: readonly FailedBoard[],
): Promise<{ activeJobs: number; nextScrapeAt: string; published: boolean }> {
  const complete = failed.length === 0;
  for (const f of failed) ctx.counters?.boardScrapes.inc({ vendor: f.provider, outcome: 'error' });
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
  if (out.publishedNow) await ctx.indexer.embedIds('company', [companyId]);
  return { activeJobs: out.activeJobs, nextScrapeAt: out.nextScrapeAt, published: out.published };
}
