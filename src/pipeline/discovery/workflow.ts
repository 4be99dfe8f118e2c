import { Type } from 'typebox';
import type { Db } from '../../db/port.js';
import type { StepRunner, WorkflowDefinition } from '../engine/types.js';
import { beginRun, type IntakeSummary, intake, type RunArgs } from './intake.js';
import {
  awaitingOnboarding,
  handOff,
  type OnboardState,
  recordOnboarding,
  selectForValidation,
  type ValidationOutcome,
  validateCandidate,
} from './stages.js';
import type { Validation } from './validate.js';

/** The promote workflow: discovery processing as one durable run. */

export const PROMOTE_WORKFLOW = 'promote';
/** Every trigger shares this key, so triggers collapse into one run while it is enqueued or running. */
export const PROMOTE_DEDUP_KEY = 'promote';

export const PROMOTE_DEFAULTS: RunArgs = { limit: 200, maxValidations: 20 };
export const PROMOTE_MAX: RunArgs = { limit: 1000, maxValidations: 100 };

export const PromotePayload = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: PROMOTE_MAX.limit }),
  maxValidations: Type.Integer({ minimum: 1, maximum: PROMOTE_MAX.maxValidations }),
});

export interface PromoteContext {
  db: Db;
  now: () => number;
  /** Validates a domain (validate.ts validateDomain bound to the guarded client and board discovery). */
  validate(domain: string): Promise<Validation>;
  /** Enqueues the onboarding workflow for a qualified domain; returns its workflow id. */
  startOnboard(domain: string, name: string): Promise<string>;
  /** The state of an onboarding run: finished (onboarded/failed, with its error) or still running. */
  onboardState(workflowId: string): Promise<{ state: OnboardState; error: string | null }>;
  /** Validations run at once (default 4): different sites, so per-host politeness is unaffected. */
  validationConcurrency?: number;
  /** How long the run waits for its onboarding runs, ms (default 10 min); later outcomes are reconciled next run. */
  onboardWaitMs?: number;
  /** Poll interval while waiting, ms (default 1000). */
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface PromoteResult {
  args: RunArgs;
  intake: IntakeSummary;
  /** Outcomes of earlier runs' onboarding recorded at the start of this one. */
  reconciled: { onboarded: number; failed: number };
  validation: {
    selected: number;
    qualified: number;
    rejected: number;
    /** Became a company since it was discovered: not onboarded again. */
    tracked: number;
    /** Claimed by another run meanwhile. */
    skipped: number;
    /** Rejections per reason (validate.ts REJECTION_REASONS). */
    reasons: Record<string, number>;
    rejections: { domain: string; reason: string; message: string }[];
  };
  onboarding: {
    handedOff: number;
    onboarded: number;
    failed: number;
    /** Still running when the wait ended; recorded by a later run. */
    running: number;
    runs: { domain: string; workflowId: string; state: OnboardState }[];
  };
}

const chunks = <T>(xs: T[], n: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

async function reconcile(c: PromoteContext): Promise<PromoteResult['reconciled']> {
  const out = { onboarded: 0, failed: 0 };
  for (const { domain, workflowId } of await awaitingOnboarding(c.db)) {
    const { state, error } = await c.onboardState(workflowId);
    await recordOnboarding(c.db, domain, state, error, c.now);
    if (state !== 'running') out[state] += 1;
  }
  return out;
}

/** Polls the onboarding runs until all finished or the wait budget is spent; records each outcome. */
async function awaitOnboarding(
  c: PromoteContext,
  runs: { domain: string; workflowId: string }[],
): Promise<PromoteResult['onboarding']['runs']> {
  const sleep = c.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = Date.now() + (c.onboardWaitMs ?? 10 * 60_000);
  const states = new Map(runs.map((r) => [r.workflowId, 'running' as OnboardState]));
  for (;;) {
    for (const r of runs) {
      if (states.get(r.workflowId) !== 'running') continue;
      const { state, error } = await c.onboardState(r.workflowId);
      await recordOnboarding(c.db, r.domain, state, error, c.now);
      states.set(r.workflowId, state);
    }
    if (![...states.values()].includes('running') || Date.now() >= deadline) break;
    await sleep(c.pollMs ?? 1000);
  }
  return runs.map((r) => ({ ...r, state: states.get(r.workflowId) ?? 'running' }));
}

export async function runPromote(c: PromoteContext, runId: string, args: RunArgs, step: StepRunner) {
  const at = () => new Date(c.now());
  const taken = await step('intake', async () => {
    await beginRun(c.db, runId, args, at());
    return intake(c.db, runId, args.limit, at());
  });
  const reconciled = await step('reconcile', () => reconcile(c));
  const selected = await step('select', () => selectForValidation(c.db, runId, args.maxValidations, at()));

  // Steps of a chunk start in a fixed order (the engine numbers steps by start order, and replay must match).
  const outcomes: ValidationOutcome[] = [];
  for (const chunk of chunks(selected, c.validationConcurrency ?? 4)) {
    const results = await Promise.all(
      chunk.map((s) =>
        step(`validate:${s.domain}`, () => validateCandidate(c.db, runId, s.domain, c.validate, c.now), {
          attempts: 1,
        }),
      ),
    );
    outcomes.push(...results);
  }

  const handed: { domain: string; workflowId: string }[] = [];
  for (const o of outcomes) {
    if (o.status !== 'qualified') continue;
    const workflowId = await step(`onboard:${o.domain}`, () =>
      handOff(c.db, runId, o.domain, () => c.startOnboard(o.domain, o.siteName), c.now),
    );
    if (workflowId) handed.push({ domain: o.domain, workflowId });
  }
  const runs = handed.length > 0 ? await step('await-onboarding', () => awaitOnboarding(c, handed)) : [];

  const rejections = outcomes.flatMap((o) =>
    o.status === 'rejected' ? [{ domain: o.domain, reason: o.reason, message: o.message }] : [],
  );
  const reasons: Record<string, number> = {};
  for (const r of rejections) reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
  const count = (s: ValidationOutcome['status']) => outcomes.filter((o) => o.status === s).length;
  const result: PromoteResult = {
    args,
    intake: taken,
    reconciled,
    validation: {
      selected: selected.length,
      qualified: count('qualified'),
      rejected: rejections.length,
      tracked: count('tracked'),
      skipped: count('skipped'),
      reasons,
      rejections,
    },
    onboarding: {
      handedOff: handed.length,
      onboarded: runs.filter((r) => r.state === 'onboarded').length,
      failed: runs.filter((r) => r.state === 'failed').length,
      running: runs.filter((r) => r.state === 'running').length,
      runs,
    },
  };
  return result;
}

/**
 * The catalog entry. Stages checkpoint under the payload's runId, chosen by the route at enqueue: DBOS hands the
 * same payload to a recovered run, so a resumed run finds its own checkpoints (the port does not expose the
 * workflow id to the run).
 */
export function promoteWorkflow(
  c: PromoteContext,
): WorkflowDefinition<RunArgs & { runId: string }, PromoteResult> {
  return {
    name: PROMOTE_WORKFLOW,
    description:
      'Discovery processing: take in sightings, fold them into candidates, validate the best, onboard the qualified',
    payload: Type.Object({
      ...PromotePayload.properties,
      runId: Type.String({ minLength: 1, maxLength: 100 }),
    }),
    steps: ['intake', 'reconcile', 'select', 'validate:', 'onboard:', 'await-onboarding'],
    // Stages record their own outcomes; a failed stage is retried a few times (database blips), validations never.
    retry: { attempts: 3, intervalSeconds: 2, backoffRate: 2 },
    timeoutMs: 60 * 60_000,
    dedupKey: () => PROMOTE_DEDUP_KEY,
    run: ({ runId, limit, maxValidations }, step) => runPromote(c, runId, { limit, maxValidations }, step),
  };
}
