import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenService } from '../../auth/tokens.js';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Metrics } from '../../metrics.js';
import { sendError } from '../error-handler.js';
import { type MetricsAccess, metricsAccess } from '../metrics-access.js';
import { type Caller, isPage, type RouteConfig, routeConfig } from '../route-config.js';
import { type Limiter, type RateLimitHeaders, rateLimiter } from './limiter.js';
import type { RateDecision, RateLimitStore } from './store.js';
import type { FailedAuthPolicy, Tier, TierTable } from './tiers.js';

export type { RateLimitHeaders } from './limiter.js';

export interface GuardOptions {
  tokens: TokenService;
  rateLimits: RateLimitStore;
  tiers: TierTable;
  failedAuth: FailedAuthPolicy;
  /** The per-IP budget of routes declared `page` (the web site), apart from the API's tiers. */
  pages: FailedAuthPolicy;
  now: () => number;
  onStoreFailure: Config['rateLimit']['onStoreFailure'];
  metrics: Metrics;
  metricsToken: string | undefined;
  /** A header and secret marking calls made inside an already-counted request (MCP tools): not counted again. */
  internal?: { header: string; value: string };
}

/**
 * Runs on every request (unknown routes included), after the CORS preflight answer: resolves the caller, then
 * either refuses a presented credential that is not valid (403, against the IP's failed-authentication budget,
 * never its anonymous quota) or applies the caller's rate limit and the route's declared access. Callback style,
 * and synchronous unless a token must be looked up or the rate-limit store is remote: an anonymous request
 * allocates no promise here. `done` is called when the request may proceed; a refused request is answered here
 * and `done` is not called.
 */
export type GuardHook = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

const BEARER = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i;

const MALFORMED = 'Malformed Authorization header; expected "Authorization: Bearer <token>"';
const INVALID = 'The presented token is not valid (unknown or revoked)';

export interface Guard {
  /** The onRequest hook; also run by hand for requests the router rejects before any hook runs (bad URLs). */
  hook: GuardHook;
  /**
   * Admits an anonymous request answered before routing (see caching/early-hits.ts) and returns the headers the
   * hook would have set (its tier and rate limit), counted as the hook counts them. Undefined when the request is
   * refused, or when the store cannot answer without I/O: the request then goes through the hook, which refuses it
   * (a refused request is not recorded, so nothing is counted twice). Undefined from the start (`synchronous`
   * false) means never.
   */
  admitAnonymous: ((ip: string, page: boolean) => GuardHeaders | undefined) | undefined;
  /**
   * Counts `extra` more requests against the budget that admitted this one (a JSON-RPC batch on POST /mcp is as
   * many requests as it has messages). Refused whole with 429 when the window has not room for all of them, before
   * any is counted; the rate-limit headers then show what is left. A request no budget counted (exempt, internal)
   * is not charged.
   */
  charge(request: FastifyRequest, reply: FastifyReply, extra: number, done: (err?: Error) => void): void;
  /**
   * The tier and rate-limit headers of a request Node's parser refused (431, 408, 400), which no hook sees: the
   * anonymous tier, no header having been read, and the IP's anonymous budget with this request counted.
   */
  parserRefusalHeaders(ip: string): Record<string, string> | Promise<Record<string, string>>;
}

/** The headers the guard sets on an admitted request: the tier it is served in and its rate limit. */
export type GuardHeaders = RateLimitHeaders & { [TIER_HEADER]: Tier };

const TIER_HEADER = 'x-api-tier';

/** The bearer secret of an Authorization header: undefined when absent, null when malformed. */
export function bearerSecret(header: string | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  return BEARER.exec(header)?.[1] ?? null;
}

function anonymousCaller(tiers: TierTable): Caller {
  // Shared by every anonymous request; frozen because it is shared.
  return Object.freeze({ tier: 'anonymous', policy: tiers.anonymous, tokenId: null, tokenName: null });
}

/** The route's declared access, for a caller within its rate limit. */
function authorize(reply: FastifyReply, config: RouteConfig, caller: Caller, done: (err?: Error) => void) {
  if (config.access === 'token' && caller.tier !== 'token') {
    sendError(reply, new AppError('UNAUTHORIZED', 'This endpoint requires a bearer token'));
  } else {
    done();
  }
}

/** A presented credential that is not valid: 403 within the IP's failed-authentication budget, else 429. */
function refuser(opts: GuardOptions, limiter: Limiter, anonymous: Caller) {
  return (request: FastifyRequest, reply: FastifyReply, message: string, done: (e?: Error) => void): void => {
    request.caller = anonymous;
    // Every answer names the tier it was served in: a refused token is served as anonymous.
    reply.header(TIER_HEADER, anonymous.tier);
    const answer = (d: RateDecision) => {
      if (d.allowed) sendError(reply, new AppError('FORBIDDEN', message));
      else limiter.refuseOver(reply, opts.failedAuth.limitDescription, d);
    };
    limiter.decide(request, `authfail:${request.ip}`, opts.failedAuth, 'failed_auth', answer, done);
  };
}

