/**
 * The guarded outbound HTTP client's public surface. Every outbound request of the service goes through an
 * `OutboundClient` (src/net/client.ts): SSRF checks, timeouts, size caps, robots.txt, retries and politeness
 * live there, so callers (source adapters, board discovery, enrichment, LLM calls) never touch undici directly.
 */

/** Why an outbound request failed. Stable strings: workflows record them in step errors. */
export type OutboundReason =
  | 'invalid_url'
  | 'blocked_scheme'
  | 'blocked_address'
  | 'blocked_port'
  | 'dns'
  | 'connect'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'robots_disallowed'
  | 'http_status'
  | 'invalid_json'
  | 'network';

export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundReason,
    message: string,
    /** True when the same request may succeed later (timeouts, 429/5xx, resets); false for policy refusals. */
    readonly retryable: boolean,
    /** The final HTTP status, when the failure is about one (reason 'http_status'). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundRequest {
  method?: 'GET' | 'HEAD' | 'POST';
  /** Extra request headers; User-Agent is always ours and cannot be overridden. */
  headers?: Record<string, string>;
  /** Request body (POST only), sent as is. */
  body?: string;
  /**
   * 'page' (default) obeys robots.txt: human-facing pages of company sites.
   * 'api' skips robots.txt: documented public JSON APIs (ATS vendors, the configured LLM) published for reuse.
   */
  kind?: 'page' | 'api';
  /** Response body cap in bytes after decompression; default from ClientOptions.maxBytes. */
  maxBytes?: number;
  /** Total time budget for this request including redirects and retries, ms; default ClientOptions.totalTimeoutMs. */
  timeoutMs?: number;
  /** Follow redirects (default true, at most ClientOptions.maxRedirects, each hop re-checked). */
  followRedirects?: boolean;
  /** Retry 429/5xx and network failures (GET/HEAD only, or a POST marked idempotent; default true). */
  retry?: boolean;
  /**
   * The request only reads (a search POSTed as JSON, like Workday's job listing), so it may be retried like a GET.
   * Default false: a POST is never repeated unless its caller says so.
   */
  idempotent?: boolean;
}

export interface OutboundResponse {
  /** The URL that produced this response, after redirects (the logical URL, never the host-map origin). */
  url: string;
  status: number;
  /** Lower-case header names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** Body decoded as UTF-8 (empty for HEAD). */
  body: string;
  /** Redirect hops followed. */
  redirects: number;
}

/**
 * Any HTTP status is returned as a response (callers decide what 404 means for them); only transport and
 * policy failures throw `OutboundError`. 429/5xx on GET/HEAD are retried first and, when retries run out,
 * the last response is returned (status still 429/5xx).
 */
export interface HttpClient {
  request(url: string, req?: OutboundRequest): Promise<OutboundResponse>;
  /** GET + JSON.parse of the body; throws OutboundError('http_status') on a non-2xx status. */
  getJson(url: string, req?: OutboundRequest): Promise<{ url: string; status: number; data: unknown }>;
}

/** Resolves a host name to addresses (A and AAAA). Injected in tests to simulate DNS answers. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;
