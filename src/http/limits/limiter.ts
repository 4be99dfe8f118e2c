import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError, unavailable } from '../../errors.js';
import type { Metrics } from '../../metrics.js';
import { sendError } from '../error-handler.js';
import type { Caller } from '../route-config.js';
import { MemoryRateLimitStore, type RateDecision, type RateLimitStore } from './store.js';
import type { Tier } from './tiers.js';

export interface LimiterOptions {
  rateLimits: RateLimitStore;
  now: () => number;
  onStoreFailure: Config['rateLimit']['onStoreFailure'];
  metrics: Metrics;
}

/** A budget: so many requests per window. */
export interface Budget {
  requestsPerWindow: number;
  windowMs: number;
}

/** What a decision counts under in frontline_rate_limit_decisions_total. */
export type BudgetLabel = Tier | 'failed_auth' | 'pages';

/** The four rate-limit headers of a decision, by name. */
export type RateLimitHeaders = {
  'x-ratelimit-limit': string;
  'x-ratelimit-remaining': string;
  'ratelimit-policy': string;
  ratelimit: string;
};

/** The rate-limit header values that depend only on the tier, built once. */
interface TierHeaders {
  limit: string;
  /** IETF draft-ietf-httpapi-ratelimit-headers: the policy, quota q over window w. */
  policy: string;
}

function tierHeaders(name: string, budget: Budget): TierHeaders {
  const windowS = Math.round(budget.windowMs / 1000);
  return {
    limit: String(budget.requestsPerWindow),
    policy: `"${name}";q=${budget.requestsPerWindow};w=${windowS}`,
  };
}

export interface Limiter {
  /** Counts a request against `key`'s budget; `then` gets the decision (synchronously when the store is local). */
  decide(
    request: FastifyRequest,
    key: string,
    budget: Budget,
    label: BudgetLabel,
    then: (d: RateDecision) => void,
    done: (err?: Error) => void,
  ): void;
  /** The rate-limit headers of a caller's decision. */
  headers(caller: Caller, d: RateDecision): RateLimitHeaders;
  /** The rate-limit headers of a decision on a named budget outside the tiers (web pages). */
  budgetHeaders(name: string, budget: Budget, d: RateDecision): RateLimitHeaders;
  /** Answers 429 naming the budget that ran out, with Retry-After. */
  refuseOver(reply: FastifyReply, description: string, d: RateDecision): void;
  /** The early-hits admission of an anonymous request (see Guard.admitAnonymous); `pages` for a page's. */
  anonymousAdmitter(
    anonymous: Caller,
    pages: Budget,
  ): (ip: string, page: boolean) => RateLimitHeaders | undefined;
}

/** Built once per budget. */
const tierHeaderCache = new WeakMap<Budget, TierHeaders>();

/** The rate-limit headers of a decision on the budget called `name`. */
function budgetHeaders(name: string, budget: Budget, d: RateDecision): RateLimitHeaders {
  let tier = tierHeaderCache.get(budget);
  if (!tier) {
    tier = tierHeaders(name, budget);
    tierHeaderCache.set(budget, tier);
  }
  return {
    'x-ratelimit-limit': tier.limit,
    'x-ratelimit-remaining': String(d.remaining),
    'ratelimit-policy': tier.policy,
    ratelimit: `"${name}";r=${d.remaining};t=${Math.ceil(d.resetMs / 1000)}`,
  };
}

/** The rate-limit headers of a caller's decision. */
const rateLimitHeaders = (caller: Caller, d: RateDecision): RateLimitHeaders =>
  budgetHeaders(caller.tier, caller.policy, d);

/** Answers 429 naming the budget that ran out, with Retry-After. */
function refuseOverBudget(reply: FastifyReply, description: string, d: RateDecision): void {
  const retryAfterS = Math.max(1, Math.ceil(d.resetMs / 1000));
  sendError(reply, new AppError('RATE_LIMITED', `Rate limit exceeded: ${description}`, retryAfterS));
}

/** Rate-limit decisions over a store, with its failure policy and counters. */
export function rateLimiter(opts: LimiterOptions): Limiter {
  // Per-process limits used while the shared store is unreachable and the policy fails open.
  const fallback = new MemoryRateLimitStore();
  const decisions = opts.metrics.rateLimitDecisions;
  const cells = new Map<string, ReturnType<typeof decisions.cell>>();
  const count = (tier: BudgetLabel, outcome: 'allowed' | 'limited') => {
    const name = `${tier}:${outcome}`;
    let cell = cells.get(name);
    if (!cell) {
      cell = decisions.cell({ tier, outcome });
      cells.set(name, cell);
    }
    cell.inc();
  };

  /** The failure policy for an unreachable store: per-process limits (open) or 503 (closed). */
  function storeFailed(
    request: FastifyRequest,
    label: BudgetLabel,
    key: string,
    budget: Budget,
    err: unknown,
  ) {
    const read = request.method === 'GET' || request.method === 'HEAD';
    const open = opts.onStoreFailure === 'open' || (opts.onStoreFailure === 'auto' && read);
    request.log.warn({ err, failOpen: open }, 'rate-limit store unavailable');
    decisions.inc({ tier: label, outcome: open ? 'store_error_open' : 'store_error_closed' });
    if (!open) throw unavailable('Rate limiting is unavailable; try again shortly');
    return fallback.hit(key, budget.requestsPerWindow, budget.windowMs, opts.now());
  }

  function hit(request: FastifyRequest, key: string, budget: Budget, label: BudgetLabel) {
    try {
      const decision = opts.rateLimits.hit(key, budget.requestsPerWindow, budget.windowMs, opts.now());
      if (!(decision instanceof Promise)) return decision;
      return decision.catch((err: unknown) => storeFailed(request, label, key, budget, err));
    } catch (err) {
      return storeFailed(request, label, key, budget, err);
    }
  }

  const limiter: Limiter = {
    decide(request, key, budget, label, then, done) {
      let decision: RateDecision | Promise<RateDecision>;
      try {
        decision = hit(request, key, budget, label);
      } catch (err) {
        done(err as Error);
        return;
      }
      const counted = (d: RateDecision) => {
        count(label, d.allowed ? 'allowed' : 'limited');
        then(d);
      };
      if (decision instanceof Promise) decision.then(counted, done);
      else counted(decision);
    },
    headers: rateLimitHeaders,
    budgetHeaders,
    refuseOver: refuseOverBudget,
    anonymousAdmitter: (anonymous, pages) => anonymousAdmitter(opts, count, limiter, anonymous, pages),
  };
  return limiter;
}

/** The early-hits admission: an anonymous request counted against its IP's API or page budget, without I/O. */
function anonymousAdmitter(
  opts: LimiterOptions,
  count: (label: BudgetLabel, outcome: 'allowed' | 'limited') => void,
  limiter: Limiter,
  anonymous: Caller,
  pages: Budget,
): (ip: string, page: boolean) => RateLimitHeaders | undefined {
  const api = anonymous.policy;
  return (ip, page) => {
    const budget = page ? pages : api;
    let d: RateDecision | Promise<RateDecision>;
    try {
      d = opts.rateLimits.hit(
        `${page ? 'page' : 'ip'}:${ip}`,
        budget.requestsPerWindow,
        budget.windowMs,
        opts.now(),
      );
    } catch {
      return undefined;
    }
    if (d instanceof Promise || !d.allowed) return undefined;
    count(page ? 'pages' : 'anonymous', 'allowed');
    return page ? budgetHeaders('pages', pages, d) : limiter.headers(anonymous, d);
  };
}
