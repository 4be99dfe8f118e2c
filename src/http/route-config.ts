import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { RateDecision } from './limits/store.js';
import type { Tier, TierPolicy } from './limits/tiers.js';

/** Who may call a route; declared on every route so auth is a property, not code in handlers. */
export type RouteAccess = 'public' | 'token' | 'metrics';

export interface Caller {
  tier: Tier;
  policy: TierPolicy;
  tokenId: string | null;
  tokenName: string | null;
}

/** A route's config as Fastify stores it: what the route declared, plus its URL pattern (unmatched: none). */
export type RouteConfig = FastifyContextConfig & { url?: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** false exempts the route from rate limiting (health probes, metrics). */
    rateLimited?: boolean;
    /** true when the handler judges body items one by one, so one bad item never refuses the batch. */
    perItemBody?: boolean;
    /**
     * true: a web page for people. Errors are rendered as HTML pages, and it counts against the page budget
     * (RATE_LIMIT_PAGES per IP), not the API's tiers. 'negotiated': a page for a client preferring text/html,
     * an API operation for any other (GET /).
     */
    page?: boolean | 'negotiated';
    /** Resource name used for page-size limits. */
    resource?: 'jobs' | 'companies' | 'default';
  }
  interface FastifyRequest {
    caller: Caller;
    /** The API budget's decision that admitted this request; null when no API budget counted it. */
    rateDecision: RateDecision | null;
    /** Filled by routeConfig() on first use. */
    routeConfigMemo: RouteConfig | null | undefined;
  }
}

const NO_ROUTE: RouteConfig = Object.freeze({});

export function decorateRouteConfig(app: FastifyInstance): void {
  app.decorateRequest('routeConfigMemo', null);
}

/**
 * The config of the route serving this request. Several hooks need it on every request, and
 * request.routeOptions builds a fresh object of a dozen fields on each read, so the first read is kept.
 * Requests the router rejected (malformed URLs) have no route context: they get an empty config.
 */
export function routeConfig(request: FastifyRequest): RouteConfig {
  let config = request.routeConfigMemo;
  // undefined, not null, on the undecorated request Fastify builds for a URL its router rejected.
  if (!config) {
    config = (request.routeOptions?.config as RouteConfig | undefined) ?? NO_ROUTE;
    request.routeConfigMemo = config;
  }
  return config;
}

/** JSON first: a client with no preference (curl, any type) is a program; a browser asks for text/html by name. */
export const prefersHtml = (accept: string | undefined): boolean =>
  accept !== undefined && negotiate(accept, ['application/json', 'text/html']) === 'text/html';

/** Whether this request is for a web page (see FastifyContextConfig.page). */
export function isPage(request: FastifyRequest): boolean {
  const page = routeConfig(request).page;
  return page === true || (page === 'negotiated' && prefersHtml(request.headers.accept));
}
