import type { Config } from '../../config.js';

export type Tier = 'anonymous' | 'token';
export type PagedResource = 'jobs' | 'companies' | 'default';

/** What each tier may do: data, not constants scattered through handlers (docs/api.md). */
export interface TierPolicy {
  tier: Tier;
  requestsPerWindow: number;
  windowMs: number;
  /** Human description of the rate limit, used in 429 messages. */
  limitDescription: string;
  maxPageSize: Record<PagedResource, number>;
  /** Rows reachable by paging: an offset at or past this is RESULT_WINDOW_EXCEEDED. */
  resultWindow: number;
  /** May ask a search to explain its scores (GET /jobs explain=true). */
  explain: boolean;
}

export type TierTable = Record<Tier, TierPolicy>;

function describeWindow(ms: number): string {
  if (ms === 60_000) return 'per minute';
  if (ms % 60_000 === 0) return `per ${ms / 60_000} minutes`;
  return `per ${ms / 1000} seconds`;
}

export function buildTiers(rateLimit: Config['rateLimit']): TierTable {
  const per = describeWindow(rateLimit.windowMs);
  return {
    anonymous: {
      tier: 'anonymous',
      requestsPerWindow: rateLimit.anonymous,
      windowMs: rateLimit.windowMs,
      limitDescription: `anonymous limit of ${rateLimit.anonymous} requests ${per} per IP`,
      maxPageSize: { jobs: 20, companies: 20, default: 20 },
      resultWindow: 100,
      explain: false,
    },
    token: {
      tier: 'token',
      requestsPerWindow: rateLimit.token,
      windowMs: rateLimit.windowMs,
      limitDescription: `token limit of ${rateLimit.token} requests ${per} per token`,
      maxPageSize: { jobs: 50, companies: 100, default: 100 },
      resultWindow: 1000,
      explain: true,
    },
  };
}

/** A budget outside the tiers: failed authentication attempts, web pages. */
export interface FailedAuthPolicy {
  requestsPerWindow: number;
  windowMs: number;
  limitDescription: string;
}

/**
 * The budget of failed authentication attempts (an invalid or malformed token, a wrong metrics token) per client
 * IP: its own, so a caller with a bad token is answered 403 whatever its IP's anonymous quota, while guessing
 * tokens stays slow (each guess costs a token lookup).
 */
export function buildFailedAuthPolicy(rateLimit: Config['rateLimit']): FailedAuthPolicy {
  return {
    requestsPerWindow: rateLimit.failedAuth,
    windowMs: rateLimit.windowMs,
    limitDescription: `failed-authentication limit of ${rateLimit.failedAuth} attempts ${describeWindow(rateLimit.windowMs)} per IP`,
  };
}

/**
 * The budget of web pages per client IP: its own, apart from the API's, and higher, so a person clicking through
 * the site never meets a 429, while a scraper still does (and the API's budget stays the API's).
 */
export function buildPagesPolicy(rateLimit: Config['rateLimit']): FailedAuthPolicy {
  return {
    requestsPerWindow: rateLimit.pages,
    windowMs: rateLimit.windowMs,
    limitDescription: `page limit of ${rateLimit.pages} pages ${describeWindow(rateLimit.windowMs)} per IP`,
  };
}

/** Search results are a ranked shortlist of at most this many rows, for every tier. */
export const SEARCH_SHORTLIST = 100;
