import { randomUUID } from 'node:crypto';
import { type Static, Type } from 'typebox';
import type { Db } from '../db/port.js';
import type { RetryPolicy, WorkflowDefinition } from '../pipeline/engine/types.js';
import { applyDossier } from './apply.js';
import { type Dossier, PROCESSORS, RESEARCH_MODES } from './dossier.js';
import { hiringProfile, recentJobTitles } from './hiring.js';
import { companyByDomain, insertRun } from './store.js';
import { type HiringEvidence, ResearchError, type ResearchProvider, type ResearchSubject } from './types.js';

/**
 * The deep-research workflow: a durable run, so a client that disconnects (or a process that crashes) loses
 * nothing. Steps: begin (fixes the run key and start time), load-company (subject and our hiring data), the
 * provider's own steps (evidence / model / Parallel run), store (the run and the company facts in one
 * transaction, idempotent by run key), reindex (the company's embedding, whose text now includes the research).
 */

export const DEEP_RESEARCH_WORKFLOW = 'deep-research';

export const ResearchPayloadSchema = Type.Object({
  companyId: Type.String({ format: 'uuid' }),
  domain: Type.String({ minLength: 3, maxLength: 253 }),
  mode: Type.Enum(RESEARCH_MODES),
  processor: Type.Enum(PROCESSORS),
});
export type ResearchPayload = Static<typeof ResearchPayloadSchema>;

export interface ResearchResult {
  researchId: string;
}

export interface ResearchWorkflowContext {
  db: Db;
  now: () => number;
  provider: ResearchProvider;
  /** Re-computes the search embedding of these companies (skips unchanged text). */
  embed(kind: 'company', ids: readonly string[]): Promise<void>;
  /** Step retry policy for retryable failures (default 3 attempts, 5 s, x3). */
  retry?: RetryPolicy;
}

/** Whole-run budget: the longest Parallel deadline (ultra, 45 min) plus evidence, storage and slack. */
const TIMEOUT_MS = 60 * 60_000;

export const researchDedupKey = (p: Pick<ResearchPayload, 'domain' | 'mode' | 'processor'>): string =>
  `deep-research:${p.domain}:${p.mode}:${p.processor}`;

export function deepResearchWorkflow(
  ctx: ResearchWorkflowContext,
): WorkflowDefinition<ResearchPayload, ResearchResult> {
  return {
    name: DEEP_RESEARCH_WORKFLOW,
    description: 'Researches a tracked company and stores the dossier (POST /deep-research)',
    payload: ResearchPayloadSchema,
    steps: ['begin', 'load-company', ...ctx.provider.steps, 'store', 'reindex'],
    retry: ctx.retry ?? { attempts: 3, intervalSeconds: 5, backoffRate: 3 },
    timeoutMs: TIMEOUT_MS,
    dedupKey: researchDedupKey,
    async run(p, step) {
      const begin = await step('begin', async () => ({ runKey: randomUUID(), startedAt: ctx.now() }));
      const loaded = await step('load-company', () => loadCompany(ctx, p));
      const result = await ctx.provider.research(
        { subject: loaded.subject, mode: p.mode, processor: p.processor },
        loaded.hiring,
        step,
      );
      const stored = await step('store', async () => {
        const now = ctx.now();
        const dossier: Dossier = {
          ...result.facts,
          hiring: loaded.hiring.profile,
          generatedAt: new Date(now).toISOString(),
          provider: ctx.provider.name,
        };
        return ctx.db.transaction(async (tx) => {
          const run = await insertRun(tx, {
            companyId: p.companyId,
            runKey: begin.runKey,
            mode: p.mode,
            processor: p.processor,
            provider: ctx.provider.name,
            providerProcessor: result.providerProcessor,
            providerRunId: result.providerRunId,
            costUsd: result.costUsd,
            durationMs: Math.max(0, now - begin.startedAt),
            dossier,
            createdAtMs: now,
          });
          if (run.inserted) await applyDossier(tx, loaded.subject, dossier, now);
          return { researchId: run.id };
        });
      });
      // The dossier is stored and applied; an embedding failure must not turn that into a failed run. The
      // search catch-up re-embeds stale rows later, so the failure is only recorded in the step's result.
      await step('reindex', async () => {
        try {
          await ctx.embed('company', [p.companyId]);
          return { companyId: p.companyId, embedded: true };
        } catch (err) {
          return {
            companyId: p.companyId,
            embedded: false,
            error: err instanceof Error ? err.message : String(err),
          };
        }
      });
      return stored;
    },
  };
}

/** The tracked company a run researches, as the provider is told it, and its hiring evidence. */
async function loadCompany(
  ctx: ResearchWorkflowContext,
  p: ResearchPayload,
): Promise<{ subject: ResearchSubject; hiring: HiringEvidence }> {
  const company = await companyByDomain(ctx.db, p.domain);
  if (!company || company.id !== p.companyId) {
    throw new ResearchError(`company ${p.domain} is no longer tracked`, false);
  }
  const hiring: HiringEvidence = {
    profile: await hiringProfile(ctx.db, company.id),
    titles: await recentJobTitles(ctx.db, company.id, 30),
  };
  const subject: ResearchSubject = {
    companyId: company.id,
    name: company.name,
    domain: company.domain,
    website: company.website,
    oneLiner: company.oneLiner,
    description: company.description,
  };
  return { subject, hiring };
}
