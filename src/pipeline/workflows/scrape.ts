import { Type } from 'typebox';
import type { StepRunner, WorkflowDefinition } from '../engine/types.js';
import { messageOf } from '../engine/view.js';
import { activeBoards } from '../store/boards.js';
import { companyName } from '../store/companies.js';
import { readMarkers } from '../store/markers.js';
import type { PipelineContext } from './context.js';
import type { CompanyRef } from './steps/company.js';
import { type FailedBoard, finalizeScrapeStep } from './steps/finalize.js';
import { type BoardOutcome, scrapeBoardStep } from './steps/scrape-board.js';

export interface ScrapeSummary {
  skipped?: true;
  boards: BoardOutcome[];
  failed: Array<{ board: string; error: string }>;
  activeJobs?: number;
  nextScrapeAt?: string;
  /** Whether the company is public after this run (docs/pipeline.md, Publication). */
  published?: boolean;
}

/**
 * Scrapes every active board of a company, one checkpointed step per board (a crash mid-scrape resumes at the
 * first board not yet stored). The boards are read in a step of their own, so that a replay walks the same list. A board that fails after its retries does not stop the others; the run fails at
 * the end, naming it, and the scrape marker stays unset so the next onboard retries it.
 */
export async function scrapeAllBoards(
  ctx: PipelineContext,
  step: StepRunner,
  company: Pick<CompanyRef, 'companyId' | 'name'>,
  skipIfScraped: boolean,
): Promise<ScrapeSummary> {
  const loaded = await step('load-boards', async () => {
    const scrapedAt = skipIfScraped ? (await readMarkers(ctx.db, company.companyId)).scrapedAt : null;
    if (scrapedAt) return { skipped: true as const, reason: `scraped at ${scrapedAt.toISOString()}` };
    return { boards: await activeBoards(ctx.db, company.companyId) };
  });
  if ('skipped' in loaded) return { skipped: true, boards: [], failed: [] };
  const boards: BoardOutcome[] = [];
  const failed: ScrapeSummary['failed'] = [];
  const failedBoards: FailedBoard[] = [];
  for (const board of loaded.boards) {
    const label = `${board.provider}/${board.token}`;
    try {
      boards.push(await step(`scrape:${label}`, () => scrapeBoardStep(ctx, company, board)));
    } catch (err) {
      failed.push({ board: label, error: messageOf(err) });
      failedBoards.push({ id: board.id, provider: board.provider, error: messageOf(err) });
    }
  }
  const fin = await step('finalize', () => finalizeScrapeStep(ctx, company.companyId, failedBoards));
  if (failed.length > 0) {
    throw new Error(
      `${failed.length} of ${loaded.boards.length} boards failed: ` +
        failed.map((f) => `${f.board}: ${f.error}`).join('; '),
    );
  }
  return {
    boards,
    failed,
    activeJobs: fin.activeJobs,
    nextScrapeAt: fin.nextScrapeAt,
    published: fin.published,
  };
}

export const ScrapePayload = Type.Object({
  companyId: Type.String({ format: 'uuid' }),
  domain: Type.String({ minLength: 3, maxLength: 253 }),
});
export type ScrapePayload = { companyId: string; domain: string };

/** The freshness scheduler's run: re-scrape a tracked company's boards. */
export function scrapeWorkflow(ctx: PipelineContext): WorkflowDefinition<ScrapePayload, ScrapeSummary> {
  return {
    name: 'scrape',
    description: "Re-scrape a tracked company's job boards (freshness scheduler)",
    payload: ScrapePayload,
    steps: ['load-company', 'load-boards', 'scrape:', 'finalize'],
    retry: { attempts: 3, intervalSeconds: 2, backoffRate: 2 },
    timeoutMs: 30 * 60_000,
    dedupKey: (p) => `scrape:${p.domain}`,
    run: async (p, step) => {
      const name = await step('load-company', () => companyName(ctx.db, p.companyId));
      if (name === null) return { skipped: true, boards: [], failed: [] };
      return scrapeAllBoards(ctx, step, { companyId: p.companyId, name }, false);
    },
  };
}
