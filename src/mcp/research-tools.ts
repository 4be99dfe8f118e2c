import { Type } from 'typebox';
import { postingUrl, webUrlOr } from '../net/web-url.js';
import { type MixedItem, mixResults } from '../search/mixed-results.js';
import type { ApiResponse, FrontlineApi } from './api.js';
import type { JsonSchema } from './input-schemas.js';
import type { jobSummary } from './tools.js';

/**
 * The `search` / `fetch` pair that deep-research clients (ChatGPT connectors and the like) call: `search` takes
 * free text and returns ids with titles and citation URLs; `fetch` returns one document's full text by id.
 * Ids are `job:<uuid>` and `company:<slug>`.
 */

export const SearchInput = Type.Object(
  { query: Type.String({ minLength: 1, maxLength: 200, description: 'What to look for, in plain words' }) },
  { additionalProperties: false },
) as unknown as JsonSchema;

export const FetchInput = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 300,
      description: 'An id from search: job:<uuid> or company:<slug>',
    }),
  },
  { additionalProperties: false },
) as unknown as JsonSchema;

export const SearchOutput = Type.Object({
  results: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), url: Type.String() })),
}) as unknown as JsonSchema;

export const FetchOutput = Type.Object({
  id: Type.String(),
  title: Type.String(),
  text: Type.String(),
  url: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
}) as unknown as JsonSchema;

/** A failed API call inside a tool: carries the API's error code to the tool error. */
export class ToolApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** With RATE_LIMITED: the seconds the API's Retry-After asks the caller to wait. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The API's refusal as a tool error; a rate limit's wait goes into the message a model reads, and as a number. */
export function apiError(res: ApiResponse): ToolApiError {
  const error = (res.body as { error?: { code?: string; message?: string } } | null)?.error;
  const message = error?.message ?? `The API answered ${res.status}`;
  const wait = res.retryAfterS;
  if (wait === undefined) return new ToolApiError(error?.code ?? 'SERVER_ERROR', message);
  return new ToolApiError(error?.code ?? 'SERVER_ERROR', `${message}; retry after ${wait} s`, wait);
}

async function data(api: FrontlineApi, path: string, query?: Record<string, string>): Promise<unknown> {
  const res = await api.request('GET', path, query);
  if (res.status !== 200) throw apiError(res);
  return (res.body as { data: unknown }).data;
}

interface JobDetail {
  id: string;
  title: string;
  company: { name: string; slug: string; domain: string };
  location: string;
  remote: boolean;
  roleCategory: string;
  url: string;
  postedAt: string;
  description: string;
  department: string | null;
  active: boolean;
}

interface CompanyDetail {
  name: string;
  slug: string;
  domain: string;
  oneLiner: string;
  description: string | null;
  website: string | null;
  category: string;
  activeJobCount: number;
  tags: { dimension: string; value: string }[];
  researchSummary: string | null;
}

/**
 * Jobs and companies in one list, ordered by what the query asks for (search/mixed-results.ts): a role query
 * lists jobs first, a company's name the company.
 */
export async function runSearch(api: FrontlineApi, query: string): Promise<Record<string, unknown>> {
  const [jobs, companies] = await Promise.all([
    data(api, '/jobs', { search: query, limit: '10' }),
    data(api, '/companies', { search: query, limit: '5' }),
  ]);
  const mixed = mixResults<MixedItem & { title: string; url: string }>(
    query,
    (jobs as Parameters<typeof jobSummary>[0][]).map((j) => ({
      kind: 'job' as const,
      id: `job:${j.id}`,
      name: j.title,
      title: `${j.title} at ${j.company.name} (${j.location})`,
      url: webUrlOr(j.url, ''),
    })),
    (companies as CompanyDetail[]).map((c) => ({
      kind: 'company' as const,
      id: `company:${c.slug}`,
      name: c.name,
      about: c.oneLiner,
      title: `${c.name}: ${c.oneLiner}`,
      url: webUrlOr(c.website, `https://${c.domain}/`),
    })),
  );
  return { results: mixed.map(({ id, title, url }) => ({ id, title, url })) };
}

export async function runFetch(api: FrontlineApi, id: string): Promise<Record<string, unknown>> {
  const [kind, key] = [id.slice(0, id.indexOf(':')), id.slice(id.indexOf(':') + 1)];
  if (kind === 'job' && key) {
    const j = (await data(api, `/jobs/${encodeURIComponent(key)}`)) as JobDetail;
    const facts = [
      `${j.title} at ${j.company.name}`,
      `Location: ${j.location}${j.remote ? ' (remote)' : ''}`,
      `Role category: ${j.roleCategory}${j.department ? `; department: ${j.department}` : ''}`,
      `Posted: ${j.postedAt}${j.active ? '' : ' (closed)'}`,
    ];
    return {
      id,
      title: `${j.title} at ${j.company.name}`,
      text: `${facts.join('\n')}\n\n${j.description}`,
      url: postingUrl(j.url, j.company.domain),
      metadata: { company: j.company.slug, roleCategory: j.roleCategory, remote: j.remote, active: j.active },
    };
  }
  if (kind === 'company' && key) {
    const c = (await data(api, `/companies/${encodeURIComponent(key)}`)) as CompanyDetail;
    const facts = [
      `${c.name} (${c.domain}): ${c.oneLiner}`,
      `Category: ${c.category}; active jobs: ${c.activeJobCount}`,
      `Tags: ${c.tags.map((t) => `${t.dimension} ${t.value}`).join(', ') || 'none'}`,
    ];
    const text = [facts.join('\n'), c.description, c.researchSummary].filter(Boolean).join('\n\n');
    return {
      id,
      title: c.name,
      text,
      url: webUrlOr(c.website, `https://${c.domain}/`),
      metadata: { slug: c.slug, category: c.category, activeJobCount: c.activeJobCount },
    };
  }
  throw new ToolApiError('BAD_REQUEST', `Invalid argument 'id': expected job:<uuid> or company:<slug>`);
}
