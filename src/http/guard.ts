import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenService } from '../auth/tokens.js';
import type { Config } from '../config.js';
import { AppError, unavailable } from '../errors.js';
import type { Metrics } from '../metrics.js';
import { sendError } from './error-handler.js';
import { MemoryRateLimitStore, type RateDecision, type RateLimitStore } from './rate-limit/store.js';
import { type Caller, type RouteConfig, routeConfig } from './route-config.js';
import type { Tier, TierPolicy, TierTable } from './tiers.js';

export interface GuardOptions {
  tokens: TokenService;
  rateLimits: RateLimitStore;
  tiers: TierTable;
  now: () => number;
  onStoreFailure: Config['rateLimit']['onStoreFailure'];
  metrics: Metrics;
  /** A header and secret marking calls made inside an already-counted request (MCP tools): not counted again. */
  internal?: { header: string; value: string };
}

/**
 * Runs first on every request (unknown routes included): resolves the caller's tier, applies the tier's rate
 * limit, then enforces the route's declared access. Failed authentication counts against the client IP's
 * anonymous allowance, which slows token guessing. Callback style, and synchronous unless a token must be looked
 * up or the rate-limit store is remote: an anonymous request allocates no promise here.
 * `done` is called when the request may proceed; a refused request is answered here and `done` is not called.
 */
export type GuardHook = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

/** Why a presented credential was refused (403), if it was. */
type Refusal = 'malformed' | 'invalid' | null;

const BEARER = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i;

const REFUSALS: Record<Exclude<Refusal, null>, string> = {
  malformed: 'Malformed Authorization header; expected "Authorization: Bearer <token>"',
  invalid: 'The presented token is not valid (unknown or revoked)',
};

/** The rate-limit header values that depend only on the tier, built once. */
interface TierHeaders {
  limit: string;
  /** IETF draft-ietf-httpapi-ratelimit-headers: the policy, quota q over window w. */
  policy: string;
}

function tierHeaders(policy: TierPolicy): TierHeaders {
  const windowS = Math.round(policy.windowMs / 1000);
  return {
    limit: String(policy.requestsPerWindow),
    policy: `"${policy.tier}";q=${policy.requestsPerWindow};w=${windowS}`,
  };
}

/** The four rate-limit headers of a decision, by name. */
export type RateLimitHeaders = {
  'x-ratelimit-limit': string;
  'x-ratelimit-remaining': string;
  'ratelimit-policy': string;
  ratelimit: string;
};

function rateLimitHeaders(tier: TierHeaders, caller: Caller, d: RateDecision): RateLimitHeaders {
  return {
    'x-ratelimit-limit': tier.limit,
    'x-ratelimit-remaining': String(d.remaining),
    'ratelimit-policy': tier.policy,
    ratelimit: `"${caller.tier}";r=${d.remaining};t=${Math.ceil(d.resetMs / 1000)}`,
  };
}

export interface Guard {
  /** The onRequest hook; also run by hand for requests the router rejects before any hook runs (bad URLs). */
  hook: GuardHook;
  /**
   * Admits an anonymous request answered before routing (see early-hits.ts) and returns its rate-limit headers,
   * counted as the hook counts them. Undefined when the request is refused, or when the store cannot answer
   * without I/O: the request then goes through the hook, which refuses it (a refused request is not recorded, so
   * nothing is counted twice). Undefined from the start (`synchronous` false) means never.
   */
  admitAnonymous: ((ip: string) => RateLimitHeaders | undefined) | undefined;
}

