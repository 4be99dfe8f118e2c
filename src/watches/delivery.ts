import { Type } from 'typebox';
import type { Db } from '../db/port.js';
import { type HttpClient, OutboundError } from '../net/types.js';
import type { WorkflowDefinition } from '../pipeline/engine/types.js';
import { signedHeaders } from './signing.js';
import { deliveryById, disableWatch, recordAttempt, watchById } from './store.js';

/**
 * Delivering one batch to a watch's webhook, as a durable workflow: each attempt is a checkpointed step, and the
 * waits between attempts are durable sleeps, so a crash resumes the schedule where it was. Delivery is at least
 * once: an attempt that reached the receiver just before a crash is sent again with the same `webhook-id`.
 */

export const DELIVER_WORKFLOW = 'deliver-watch';

export interface DeliveryContext {
  db: Db;
  http: HttpClient;
  now: () => number;
  /** The real time, for the signature's timestamp: receivers compare it with their own clock. */
  wallNow: () => number;
  random: () => number;
  /** First retry delay, ms; doubled per attempt up to an hour, with jitter. */
  retryBaseMs: number;
  /** How long after its creation a delivery is retried before the watch is disabled, ms. */
  retryForMs: number;
  onOutcome?: (outcome: 'delivered' | 'retry' | 'failed') => void;
}

type Attempt = { done: true } | { retryInMs: number };

const MAX_DELAY_MS = 3_600_000;
/** A receiver answers within this, or the attempt counts as failed (a slow receiver must not hold a worker). */
const ATTEMPT_TIMEOUT_MS = 15_000;

/** Retry-After as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, nowMs: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Exponential backoff with jitter: base × 2^(attempt-1), capped, times a factor in [0.5, 1). */
export function backoffMs(attempt: number, baseMs: number, random: () => number): number {
  const exp = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(exp * (0.5 + random() / 2));
}

async function send(ctx: DeliveryContext, url: string, headers: Record<string, string>, body: string) {
  try {
    const res = await ctx.http.request(url, {
      method: 'POST',
      headers,
      body,
      kind: 'api',
      retry: false,
      followRedirects: false,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxBytes: 64 * 1024,
    });
    if (res.status >= 200 && res.status < 300) return { ok: true as const, status: res.status };
    return {
      ok: false as const,
      status: res.status,
      error: `HTTP ${res.status}`,
      retryAfter: retryAfterMs(res.headers['retry-after'], ctx.now()),
      permanent: false,
    };
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    // A policy refusal (a private address, a blocked port) will not change by waiting.
    return {
      ok: false as const,
      status: null,
      error: err.message,
      retryAfter: undefined,
      permanent: !err.retryable,
    };
  }
}

async function attempt(ctx: DeliveryContext, deliveryId: string, n: number): Promise<Attempt> {
  const d = await deliveryById(ctx.db, deliveryId);
  if (d?.status !== 'pending') return { done: true };
  const watch = await watchById(ctx.db, d.watchId);
  if (watch?.status !== 'active') {
    const error = 'the watch was deleted or disabled';
    await recordAttempt(ctx.db, d.id, { status: 'failed', httpStatus: null, error }, ctx.now());
    ctx.onOutcome?.('failed');
    return { done: true };
  }
  const body = JSON.stringify(d.payload);
  const result = await send(ctx, watch.url, signedHeaders(watch.secret, d.id, body, ctx.wallNow()), body);
  const now = ctx.now();
  if (result.ok) {
    await recordAttempt(ctx.db, d.id, { status: 'delivered', httpStatus: result.status, error: null }, now);
    ctx.onOutcome?.('delivered');
    return { done: true };
  }
  const delay = result.retryAfter ?? backoffMs(n, ctx.retryBaseMs, ctx.random);
  const expired = now + delay > Date.parse(d.createdAt) + ctx.retryForMs;
  if (result.permanent || expired) {
    await recordAttempt(
      ctx.db,
      d.id,
      { status: 'failed', httpStatus: result.status, error: result.error },
      now,
    );
    const why = result.permanent
      ? 'refused'
      : `still failing after ${Math.round(ctx.retryForMs / 60_000)} min`;
    await disableWatch(ctx.db, watch.id, `delivery ${d.id} ${why}: ${result.error}`);
    ctx.onOutcome?.('failed');
    return { done: true };
  }
  await recordAttempt(
    ctx.db,
    d.id,
    { status: 'pending', httpStatus: result.status, error: result.error },
    now,
  );
  ctx.onOutcome?.('retry');
  return { retryInMs: delay };
}

const Payload = Type.Object({ deliveryId: Type.String({ minLength: 1, maxLength: 100 }) });

export function deliveryWorkflow(
  ctx: DeliveryContext,
): WorkflowDefinition<{ deliveryId: string }, { attempts: number }> {
  return {
    name: DELIVER_WORKFLOW,
    description: 'Deliver a batch of newly matching jobs to a watch webhook, retrying until accepted',
    payload: Payload,
    steps: ['attempt:'],
    // Each attempt is one try: the schedule between attempts is the workflow's own (durable sleeps).
    retry: { attempts: 1, intervalSeconds: 1, backoffRate: 2 },
    timeoutMs: ctx.retryForMs + 3_600_000,
    dedupKey: (p) => p.deliveryId,
    run: async (p, step, tools) => {
      for (let n = 1; ; n++) {
        const r = await step(`attempt:${n}`, () => attempt(ctx, p.deliveryId, n));
        if ('done' in r) return { attempts: n };
        await tools.sleep(r.retryInMs);
      }
    },
  };
}
