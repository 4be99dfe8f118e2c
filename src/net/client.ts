/**
 * The guarded outbound HTTP client (docs/sources.md). Every outbound request of the service goes
 * through `OutboundClient.request`: scheme/port/address policy, connect-time DNS checks (guard.ts), redirects
 * re-vetted hop by hop, robots.txt for pages, per-host politeness, retries of idempotent requests on 429/5xx
 * honouring Retry-After, timeouts and a decompressed size cap.
 */
import type { Agent, Dispatcher } from 'undici';
import { readCapped } from './body.js';
import type { ClientOptions } from './client-options.js';
import { guardedLookup, systemResolver, vetUrl } from './guard.js';
import { HostLimiter } from './limiter.js';
import { RobotsCache } from './robots.js';
import { type HttpClient, OutboundError, type OutboundRequest, type OutboundResponse } from './types.js';

export { type ClientOptions, clientOptionsFromConfig, endpointClientOptions } from './client-options.js';

export const BOT_NAME = 'FrontlineBot';
const BOT_VERSION = '0.1';

const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

interface Hop {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Transport {
  guarded: Agent;
  direct: Agent;
  request: typeof import('undici').request;
}

export class OutboundClient implements HttpClient {
  private readonly o: Required<Omit<ClientOptions, 'hostMap'>> & { hostMap: Record<string, string> };
  private transport: Promise<Transport> | undefined;
  private readonly limiter: HostLimiter;
  private readonly robots: RobotsCache;
  readonly userAgent: string;

  constructor(options: ClientOptions) {
    this.o = {
      hostMap: Object.fromEntries(
        Object.entries(options.hostMap ?? {}).map(([h, v]) => [h.toLowerCase(), v]),
      ),
      resolver: systemResolver,
      connectTimeoutMs: 5_000,
      headersTimeoutMs: 10_000,
      totalTimeoutMs: 30_000,
      timeoutCapMs: Number.POSITIVE_INFINITY,
      maxBytes: 5 * 1024 * 1024,
      maxRedirects: 5,
      maxAttempts: 3,
      backoffBaseMs: 500,
      maxRetryAfterMs: 30_000,
      perHostConcurrency: 2,
      perHostDelayMs: 200,
      apiHostDelayMs: 100,
      hostGapsMs: {},
      robotsTtlMs: 6 * 3_600_000,
      maxCrawlDelayMs: 10_000,
      now: Date.now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      random: Math.random,
      onOutcome: () => {},
      ...stripUndefined(options),
    } as OutboundClient['o'];
    const contact = this.o.userAgentContact;
    this.userAgent = contact ? `${BOT_NAME}/${BOT_VERSION} (+${contact})` : `${BOT_NAME}/${BOT_VERSION}`;
    this.limiter = new HostLimiter({
      concurrency: this.o.perHostConcurrency,
      now: this.o.now,
      sleep: this.o.sleep,
    });
    this.robots = new RobotsCache({ agent: BOT_NAME, ttlMs: this.o.robotsTtlMs, now: this.o.now });
  }

  async request(url: string, req: OutboundRequest = {}): Promise<OutboundResponse> {
    let host = 'invalid';
    try {
      host = new URL(url).hostname;
    } catch {
      // vetUrl below reports the malformed URL.
    }
    try {
      const res = await this.requestUnobserved(url, req);
      this.o.onOutcome(host, res.status >= 500 ? 'http_5xx' : res.status >= 400 ? 'http_4xx' : 'ok');
      return res;
    } catch (err) {
      this.o.onOutcome(host, err instanceof OutboundError ? err.reason : 'error');
      throw err;
    }
  }