export function registerGuard(app: FastifyInstance, opts: GuardOptions): Guard {
  app.decorateRequest('caller', null as unknown as Caller);
  // Per-process limits used while the shared store is unreachable and the policy fails open.
  const fallback = new MemoryRateLimitStore();
  // Shared by every anonymous request; frozen because it is shared.
  const anonymous: Caller = Object.freeze({
    tier: 'anonymous',
    policy: opts.tiers.anonymous,
    tokenId: null,
    tokenName: null,
  });
  const headers: Record<Tier, TierHeaders> = {
    anonymous: tierHeaders(opts.tiers.anonymous),
    token: tierHeaders(opts.tiers.token),
  };
  const decisions = opts.metrics.rateLimitDecisions;
  const allowed = {
    anonymous: decisions.cell({ tier: 'anonymous', outcome: 'allowed' }),
    token: decisions.cell({ tier: 'token', outcome: 'allowed' }),
  };
  const limited = {
    anonymous: decisions.cell({ tier: 'anonymous', outcome: 'limited' }),
    token: decisions.cell({ tier: 'token', outcome: 'limited' }),
  };

  /** The failure policy for an unreachable store: per-process limits (open) or 503 (closed). */
  function storeFailed(request: FastifyRequest, caller: Caller, key: string, err: unknown): RateDecision {
    const read = request.method === 'GET' || request.method === 'HEAD';
    const open = opts.onStoreFailure === 'open' || (opts.onStoreFailure === 'auto' && read);
    request.log.warn({ err, failOpen: open }, 'rate-limit store unavailable');
    decisions.inc({ tier: caller.tier, outcome: open ? 'store_error_open' : 'store_error_closed' });
    if (!open) throw unavailable('Rate limiting is unavailable; try again shortly');
    const { requestsPerWindow, windowMs } = caller.policy;
    return fallback.hit(key, requestsPerWindow, windowMs, opts.now());
  }

  /** The decision, or its promise when the store is remote. */
  function decide(request: FastifyRequest, caller: Caller): RateDecision | Promise<RateDecision> {
    const key = caller.tokenId ? `token:${caller.tokenId}` : `ip:${request.ip}`;
    const { requestsPerWindow, windowMs } = caller.policy;
    try {
      const decision = opts.rateLimits.hit(key, requestsPerWindow, windowMs, opts.now());
      if (!(decision instanceof Promise)) return decision;
      return decision.catch((err: unknown) => storeFailed(request, caller, key, err));
    } catch (err) {
      return storeFailed(request, caller, key, err);
    }
  }

  const isInternal = (request: FastifyRequest): boolean =>
    opts.internal !== undefined && request.headers[opts.internal.header] === opts.internal.value;

  /** Rate limit (unless the route is exempt), then access; answers a refused request itself. */
  function admit(
    request: FastifyRequest,
    reply: FastifyReply,
    config: RouteConfig,
    caller: Caller,
    refusal: Refusal,
    done: (err?: Error) => void,
  ): void {
    request.caller = caller;
    reply.header('x-api-tier', caller.tier);
    if (config.rateLimited === false || isInternal(request)) {
      authorize(reply, config, caller, refusal, done);
      return;
    }
    let decision: RateDecision | Promise<RateDecision>;
    try {
      decision = decide(request, caller);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (decision instanceof Promise) {
      decision.then((d) => limit(reply, config, caller, refusal, d, done), done);
    } else {
      limit(reply, config, caller, refusal, decision, done);
    }
  }

  function limit(
    reply: FastifyReply,
    config: RouteConfig,
    caller: Caller,
    refusal: Refusal,
    d: RateDecision,
    done: (err?: Error) => void,
  ): void {
    reply.headers(rateLimitHeaders(headers[caller.tier], caller, d));
    (d.allowed ? allowed : limited)[caller.tier].inc();
    if (d.allowed) {
      authorize(reply, config, caller, refusal, done);
      return;
    }
    const retryAfter = String(Math.max(1, Math.ceil(d.resetMs / 1000)));
    sendError(
      reply,
      new AppError('RATE_LIMITED', `Rate limit exceeded: ${caller.policy.limitDescription}`, {
        'Retry-After': retryAfter,
      }),
    );
  }

  function authorize(
    reply: FastifyReply,
    config: RouteConfig,
    caller: Caller,
    refusal: Refusal,
    done: (err?: Error) => void,
  ): void {
    if (refusal) {
      sendError(reply, new AppError('FORBIDDEN', REFUSALS[refusal]));
    } else if (config.access === 'token' && caller.tier !== 'token') {
      sendError(reply, new AppError('UNAUTHORIZED', 'This endpoint requires a bearer token'));
    } else {
      done();
    }
  }

  const guard: GuardHook = (request, reply, done) => {
    const config = routeConfig(request);
    // The metrics route checks its own secret; an API token is not required there and must not be demanded.
    const header = config.access === 'metrics' ? undefined : request.headers.authorization;
    if (header === undefined) {
      admit(request, reply, config, anonymous, null, done);
      return;
    }
    const secret = BEARER.exec(header)?.[1];
    if (!secret) {
      admit(request, reply, config, anonymous, 'malformed', done);
      return;
    }
    opts.tokens.verify(secret).then((identity) => {
      const caller: Caller = identity
        ? { tier: 'token', policy: opts.tiers.token, tokenId: identity.id, tokenName: identity.name }
        : anonymous;
      admit(request, reply, config, caller, identity ? null : 'invalid', done);
    }, done);
  };
  app.addHook('onRequest', guard);

  const admitAnonymous = (ip: string): RateLimitHeaders | undefined => {
    const { requestsPerWindow, windowMs } = anonymous.policy;
    let d: RateDecision | Promise<RateDecision>;
    try {
      d = opts.rateLimits.hit(`ip:${ip}`, requestsPerWindow, windowMs, opts.now());
    } catch {
      return undefined;
    }
    if (d instanceof Promise || !d.allowed) return undefined;
    allowed.anonymous.inc();
    return rateLimitHeaders(headers.anonymous, anonymous, d);
  };
  return { hook: guard, admitAnonymous: opts.rateLimits.synchronous === true ? admitAnonymous : undefined };
}
