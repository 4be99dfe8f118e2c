/**
 * What each vendor leaves out unless the request asks for it (docs/sources.md), applied by the fake ATS to
 * every board it serves, recorded fixtures included: an adapter that stops sending the flag gets the smaller
 * answer the real vendor would send, and the tests that read descriptions or pay see it.
 *  - Greenhouse: `content`, `departments` and `offices` only with `content=true`.
 *  - Lever: JSON only with `mode=json` (otherwise the hosted HTML page).
 *  - Ashby: `compensation` only with `includeCompensation=true`.
 *  - Workable widget: `description` and `full_description` only with `details=true`.
 * And the vendors' own rate-limit answers: SmartRecruiters documents its X-RateLimit-* headers.
 */
import type { Provider } from '../../src/sources/types.js';

export type Shaped = { json: unknown } | { html: string };

const without = (job: unknown, fields: string[]): unknown => {
  if (job === null || typeof job !== 'object' || Array.isArray(job)) return job;
  const copy = { ...(job as Record<string, unknown>) };
  for (const f of fields) delete copy[f];
  return copy;
};

const withJobs = (body: unknown, key: string, fields: string[]): unknown => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const list = (body as Record<string, unknown>)[key];
  if (!Array.isArray(list)) return body;
  return { ...(body as Record<string, unknown>), [key]: list.map((j) => without(j, fields)) };
};

/**
 * The vendor's answer to a list request for a board whose full JSON is `body`, given the request's flags.
 * `widget` says the Workable request was to the v1 widget feed (the v3 API has no details flag).
 */
export function shapeForRequest(provider: Provider, url: URL, body: unknown, widget = false): Shaped {
  const flag = (name: string) => url.searchParams.get(name) === 'true';
  switch (provider) {
    case 'greenhouse':
      return { json: flag('content') ? body : withJobs(body, 'jobs', ['content', 'departments', 'offices']) };
    case 'lever':
      if (url.searchParams.get('mode') === 'json') return { json: body };
      return {
        html: '<!DOCTYPE html><html><head><title>Jobs</title></head><body><div class="postings"></div>',
      };
    case 'ashby':
      return { json: flag('includeCompensation') ? body : withJobs(body, 'jobs', ['compensation']) };
    case 'workable':
      if (!widget || flag('details')) return { json: body };
      return { json: withJobs(body, 'jobs', ['description', 'full_description']) };
    default:
      return { json: body };
  }
}

/** The headers a vendor sends with a 429 (Retry-After when the test gives one). */
export function rateLimitHeaders(provider: Provider, retryAfter?: string): Record<string, string> {
  const headers: Record<string, string> = retryAfter ? { 'retry-after': retryAfter } : {};
  if (provider === 'smartrecruiters') {
    // Documented limits: about 10 requests/s and 8 concurrent requests.
    Object.assign(headers, {
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-concurrent-limit': '8',
      'x-ratelimit-concurrent-remaining': '0',
    });
  }
  return headers;
}
