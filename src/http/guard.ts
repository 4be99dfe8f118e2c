import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenService } from '../auth/tokens.js';
import type { Config } from '../config.js';
import { AppError, unavailable } from '../errors.js';
import type { Metrics } from '../metrics.js';
import { sendError } from './error-handler.js';
import { MemoryRateLimitStore, type RateDecision, type RateLimitStore } from './rate-limit/store.js';
import type { Caller } from './route-config.js';
import type { TierTable } from './tiers.js';

export interface GuardOptions {
  tokens: TokenService;
  rateLimits: RateLimitStore;
  tiers: TierTable;
  now: () => number;
  onStoreFailure: Config['rateLimit']['onStoreFailure'];
  metrics: Metrics;
}

type Presented = { kind: 'none' } | { kind: 'token'; secret: string } | { kind: 'malformed' };

function presentedToken(request: FastifyRequest): Presented {
  const header = request.headers.authorization;
  if (header === undefined) return { kind: 'none' };
  const match = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i.exec(header);
  return match?.[1] ? { kind: 'token', secret: match[1] } : { kind: 'malformed' };
}

function setRateHeaders(reply: FastifyReply, caller: Caller, d: RateDecision): void {
  const resetS = Math.ceil(d.resetMs / 1000);
  const windowS = Math.round(caller.policy.windowMs / 1000);
  reply.header('X-RateLimit-Limit', String(d.limit));
  reply.header('X-RateLimit-Remaining', String(d.remaining));
  // IETF draft-ietf-httpapi-ratelimit-headers: the policy (quota q over window w) and the current state.
  reply.header('RateLimit-Policy', `"${caller.tier}";q=${d.limit};w=${windowS}`);
  reply.header('RateLimit', `"${caller.tier}";r=${d.remaining};t=${resetS}`);
}

/**
 * Runs first on every request (unknown routes included): resolves the caller's tier, applies the tier's rate
 * limit, then enforces the route's declared access. Failed authentication counts against the client IP's
 * anonymous allowance, which slows token guessing.
 */
export type GuardHook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Returns the hook too, so requests the router rejects before any hook runs (bad URLs) get the same treatment. */
export function registerGuard(app: FastifyInstance, opts: GuardOptions): GuardHook {
  app.decorateRequest('caller', null as unknown as Caller);
  // Per-process limits used while the shared store is unreachable and the policy fails open.
  const fallback = new MemoryRateLimitStore();

  async function decide(request: FastifyRequest, key: string, caller: Caller): Promise<RateDecision> {
    const { requestsPerWindow, windowMs } = caller.policy;
    try {
      return await opts.rateLimits.hit(key, requestsPerWindow, windowMs, opts.now());
    } catch (err) {
      const read = request.method === 'GET' || request.method === 'HEAD';
      const open = opts.onStoreFailure === 'open' || (opts.onStoreFailure === 'auto' && read);
      request.log.warn({ err, failOpen: open }, 'rate-limit store unavailable');
      opts.metrics.rateLimitDecisions.inc({
        tier: caller.tier,
        outcome: open ? 'store_error_open' : 'store_error_closed',
      });
      if (!open) throw unavailable('Rate limiting is unavailable; try again shortly');
      return fallback.hit(key, requestsPerWindow, windowMs, opts.now());
    }
  }

  const guard: GuardHook = async (request, reply) => {
    // Requests the router rejected have no route context; they are plain public requests.
    const config = request.routeOptions?.config ?? {};
    // The metrics route checks its own secret; an API token is not required there and must not be demanded.
    const presented: Presented = config.access === 'metrics' ? { kind: 'none' } : presentedToken(request);
    let invalid = presented.kind === 'malformed';
    let caller: Caller = { tier: 'anonymous', policy: opts.tiers.anonymous, tokenId: null, tokenName: null };
    if (presented.kind === 'token') {
      const identity = await opts.tokens.verify(presented.secret);
      if (identity) {
        caller = { tier: 'token', policy: opts.tiers.token, tokenId: identity.id, tokenName: identity.name };
      } else {
        invalid = true;
      }
    }
    request.caller = caller;
    reply.header('X-Api-Tier', caller.tier);

    if (config.rateLimited !== false) {
      const key = caller.tokenId ? `token:${caller.tokenId}` : `ip:${request.ip}`;
      const decision = await decide(request, key, caller);
      setRateHeaders(reply, caller, decision);
      opts.metrics.rateLimitDecisions.inc({
        tier: caller.tier,
        outcome: decision.allowed ? 'allowed' : 'limited',
      });
      if (!decision.allowed) {
        const retryAfter = String(Math.max(1, Math.ceil(decision.resetMs / 1000)));
        return sendError(
          reply,
          new AppError('RATE_LIMITED', `Rate limit exceeded: ${caller.policy.limitDescription}`, {
            'Retry-After': retryAfter,
          }),
        );
      }
    }
    if (invalid) {
      return sendError(
        reply,
        new AppError(
          'FORBIDDEN',
          presented.kind === 'malformed'
            ? 'Malformed Authorization header; expected "Authorization: Bearer <token>"'
            : 'The presented token is not valid (unknown or revoked)',
        ),
      );
    }
    if (config.access === 'token' && caller.tier !== 'token') {
      return sendError(reply, new AppError('UNAUTHORIZED', 'This endpoint requires a bearer token'));
    }
  };
  app.addHook('onRequest', guard);
  return guard;
}
