import type { Tier, TierPolicy } from './tiers.js';

/** Who may call a route; declared on every route so auth is a property, not code in handlers. */
export type RouteAccess = 'public' | 'token' | 'metrics';

export interface Caller {
  tier: Tier;
  policy: TierPolicy;
  tokenId: string | null;
  tokenName: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** false exempts the route from rate limiting (health probes, metrics). */
    rateLimited?: boolean;
    /** Resource name used for page-size limits. */
    resource?: 'jobs' | 'companies' | 'default';
  }
  interface FastifyRequest {
    caller: Caller;
  }
}
