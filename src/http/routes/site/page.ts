import type { FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { TSchema } from 'typebox';
import type { Config } from '../../../config.js';
import { type PageContext, queryString } from '../../../web/context.js';
import { PAGE_COMPRESSION } from '../../caching/compression.js';
import type { PageRequest } from '../../limits/pagination.js';
import type { TierPolicy } from '../../limits/tiers.js';

export const HTML_TYPE = 'text/html; charset=utf-8';

/** What the site's routes share: where the site is public, the API's base path, the clock. */
export interface Site {
  config: Pick<Config, 'publicBaseUrl'>;
  apiPrefix: string;
  now: () => number;
}

/**
 * A page route's config: public, answered from the response cache like the API, counted against the page budget
 * (RATE_LIMIT_PAGES), with errors rendered as pages, compressed as pages are (PAGE_COMPRESSION). Its schema is
 * hidden from the OpenAPI document: pages are for people, not API operations.
 */
export function pageOptions(querystring?: TSchema) {
  return {
    config: { access: 'public' as const, page: true, cache: true },
    schema: { hide: true, ...(querystring && { querystring }) },
    preValidation: formQuery,
    compress: PAGE_COMPRESSION,
  };
}

/**
 * A GET form submits every field, blank ones included, when no script leaves them out (src/web/enhance.ts). Such a
 * URL is redirected, permanently, to its clean form: the same parameters in the same order, blank ones left out (a
 * cleared field means "no filter"), so the address a reader shares or bookmarks holds only what filters. A group of
 * checkboxes sharing a name is joined with commas, as the API's comma-separated parameters take it.
 */
const formQuery: preValidationHookHandler = (request, reply, done) => {
  const query = request.query as Record<string, unknown>;
  const blank = (v: unknown) => v === '' || (Array.isArray(v) && v.includes(''));
  if (Object.values(query).some(blank)) {
    const at = request.url.indexOf('?');
    const kept = [...new URLSearchParams(request.url.slice(at + 1))].filter(([, value]) => value !== '');
    const clean = new URLSearchParams(kept).toString();
    reply.redirect(`${request.url.slice(0, at)}${clean ? `?${clean}` : ''}`, 301);
    return;
  }
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) query[name] = value.join(',');
  }
  done();
};

/** The site's public origin: PUBLIC_BASE_URL, or the scheme and host the request came to. */
export const originOf = (site: Site, request: FastifyRequest): string =>
  site.config.publicBaseUrl ?? `${request.protocol}://${request.host}`;

export function pageContext(site: Site, request: FastifyRequest, path: string): PageContext {
  return { origin: originOf(site, request), path, apiPrefix: site.apiPrefix };
}

export const sendHtml = (reply: FastifyReply, html: string): FastifyReply => reply.type(HTML_TYPE).send(html);

/** The query's values as text, in the order of `names` (the declarations' order), blank ones left out. */
export function formValues(query: Record<string, unknown>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = query[name];
    if (v !== undefined && v !== '') out[name] = String(v);
  }
  return out;
}

/**
 * A listing page's canonical path (its filters, and the page past the first) and its last page: the last one the
 * tier's result window reaches, as the API pages.
 */
export function listingPaging(
  path: string,
  values: Record<string, string>,
  slice: PageRequest,
  total: number,
  policy: TierPolicy,
): { canonical: string; lastPage: number } {
  const reachable = Math.ceil(policy.resultWindow / slice.limit);
  const lastPage = Math.max(1, Math.min(Math.ceil(total / slice.limit), reachable));
  const page = slice.page > 1 ? String(slice.page) : undefined;
  return { canonical: `${path}${queryString({ ...values, page })}`, lastPage };
}