/** The caller's rate limit (unless the route is exempt or the request internal), then the route's access. */
function admitter(opts: GuardOptions, limiter: Limiter) {
  const isInternal = (request: FastifyRequest): boolean =>
    opts.internal !== undefined && request.headers[opts.internal.header] === opts.internal.value;
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    config: RouteConfig,
    caller: Caller,
    done: (err?: Error) => void,
  ): void => {
    request.caller = caller;
    reply.header(TIER_HEADER, caller.tier);
    if (config.rateLimited === false || isInternal(request)) {
      authorize(reply, config, caller, done);
      return;
    }
    if (isPage(request)) {
      // A page counts against the IP's page budget whoever calls: a person's browser sends no token.
      const counted = (d: RateDecision) => {
        reply.headers(limiter.budgetHeaders('pages', opts.pages, d));
        if (d.allowed) authorize(reply, config, caller, done);
        else limiter.refuseOver(reply, opts.pages.limitDescription, d);
      };
      limiter.decide(request, `page:${request.ip}`, opts.pages, 'pages', counted, done);
      return;
    }
    const key = caller.tokenId ? `token:${caller.tokenId}` : `ip:${request.ip}`;
    const admitted = (d: RateDecision) => {
      request.rateDecision = d;
      reply.headers(limiter.headers(caller, d));
      if (d.allowed) authorize(reply, config, caller, done);
      else limiter.refuseOver(reply, caller.policy.limitDescription, d);
    };
    limiter.decide(request, key, caller.policy, caller.tier, admitted, done);
  };
}

/** Guard.charge: `extra` more hits on the caller's key, one after another, refused whole when they cannot fit. */
function charger(limiter: Limiter): Guard['charge'] {
  return (request, reply, extra, done) => {
    const first = request.rateDecision;
    if (first === null || extra <= 0) return done();
    const caller = request.caller;
    const key = caller.tokenId ? `token:${caller.tokenId}` : `ip:${request.ip}`;
    const refuse = (d: RateDecision) => {
      reply.headers(limiter.headers(caller, d));
      limiter.refuseOver(reply, `${caller.policy.limitDescription} (each message of a batch counts)`, d);
    };
    if (first.remaining < extra) return refuse({ ...first, allowed: false });
    let left = extra;
    const next = (d: RateDecision) => {
      if (!d.allowed) return refuse(d);
      reply.headers(limiter.headers(caller, d));
      if (--left > 0) limiter.decide(request, key, caller.policy, caller.tier, next, done);
      else done();
    };
    limiter.decide(request, key, caller.policy, caller.tier, next, done);
  };
}

export function registerGuard(app: FastifyInstance, opts: GuardOptions): Guard {
  app.decorateRequest('caller', null as unknown as Caller);
  app.decorateRequest('rateDecision', null);
  const anonymous = anonymousCaller(opts.tiers);
  const limiter: Limiter = rateLimiter(opts);
  const metrics: MetricsAccess = metricsAccess(opts.metricsToken);
  const refuse = refuser(opts, limiter, anonymous);
  const admit = admitter(opts, limiter);

  /**
   * /metrics checks its own secret (METRICS_TOKEN) or the client's address, never an API token. The address is
   * request.ip: with TRUST_PROXY, the client the trusted proxy forwarded for, so a public client reaching the
   * service through a local proxy is not taken for a loopback one.
   */
  function guardMetrics(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    const verdict = metrics.check(request.headers.authorization, request.ip);
    request.caller = anonymous;
    if (verdict.ok) done();
    else if (verdict.refused === 'guess') refuse(request, reply, verdict.message, done);
    else sendError(reply, new AppError(verdict.refused, verdict.message));
  }

  const guard: GuardHook = (request, reply, done) => {
    const config = routeConfig(request);
    if (config.access === 'metrics') {
      guardMetrics(request, reply, done);
      return;
    }
    const secret = bearerSecret(request.headers.authorization);
    if (secret === undefined) {
      admit(request, reply, config, anonymous, done);
    } else if (secret === null) {
      refuse(request, reply, MALFORMED, done);
    } else {
      opts.tokens.verify(secret).then((identity) => {
        if (!identity) return refuse(request, reply, INVALID, done);
        const caller: Caller = {
          tier: 'token',
          policy: opts.tiers.token,
          tokenId: identity.id,
          tokenName: identity.name,
        };
        admit(request, reply, config, caller, done);
      }, done);
    }
  };
  app.addHook('onRequest', guard);

  const tierOnly = {
    'x-api-tier': anonymous.tier,
    'x-ratelimit-limit': String(anonymous.policy.requestsPerWindow),
  };
  const refusalHeaders = (d: RateDecision) => ({
    'x-api-tier': anonymous.tier,
    ...limiter.headers(anonymous, d),
  });
  const admitLimits =
    opts.rateLimits.synchronous === true ? limiter.anonymousAdmitter(anonymous, opts.pages) : undefined;
  return {
    hook: guard,
    charge: charger(limiter),
    parserRefusalHeaders: (ip) => {
      const budget = anonymous.policy;
      try {
        const d = opts.rateLimits.hit(`ip:${ip}`, budget.requestsPerWindow, budget.windowMs, opts.now());
        return d instanceof Promise ? d.then(refusalHeaders, () => tierOnly) : refusalHeaders(d);
      } catch {
        return tierOnly;
      }
    },
    // An admitted anonymous request answered early carries the headers this hook sets: its tier and its limits.
    admitAnonymous:
      admitLimits &&
      ((ip, page) => {
        const limits = admitLimits(ip, page);
        return limits && { [TIER_HEADER]: anonymous.tier, ...limits };
      }),
  };
}
