/**
 * Runs the onboardings `frontline track` selected, through the durable `onboard` workflow, and waits for them:
 * one run per company with an id of its own (select.ts, trackRunId), so a second `track` over the same registry
 * joins what is under way and redoes nothing finished, and a `track` killed mid-way resumes where it stopped. A
 * run that failed is tried again under the next id (`…:2`, `…:3`), never dropped.
 */
import type { Provider } from '../../sources/types.js';
import type { RunState, WorkflowEngine } from '../engine/types.js';
import type { OnboardPayload, OnboardResult } from '../workflows/onboard.js';
import { type TrackEntry, trackRunId } from './select.js';

export interface TrackOutcome {
  domain: string;
  workflowId: string;
  ok: boolean;
  /** Active jobs of the company after its run. */
  jobs: number;
  /** Why it failed: board_not_found, board_moved, vendor_unavailable, timeout, no_board or other. */
  reason?: string;
  error?: string;
}

export interface TrackSummary {
  selected: number;
  tracked: number;
  jobs: number;
  failed: number;
  failedByReason: Record<string, number>;
  outcomes: TrackOutcome[];
}

export interface TrackRunOptions {
  engine: Pick<WorkflowEngine, 'enqueue' | 'states'>;
  allowed: ReadonlySet<Provider>;
  /** Told of every company whose run ended. */
  onOutcome?: (o: TrackOutcome, done: number, total: number) => void;
  /** Pause between two reads of the runs' states, ms. */
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

export function reasonOf(error: string): string {
  if (/redirects to/i.test(error)) return 'board_moved';
  if (/not found|\b404\b|\b410\b/i.test(error)) return 'board_not_found';
  if (/\b429\b|\b5\d\d\b|unavailable/i.test(error)) return 'vendor_unavailable';
  if (/timed? ?out/i.test(error)) return 'timeout';
  return 'other';
}

function outcomeOf(domain: string, state: RunState): TrackOutcome {
  if (state.status !== 'succeeded') {
    const error = state.error ?? state.status;
    return { domain, workflowId: state.workflowId, ok: false, jobs: 0, reason: reasonOf(error), error };
  }
  const r = state.result as OnboardResult | undefined;
  const boards = r && !('skipped' in r.discover) ? r.discover.boards.length : 0;
  const jobs = r?.scrape.activeJobs ?? 0;
  if (boards > 0) return { domain, workflowId: state.workflowId, ok: true, jobs };
  const rejected = r && !('skipped' in r.discover) ? r.discover.rejected.map((x) => x.reason).join('; ') : '';
  const error = `no board confirmed${rejected ? `: ${rejected}` : ''}`;
  return { domain, workflowId: state.workflowId, ok: false, jobs, reason: 'no_board', error };
}

/** The run to join per entry: its id, or the next retry id after runs that failed. */
async function runIds(opts: TrackRunOptions, entries: readonly TrackEntry[]): Promise<string[]> {
  const ids = entries.map((e) => trackRunId(e, opts.allowed));
  for (let attempt = 2; ; attempt += 1) {
    const states = await opts.engine.states(ids);
    const failed = ids
      .map((id, i) => ({ id, i }))
      .filter(({ id }) => ['failed', 'cancelled'].includes(states.get(id)?.status ?? ''));
    if (failed.length === 0) return ids;
    for (const { i } of failed) ids[i] = `${trackRunId(entries[i] as TrackEntry, opts.allowed)}:${attempt}`;
  }
}

export function payloadOf(entry: TrackEntry, allowed: ReadonlySet<Provider>): OnboardPayload {
  return {
    domain: entry.domain,
    name: entry.name,
    force: false,
    category: entry.category,
    boards: entry.boards.map((b) => ({ provider: b.vendor, token: b.board })),
    vendors: [...allowed].sort(),
  };
}

export async function runTrack(entries: readonly TrackEntry[], opts: TrackRunOptions): Promise<TrackSummary> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const ids = await runIds(opts, entries);
  const waiting = new Map<string, string>();
  for (const [i, entry] of entries.entries()) {
    const run = await opts.engine.enqueue('onboard', payloadOf(entry, opts.allowed), {
      workflowId: ids[i] as string,
    });
    // A run of the same company already under way (POST /onboard, the scheduler) is the one waited for.
    waiting.set(run.workflowId, entry.domain);
  }
  const outcomes: TrackOutcome[] = [];
  while (waiting.size > 0) {
    const states = await opts.engine.states([...waiting.keys()]);
    for (const [id, domain] of [...waiting]) {
      const state = states.get(id);
      if (!state || !FINISHED.has(state.status)) continue;
      waiting.delete(id);
      const o = outcomeOf(domain, state);
      outcomes.push(o);
      opts.onOutcome?.(o, outcomes.length, entries.length);
    }
    if (waiting.size > 0) await sleep(opts.pollMs ?? 1_000);
  }
  const failedByReason: Record<string, number> = {};
  for (const o of outcomes)
    if (!o.ok && o.reason) failedByReason[o.reason] = (failedByReason[o.reason] ?? 0) + 1;
  return {
    selected: entries.length,
    tracked: outcomes.filter((o) => o.ok).length,
    jobs: outcomes.reduce((n, o) => n + o.jobs, 0),
    failed: outcomes.filter((o) => !o.ok).length,
    failedByReason,
    outcomes: outcomes.sort((a, b) => a.domain.localeCompare(b.domain)),
  };
}
