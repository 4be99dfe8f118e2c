import { Type } from 'typebox';
import type { WorkflowDefinition } from '../engine/types.js';
import { companyName } from '../store/companies.js';
import type { PipelineContext } from './context.js';
import type { Skipped } from './steps/company.js';
import { type EnrichOutcome, enrichStep } from './steps/enrich.js';

export const EnrichPayload = Type.Object({
  companyId: Type.String({ format: 'uuid' }),
  domain: Type.String({ minLength: 3, maxLength: 253 }),
});
export interface EnrichPayload {
  companyId: string;
  domain: string;
}

export interface EnrichResult {
  companyId: string;
  domain: string;
  enrich: EnrichOutcome | Skipped;
  embedded: boolean;
}

/**
 * POST /enrich: forced re-acquisition of the company's facts (homepage, about page), which re-derives its tags,
 * then a re-computed search embedding. Collapses per domain (dedup key enrich:<domain>).
 */
export function enrichWorkflow(ctx: PipelineContext): WorkflowDefinition<EnrichPayload, EnrichResult> {
  return {
    name: 'enrich',
    description: "Re-acquire a tracked company's facts, re-derive its tags and re-compute its embedding",
    payload: EnrichPayload,
    steps: ['load-company', 'enrich', 'embed'],
    retry: { attempts: 3, intervalSeconds: 2, backoffRate: 2 },
    timeoutMs: 10 * 60_000,
    dedupKey: (p) => `enrich:${p.domain}`,
    run: async (p, step) => {
      const name = await step('load-company', async () => {
        const found = await companyName(ctx.db, p.companyId);
        if (!found) throw new Error(`company ${p.domain} no longer exists`);
        return found;
      });
      const company = { companyId: p.companyId, name, slug: '', created: false };
      const enrich = await step('enrich', () => enrichStep(ctx, company, p.domain, true));
      // enrichStep embeds already; this step makes the re-computation explicit and survives a crash between.
      await step('embed', async () => {
        await ctx.indexer.embedIds('company', [p.companyId]);
        return { companyId: p.companyId };
      });
      return { companyId: p.companyId, domain: p.domain, enrich, embedded: true };
    },
  };
}
