import { Type } from 'typebox';
import { COMPANY_CATEGORIES } from '../../catalog/vocabulary.js';
import { PROVIDERS, type Provider } from '../../sources/types.js';
import type { WorkflowDefinition } from '../engine/types.js';
import { messageOf } from '../engine/view.js';
import type { PipelineContext } from './context.js';
import { type ScrapeSummary, scrapeAllBoards } from './scrape.js';
import { type DiscoverOutcome, discoverStep, type KnownBoard, knownBoardsStep } from './steps/boards.js';
import { ensureCompany, type Skipped } from './steps/company.js';
import { type EnrichOutcome, enrichStep } from './steps/enrich.js';

const Vendor = Type.Union(PROVIDERS.map((p) => Type.Literal(p)));
export const OnboardPayload = Type.Object({
  domain: Type.String({ minLength: 3, maxLength: 253 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  force: Type.Boolean(),
  /** Boards known beforehand (the registry's): confirmed and used instead of reading the careers page. */
  boards: Type.Optional(Type.Array(Type.Object({ provider: Vendor, token: Type.String({ minLength: 1 }) }))),
  /** The vendors whose boards may be stored (default: every vendor). */
  vendors: Type.Optional(Type.Array(Vendor)),
  /** The company's category when known beforehand; it stands over the one enrichment derives. */
  category: Type.Optional(Type.Union(COMPANY_CATEGORIES.map((c) => Type.Literal(c)))),
});
export interface OnboardPayload {
  domain: string;
  name: string;
  force: boolean;
  boards?: KnownBoard[];
  vendors?: Provider[];
  category?: (typeof COMPANY_CATEGORIES)[number];
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
 * POST /onboard and `frontline track`: company row, then enrich -> boards -> scrape, each skipped when its
 * completion marker is set unless `force`. With known boards (track) the boards step confirms them instead of
 * reading the careers page, an unreachable homepage leaves the company unenriched rather than untracked, and the
 * boards are scraped again on every run (a tracked company is refreshed). Runs for one domain collapse while
 * enqueued or running (dedup key onboard:<domain>).
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
      const known = p.boards !== undefined && p.boards.length > 0;
      const company = await step('company', () => ensureCompany(ctx, p.domain, p.name, p.category));
      const enrich = await step('enrich', async () => {
        if (!known) return enrichStep(ctx, company, p.domain, p.force, p.category);
        // A homepage that refuses robots or is down does not keep a known board from being tracked.
        return enrichStep(ctx, company, p.domain, p.force, p.category).catch(
          (err: unknown): Skipped => ({ skipped: true, reason: `not enriched: ${messageOf(err)}` }),
        );
      });
      const discover = await step('discover-boards', () =>
        known
          ? knownBoardsStep(ctx, company, p.domain, p.boards ?? [], new Set(p.vendors ?? PROVIDERS))
          : discoverStep(ctx, company, p.domain, p.force),
      );
      const scrape = await scrapeAllBoards(ctx, step, company, !p.force && !known);
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
