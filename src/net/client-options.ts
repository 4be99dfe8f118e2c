import type { Config } from '../config.js';
import type { Resolver } from './types.js';

/** Settings of the guarded outbound client (client.ts), with their defaults. */
export interface ClientOptions {
  /** Contact URL (http(s) or mailto:) put in the User-Agent; absent: the User-Agent names no contact. */
  userAgentContact?: string | undefined;
  /**
   * host → origin: requests for host go to origin (OUTBOUND_HOST_MAP); the only way to reach loopback. A key
   * starting with '.' maps every subdomain (`.recruitee.com` covers `acme.recruitee.com`).
   */
  hostMap?: Record<string, string>;
  /** DNS resolver (default: the system resolver). Tests inject answers here. */
  resolver?: Resolver;
  /** TCP+TLS connect budget per connection, ms (default 5000): a healthy site connects in well under a second. */
  connectTimeoutMs?: number;
  /** Time to response headers, ms (default 10000), and max gap between body chunks (slow-loris guard). */
  headersTimeoutMs?: number;
  /** Whole-call budget including redirects, retries and their waits, ms (default 30000). */
  totalTimeoutMs?: number;
  /**
   * Ceiling on every call's whole budget, including calls that ask for more with `timeoutMs`, ms (default: none).
   * Operators bound how long one slow or hostile server can hold a workflow step (OUTBOUND_TIMEOUT_CAP_MS).
   */
  timeoutCapMs?: number;
  /** Default decompressed body cap, bytes (default 5 MiB, above the largest ATS boards' JSON). */
  maxBytes?: number;
  /** Redirect hops followed (default 5, docs/sources.md). */
  maxRedirects?: number;
  /** Attempts for retryable GET/HEAD failures, including the first (default 3). */
  maxAttempts?: number;
  /** First backoff, ms, doubled per attempt with jitter (default 500). */
  backoffBaseMs?: number;
  /** A Retry-After above this (ms, default 30000) is not waited for: the response is returned as is. */
  maxRetryAfterMs?: number;
  /** Requests in flight per host (default 2, docs/sources.md). */
  perHostConcurrency?: number;
  /** Minimum spacing between request starts to one host for pages, ms (default 200). */
  perHostDelayMs?: number;
  /**
   * Spacing for documented APIs (`kind: 'api'`), ms (default 100: with 2 in flight that stays under the
   * strictest published vendor limit, SmartRecruiters' ~10 requests/s).
   */
  apiHostDelayMs?: number;
  /** Least spacing for named hosts, ms, over the two above: a vendor's published rate limit (OUTBOUND_HOST_GAPS). */
  hostGapsMs?: Record<string, number>;
  /** robots.txt cache lifetime, ms (default 6 h; RFC 9309 allows up to 24 h). */
  robotsTtlMs?: number;
  /** Upper bound on a robots.txt Crawl-delay we honour, ms (default 10000). */
  maxCrawlDelayMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Source of jitter in [0,1) (default Math.random). */
  random?: () => number;
  /** Told the outcome of every request (ok, http_4xx, http_5xx, or the OutboundError reason): metrics. */
  onOutcome?: (host: string, outcome: string) => void;
}

/** The configuration the outbound client reads. */
export type OutboundConfig = Pick<
  Config,
  | 'userAgentContact'
  | 'publicBaseUrl'
  | 'outboundHostMap'
  | 'outboundHeadersTimeoutMs'
  | 'outboundTimeoutCapMs'
  | 'outboundHostConcurrency'
  | 'outboundApiGapMs'
  | 'outboundHostGapsMs'
>;

export function clientOptionsFromConfig(
  config: OutboundConfig,
  onOutcome?: (host: string, outcome: string) => void,
): ClientOptions {
  return {
    // A site's operator reaches whoever runs this deployment: the contact configured, else its public site.
    userAgentContact: config.userAgentContact ?? config.publicBaseUrl,
    hostMap: config.outboundHostMap,
    headersTimeoutMs: config.outboundHeadersTimeoutMs,
    timeoutCapMs: config.outboundTimeoutCapMs > 0 ? config.outboundTimeoutCapMs : undefined,
    perHostConcurrency: config.outboundHostConcurrency,
    apiHostDelayMs: config.outboundApiGapMs,
    hostGapsMs: config.outboundHostGapsMs,
    onOutcome,
  };
}

/**
 * Options of a client for an endpoint the operator configures (a language model, an embeddings server), not one a
 * user supplies, and often a local server (Ollama on 127.0.0.1): unless OUTBOUND_HOST_MAP already routes its host,
 * that one host is host-mapped to its own origin. Page fetches never use such a client, so pages still cannot reach
 * loopback.
 */
export function endpointClientOptions(
  config: OutboundConfig,
  baseUrl: string,
  onOutcome?: (host: string, outcome: string) => void,
): ClientOptions {
  const options = clientOptionsFromConfig(config, onOutcome);
  const url = new URL(baseUrl);
  const host = url.hostname.toLowerCase();
  if (host in config.outboundHostMap) return options;
  return { ...options, hostMap: { ...config.outboundHostMap, [host]: url.origin } };
}