  private async requestUnobserved(url: string, req: OutboundRequest): Promise<OutboundResponse> {
    const deadline = this.o.now() + Math.min(req.timeoutMs ?? this.o.totalTimeoutMs, this.o.timeoutCapMs);
    let method = req.method ?? 'GET';
    let body = req.body;
    let current = url;
    for (let redirects = 0; ; redirects += 1) {
      const target = vetUrl(current, (h) => this.mappedOrigin(h) !== undefined);
      const isPage = (req.kind ?? 'page') === 'page';
      let delayMs = Math.max(
        isPage ? this.o.perHostDelayMs : this.o.apiHostDelayMs,
        this.o.hostGapsMs[target.hostname] ?? 0,
      );
      if (isPage) {
        const policy = await this.robots.policy(target.href, this);
        if (!policy.allowed) {
          throw new OutboundError(
            'robots_disallowed',
            `robots.txt of ${target.host} disallows ${target.pathname}`,
            false,
          );
        }
        if (policy.crawlDelayMs !== null)
          delayMs = Math.max(delayMs, Math.min(policy.crawlDelayMs, this.o.maxCrawlDelayMs));
      }
      const hop = await this.withRetries(method, req, deadline, () =>
        this.limiter.run(target.host, delayMs, () => this.send(target, method, body, req, deadline)),
      );
      const location = hop.headers.location;
      if (REDIRECT_STATUSES.has(hop.status) && location && req.followRedirects !== false) {
        if (redirects >= this.o.maxRedirects) {
          throw new OutboundError(
            'too_many_redirects',
            `More than ${this.o.maxRedirects} redirects from ${url}`,
            false,
          );
        }
        current = redirectTarget(location, target, url);
        // 303 always, and 301/302 after a POST by browser convention, continue as a body-less GET.
        if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      return { url: target.href, status: hop.status, headers: hop.headers, body: hop.body, redirects };
    }
  }

  async getJson(
    url: string,
    req: OutboundRequest = {},
  ): Promise<{ url: string; status: number; data: unknown }> {
    const res = await this.request(url, { ...req, headers: { accept: 'application/json', ...req.headers } });
    if (res.status < 200 || res.status > 299) {
      throw new OutboundError(
        'http_status',
        `${url} answered ${res.status}`,
        RETRYABLE_STATUSES.has(res.status),
        res.status,
      );
    }
    try {
      return { url: res.url, status: res.status, data: JSON.parse(res.body) as unknown };
    } catch {
      throw new OutboundError('invalid_json', `${url} did not return JSON`, false, res.status);
    }
  }

  private mappedOrigin(hostname: string): string | undefined {
    const h = hostname.toLowerCase();
    const exact = this.o.hostMap[h];
    if (exact !== undefined) return exact;
    for (let i = h.indexOf('.'); i >= 0; i = h.indexOf('.', i + 1)) {
      const wildcard = this.o.hostMap[h.slice(i)];
      if (wildcard !== undefined) return wildcard;
    }
    return undefined;
  }

  /**
   * undici is imported on the first request (~0.1 s at start, and an API process may never fetch anything).
   * Only host-map origins (configured by the operator) go through the unguarded agent.
   */
  private connect(): Promise<Transport> {
    this.transport ??= import('undici').then(({ Agent, request }) => ({
      guarded: new Agent({
        connect: { timeout: this.o.connectTimeoutMs, lookup: guardedLookup(this.o.resolver) },
      }),
      direct: new Agent({ connect: { timeout: this.o.connectTimeoutMs } }),
      request,
    }));
    return this.transport;
  }

  async close(): Promise<void> {
    const t = await this.transport;
    if (t) await Promise.all([t.guarded.close(), t.direct.close()]);
  }

  private async withRetries(
    method: string,
    req: OutboundRequest,
    deadline: number,
    attempt: () => Promise<Hop>,
  ): Promise<Hop> {
    const retryable =
      (method === 'GET' || method === 'HEAD' || req.idempotent === true) && req.retry !== false;
    for (let n = 1; ; n += 1) {
      let wait: number;
      try {
        const hop = await attempt();
        if (!retryable || n >= this.o.maxAttempts || !RETRYABLE_STATUSES.has(hop.status)) return hop;
        const retryAfter = parseRetryAfter(hop.headers['retry-after'], this.o.now());
        wait = retryAfter ?? this.backoff(n);
        if (wait > this.o.maxRetryAfterMs || this.o.now() + wait >= deadline) return hop;
      } catch (err) {
        const e = toOutboundError(err);
        if (!retryable || !e.retryable || n >= this.o.maxAttempts) throw e;
        wait = this.backoff(n);
        if (this.o.now() + wait >= deadline) throw e;
      }
      await this.o.sleep(wait);
    }
  }

  private backoff(attempt: number): number {
    const base = this.o.backoffBaseMs * 2 ** (attempt - 1);
    return Math.round(base / 2 + (base / 2) * this.o.random());
  }

  private async send(
    target: URL,
    method: string,
    body: string | undefined,
    req: OutboundRequest,
    deadline: number,
  ): Promise<Hop> {
    const remaining = deadline - this.o.now();
    if (remaining <= 0)
      throw new OutboundError('timeout', `Time budget exhausted before ${target.host}`, true);
    const mappedOrigin = this.mappedOrigin(target.hostname);
    const headers: Record<string, string> = {
      accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8',
      'accept-encoding': 'gzip, deflate, br',
      ...lowerKeys(req.headers ?? {}),
      'user-agent': this.userAgent,
    };
    let requestUrl = target.href;
    const transport = await this.connect();
    let dispatcher: Dispatcher = transport.guarded;
    if (mappedOrigin) {
      // Same path and query on the mapped origin; the Host header keeps naming the logical host, so one fake
      // server can tell vendors and company sites apart.
      requestUrl = `${mappedOrigin}${target.pathname}${target.search}`;
      headers.host = target.host;
      dispatcher = transport.direct;
    }
    const controller = new AbortController();
    const timer = setTimeout(
      () =>
        controller.abort(
          new OutboundError('timeout', `${target.host} took longer than the time budget`, true),
        ),
      remaining,
    );
    try {
      const res = await transport.request(requestUrl, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: method === 'POST' ? (body ?? '') : null,
        dispatcher,
        signal: controller.signal,
        headersTimeout: this.o.headersTimeoutMs,
        bodyTimeout: this.o.headersTimeoutMs,
      });
      const resHeaders = flattenHeaders(res.headers);
      const cap = req.maxBytes ?? this.o.maxBytes;
      const declared = Number(resHeaders['content-length']);
      if (Number.isFinite(declared) && declared > cap) {
        res.body.destroy();
        throw new OutboundError(
          'too_large',
          `Response body of ${declared} bytes exceeds ${cap} bytes`,
          false,
        );
      }
      if (method === 'HEAD' || REDIRECT_STATUSES.has(res.statusCode)) {
        await res.body.dump();
        return { status: res.statusCode, headers: resHeaders, body: '' };
      }
      const buf = await readCapped(res.body, resHeaders['content-encoding'], cap);
      return { status: res.statusCode, headers: resHeaders, body: buf.toString('utf8') };
    } catch (err) {
      throw toOutboundError(err);
    } finally {
      clearTimeout(timer);
    }
  }
}

export function createOutboundClient(options: ClientOptions): OutboundClient {
  return new OutboundClient(options);
}

/** Maps undici/Node failures to OutboundError; an OutboundError anywhere in the cause chain wins. */
/**
 * Where a redirect's Location leads, resolved against the page that sent it. A Location no URL parser reads
 * (`http://[::1`, a host of raw bytes) fails this request as an invalid URL, like any other failed page, rather
 * than throwing out of the client.
 */
function redirectTarget(location: string, from: URL, asked: string): string {
  try {
    return new URL(location, from).href;
  } catch {
    throw new OutboundError('invalid_url', `${asked} redirected to an unparsable Location`, false);
  }
}

export function toOutboundError(err: unknown): OutboundError {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i += 1) {
    if (e instanceof OutboundError) return e;
  }
  const code = (err as { code?: string }).code ?? '';
  const msg = err instanceof Error ? err.message : String(err);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new OutboundError('timeout', `Connect timed out: ${msg}`, true);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new OutboundError('timeout', 'No response headers within the time budget', true);
    case 'UND_ERR_BODY_TIMEOUT':
      return new OutboundError('timeout', 'Response body stalled', true);
    case 'ECONNREFUSED':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new OutboundError('connect', `Connection failed (${code})`, true);
    default:
      if ((err as Error).name === 'AbortError') return new OutboundError('timeout', 'Request aborted', true);
      return new OutboundError('network', `Network failure: ${code || msg}`, true);
  }
}

function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
