import { Type } from 'typebox';
import type { WorkflowDefinition } from '../engine/types.js';
import type { PipelineContext } from './context.js';
import { type ScrapeSummary, scrapeAllBoards } from './scrape.js';
import {
  type DiscoverOutcome,
  discoverStep,
  type EnrichOutcome,
  enrichStep,
  ensureCompany,
  type Skipped,
} from './steps.js';

export const OnboardPayload = Type.Object({
  domain: Type.String({ minLength: 3, maxLength: 253 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  force: Type.Boolean(),
});
export interface OnboardPayload {
  domain: string;
  name: string;
  force: boolean;
}

export interface OnboardResult {
  companyId: string;
  slug: string;
  domain: string;
  created: boolean;
  enrich: EnrichOutcome | Skipped;
  discover: DiscoverOutcome | Skipped;
  scrape: ScrapeSummary;
}

/**
 * POST /onboard: company row, then enrich -> discover boards -> scrape, each skipped when its completion marker
 * is set unless `force`. Runs for one domain collapse while enqueued or running (dedup key onboard:<domain>).
 */
export function onboardWorkflow(ctx: PipelineContext): WorkflowDefinition<OnboardPayload, OnboardResult> {
  return {
    name: 'onboard',
    description: 'Create or update a company, enrich it, discover its job boards and scrape them',
    payload: OnboardPayload,
    steps: ['company', 'enrich', 'discover-boards', 'load-boards', 'scrape:', 'finalize'],
    retry: { attempts: 3, intervalSeconds: 2, backoffRate: 2 },
    timeoutMs: 30 * 60_000,
    dedupKey: (p) => `onboard:${p.domain}`,
    run: async (p, step) => {
      const company = await step('company', () => ensureCompany(ctx, p.domain, p.name));
      const enrich = await step('enrich', () => enrichStep(ctx, company, p.domain, p.force));
      const discover = await step('discover-boards', () => discoverStep(ctx, company, p.domain, p.force));
      const scrape = await scrapeAllBoards(ctx, step, company, !p.force);
      return {
        companyId: company.companyId,
        slug: company.slug,
        domain: p.domain,
        created: company.created,
        enrich,
        discover,
        scrape,
      };
    },
  };
}
