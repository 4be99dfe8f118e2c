/**
 * The one path from an adapter to a vendor: URL-safe tokens, the guarded client with `kind: 'api'` (documented
 * ATS APIs are published for reuse, so robots.txt does not apply), status → SourceError mapping, and schema
 * validation so a malformed payload fails with the offending path instead of a TypeError deep in mapping code.
 */
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { HttpClient, OutboundRequest } from '../net/types.js';
import { OutboundError } from '../net/types.js';
import { type Provider, SourceError } from './types.js';

/** Board tokens end up in URL paths; docs/sources.md: only `[A-Za-z0-9_.%-]` (plus space for Ashby names). */
export function boardSegment(provider: Provider, token: string): string {
  if (!/^[A-Za-z0-9_.% -]{1,200}$/.test(token) || token === '.' || token === '..') {
    throw new SourceError('http_error', provider, `Invalid board token ${JSON.stringify(token)}`, false);
  }
  return encodeURIComponent(decodeURIComponent(token));
}

/** Runs `fn` over items with at most `limit` in flight, keeping order (per-posting detail calls). */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Budget for one vendor page: boards of ~1,000 postings with content are a few MB and arrive in seconds. */
const VENDOR_TIMEOUT_MS = 45_000;
const VENDOR_MAX_BYTES = 20 * 1024 * 1024;

/**
 * One vendor request, its status mapped to SourceError; the body as text. A response that ends on another host
 * than the one asked (vendors redirect a dropped company's board to their marketing site) is `board_moved`.
 */
export async function fetchVendorText(
  provider: Provider,
  client: HttpClient,
  url: string,
  req: OutboundRequest = {},
): Promise<{ status: number; body: string }> {
  let res: Awaited<ReturnType<HttpClient['request']>>;
  try {
    res = await client.request(url, {
      timeoutMs: VENDOR_TIMEOUT_MS,
      maxBytes: VENDOR_MAX_BYTES,
      ...req,
      kind: 'api',
      headers: {
        accept: 'application/json',
        ...(req.body ? { 'content-type': 'application/json' } : {}),
        ...req.headers,
      },
    });
  } catch (err) {
    if (err instanceof OutboundError) {
      throw new SourceError('network', provider, `${provider}: ${err.message}`, err.retryable);
    }
    throw err;
  }
  const { status } = res;
  if (status === 404 || status === 410) {
    throw new SourceError(
      'board_not_found',
      provider,
      `${provider} board not found (${status} from ${url})`,
      false,
      status,
    );
  }
  if (status === 429 || status >= 500) {
    throw new SourceError(
      'unavailable',
      provider,
      `${provider} answered ${status} after retries (${url})`,
      true,
      status,
    );
  }
  if (status < 200 || status > 299) {
    throw new SourceError('http_error', provider, `${provider} answered ${status} (${url})`, false, status);
  }
  const asked = new URL(url).hostname.toLowerCase();
  const landed = new URL(res.url).hostname.toLowerCase();
  if (landed !== asked) {
    throw new SourceError(
      'board_moved',
      provider,
      `${provider} board ${url} redirects to ${landed}`,
      false,
      status,
    );
  }
  return { status, body: res.body };
}

export async function fetchVendorJson<T extends TSchema>(
  provider: Provider,
  client: HttpClient,
  url: string,
  schema: T,
  req: OutboundRequest = {},
): Promise<Static<T>> {
  const { status, body } = await fetchVendorText(provider, client, url, req);
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new SourceError(
      'malformed_payload',
      provider,
      `${provider} returned a non-JSON body from ${url}`,
      false,
      status,
    );
  }
  if (!Value.Check(schema, data)) {
    const first = Value.Errors(schema, data)[0];
    const where = first ? `${first.instancePath || '/'} ${first.message}` : 'unexpected shape';
    throw new SourceError(
      'malformed_payload',
      provider,
      `${provider} payload from ${url} is malformed: ${where}`,
      false,
      status,
    );
  }
  return data as Static<T>;
}

/** Subdomain tokens (Recruitee, Personio, BambooHR, Breezy, Pinpoint) become hosts: DNS labels only. */
export function subdomainToken(provider: Provider, token: string): string {
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(token)) {
    throw new SourceError(
      'http_error',
      provider,
      `Invalid ${provider} subdomain ${JSON.stringify(token)}`,
      false,
    );
  }
  return token.toLowerCase();
}
