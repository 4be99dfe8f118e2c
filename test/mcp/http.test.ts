import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_CATEGORIES } from '../../src/catalog/vocabulary.js';
import { REGION_IDS } from '../../src/sources/normalize/regions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { call, httpClient, listen, toolError } from './support.js';

const READ_TOOLS = [
  'fetch',
  'get_company',
  'get_job',
  'get_stats',
  'hiring_trends',
  'list_role_categories',
  'list_tags',
  'newly_hiring',
  'search',
  'search_companies',
  'search_jobs',
];
const TOKEN_TOOLS = ['get_dossier', 'onboard_company', 'workflow_status'];
const ROLES = [...ROLE_CATEGORIES];
const CLIENT_FACING = [
  'fde',
  'solutions_engineer',
  'csm',
  'tam',
  'sales_engineer',
  'implementation',
  'professional_services',
];

let t: TestApp;
let base: string;
let anonymous: Client;
let withToken: Client;

beforeAll(async () => {
  t = await startTestApp({ env: { SAMPLE_DATA: '1' } });
  base = await listen(t);
  anonymous = await httpClient(base);
  withToken = await httpClient(base, t.token);
});

afterAll(async () => {
  await anonymous?.close();
  await withToken?.close();
  await t?.close();
});

describe('tools over Streamable HTTP at /mcp', () => {
  it('lists the read tools to anonymous callers and the pipeline tools only with a token', async () => {
    const anon = (await anonymous.listTools()).tools.map((tool) => tool.name).sort();
    expect(anon).toEqual(READ_TOOLS);
    const all = (await withToken.listTools()).tools.map((tool) => tool.name).sort();
    expect(all).toEqual([...READ_TOOLS, ...TOKEN_TOOLS].sort());
  });

  it("derives search_jobs' arguments from GET /jobs's parameters", async () => {
    const tool = (await anonymous.listTools()).tools.find((x) => x.name === 'search_jobs');
    const props = Object.keys((tool?.inputSchema.properties ?? {}) as object);
    for (const name of [
      'role_category',
      'client_facing',
      'company',
      'location',
      'remote_only',
      'search',
      'page',
      'limit',
    ]) {
      expect(props).toContain(name);
    }
    expect(tool?.outputSchema).toBeDefined();
  });

  it("offers search_jobs' place arguments, the regions as an enum", async () => {
    const tool = (await anonymous.listTools()).tools.find((x) => x.name === 'search_jobs');
    const props = (tool?.inputSchema.properties ?? {}) as Record<
      string,
      { enum?: string[]; description?: string }
    >;
    expect(props.region?.enum).toEqual([...REGION_IDS]);
    expect(props.region?.enum).toEqual(expect.arrayContaining(['europe', 'emea', 'north_america', 'apac']));
    expect(props.country?.description).toContain('ISO 3166-1 alpha-2');
    expect(props.remote_scope?.description).toContain('worldwide');
  });

  it("offers search_jobs' token-only and delta-sync arguments to token callers alone", async () => {
    const args = async (client: Client) => {
      const tool = (await client.listTools()).tools.find((x) => x.name === 'search_jobs');
      return Object.keys((tool?.inputSchema.properties ?? {}) as object);
    };
    const anon = await args(anonymous);
    const token = await args(withToken);
    for (const name of ['explain', 'updated_since', 'after_id']) {
      expect(anon).not.toContain(name);
      expect(token).toContain(name);
    }
    expect(token.filter((name) => !anon.includes(name)).sort()).toEqual([
      'after_id',
      'explain',
      'updated_since',
    ]);
    const refused = toolError(
      await call(anonymous, 'search_jobs', { updated_since: '2026-01-01T00:00:00Z' }),
    );
    expect(refused.message).toBe("Unknown argument 'updated_since'");
    const delta = await call(withToken, 'search_jobs', { updated_since: '2000-01-01T00:00:00Z', limit: 2 });
    expect(delta.isError).toBeFalsy();
  });

  it('search_jobs filters like the API and answers compact rows', async () => {
    const result = await call(anonymous, 'search_jobs', { client_facing: true, limit: 5 });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as { total: number; limit: number; jobs: Record<string, unknown>[] };
    const api = (await t.get('/api/v1/jobs?client_facing=true&limit=5')).json();
    expect(out.total).toBe(api.meta.total);
    expect(out.jobs.map((j) => j.id)).toEqual(api.data.map((j: { id: string }) => j.id));
    expect(out.jobs.length).toBe(5);
    for (const job of out.jobs) {
      expect(CLIENT_FACING).toContain(job.roleCategory);
      expect(job).not.toHaveProperty('description');
    }
  });

  it('get_job, search_companies, get_company, list_tags, get_stats answer as the API does', async () => {
    const first = (await call(anonymous, 'search_jobs', { limit: 1 })).structuredContent as {
      jobs: { id: string; companySlug: string }[];
    };
    const job = first.jobs[0];
    if (!job) throw new Error('the sample catalog has jobs');
    const detail = (await call(anonymous, 'get_job', { id: job.id })).structuredContent as Record<
      string,
      unknown
    >;
    expect(detail.id).toBe(job.id);
    expect(typeof detail.description).toBe('string');

    const companies = (await call(anonymous, 'search_companies', { limit: 3 })).structuredContent as {
      companies: { slug: string; tags: string[] }[];
    };
    expect(companies.companies.length).toBe(3);
    const company = (await call(anonymous, 'get_company', { id: job.companySlug })).structuredContent as {
      slug: string;
    };
    expect(company.slug).toBe(job.companySlug);

    const tags = (await call(anonymous, 'list_tags')).structuredContent as Record<string, unknown[]>;
    expect(Object.keys(tags).sort()).toEqual([
      'ai_role',
      'business_model',
      'funding_tier',
      'industry',
      'stage',
    ]);
    const stats = (await call(anonymous, 'get_stats')).structuredContent as { totalJobs: number };
    expect(stats.totalJobs).toBe((await t.get('/api/v1/stats')).json().data.totalJobs);
  });

  it('list_role_categories names the 18 categories and marks the seven client-facing ones', async () => {
    const out = (await call(anonymous, 'list_role_categories')).structuredContent as {
      categories: { slug: string; clientFacing: boolean }[];
    };
    expect(out.categories).toHaveLength(18);
    expect(out.categories.filter((c) => c.clientFacing).map((c) => c.slug)).toEqual(CLIENT_FACING);
  });

  it('search and fetch return cited documents by id', async () => {
    const found = (await call(anonymous, 'search', { query: 'forward deployed engineer' }))
      .structuredContent as {
      results: { id: string; title: string; url: string }[];
    };
    const job = found.results.find((r) => r.id.startsWith('job:'));
    if (!job) throw new Error('a job matches "forward deployed engineer" in the sample catalog');
    const doc = (await call(anonymous, 'fetch', { id: job.id })).structuredContent as {
      id: string;
      text: string;
      url: string;
    };
    expect(doc.id).toBe(job.id);
    expect(doc.url).toBe(job.url);
    expect(doc.text.length).toBeGreaterThan(50);
    expect(toolError(await call(anonymous, 'fetch', { id: 'nonsense' })).code).toBe('BAD_REQUEST');
  });

  it('search lists jobs first for a role, and the company first for its name', async () => {
    const results = async (query: string) =>
      (
        (await call(anonymous, 'search', { query })).structuredContent as {
          results: { id: string; title: string }[];
        }
      ).results;
    const role = await results('forward deployed engineer');
    // Companies whose one-liners mention deployment are matched too; they follow every job titled as asked.
    expect(role.some((r) => r.id.startsWith('company:'))).toBe(true);
    const firstCompany = role.findIndex((r) => r.id.startsWith('company:'));
    expect(firstCompany).toBeGreaterThan(0);
    for (const r of role.slice(0, firstCompany)) expect(r.id.startsWith('job:')).toBe(true);
    expect(role[0]!.title).toMatch(/forward deployed/i);
    for (const query of ['Baseten', 'basetne']) {
      const named = await results(query);
      expect(named[0]!.id, query).toBe('company:baseten');
    }
  });

  it('bad arguments are tool errors that name the argument, with our error code', async () => {
    const badType = toolError(await call(anonymous, 'search_jobs', { limit: 'ten' }));
    expect(badType).toEqual({ code: 'BAD_REQUEST', message: expect.stringContaining("'limit'") });
    // A bad enum value is the REST sentence, allowed values listed, with the argument named as an argument.
    const badEnum = toolError(await call(anonymous, 'search_jobs', { role_category: 'astronaut' }));
    const rest = (await t.get('/api/v1/jobs?role_category=astronaut')).json().error.message as string;
    expect(rest).toBe(`Invalid query parameter 'role_category': must be one of: ${ROLES.join(', ')}`);
    expect(badEnum.message).toBe(rest.replace('query parameter', 'argument'));
    const unknown = toolError(await call(anonymous, 'search_jobs', { remoteOnly: true }));
    expect(unknown.message).toBe("Unknown argument 'remoteOnly'");
    const missing = toolError(await call(anonymous, 'get_job', {}));
    expect(missing.message).toBe("Missing required argument 'id'");
    const notFound = toolError(
      await call(anonymous, 'get_job', { id: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(notFound.code).toBe('NOT_FOUND');
  });

  it('a token tool called without a token is the API refusal, UNAUTHORIZED', async () => {
    const refused = toolError(await call(anonymous, 'workflow_status', { workflowId: 'x' }));
    expect(refused.code).toBe('UNAUTHORIZED');
    const unknownRun = toolError(await call(withToken, 'workflow_status', { workflowId: 'no-such-run' }));
    expect(unknownRun.code).toBe('NOT_FOUND');
  });

  it('onboard_company starts a run that workflow_status follows, with a token', async () => {
    const started = await call(withToken, 'onboard_company', {
      name: 'Example AI',
      domain: 'example-ai.com',
    });
    expect(started.isError).toBeFalsy();
    const run = started.structuredContent as { workflowId: string; domain: string; status: string };
    expect(run).toMatchObject({ domain: 'example-ai.com', status: 'enqueued' });
    const status = (await call(withToken, 'workflow_status', { workflowId: run.workflowId }))
      .structuredContent as { workflowId: string };
    expect(status.workflowId).toBe(run.workflowId);
    const badDomain = toolError(await call(withToken, 'onboard_company', { name: 'X', domain: 'localhost' }));
    expect(badDomain.code).toBe('BAD_REQUEST');
  });

  it('counts MCP tool calls by tool and outcome in /metrics', async () => {
    const metrics = await t.get('/metrics');
    expect(metrics.body).toMatch(/frontline_mcp_tool_calls_total\{tool="search_jobs",outcome="ok"\} [1-9]/);
    expect(metrics.body).toMatch(
      /frontline_mcp_tool_calls_total\{tool="search_jobs",outcome="invalid"\} [1-9]/,
    );
  });
});

describe('limits', () => {
  it("each MCP message counts once against the caller's limit, its tools' API calls not again", async () => {
    const limited = await startTestApp({ env: { SAMPLE_DATA: '1', RATE_LIMIT_ANONYMOUS: '20' } });
    try {
      const url = await listen(limited);
      // initialize and its notification, and the client's attempt at a GET stream (answered 405): 2 or 3.
      const client = await httpClient(url);
      // Four messages, each a search that makes two API calls inside.
      for (let i = 0; i < 4; i++) {
        expect((await call(client, 'search', { query: `engineer ${i}` })).isError).toBeFalsy();
      }
      const direct = await fetch(`${url}/api/v1/stats`);
      const remaining = Number(direct.headers.get('x-ratelimit-remaining'));
      // 2-3 + 4 + this request: 7 or 8 counted; had the eight inner calls counted, 15 or 16.
      expect(remaining).toBeGreaterThanOrEqual(12);
      expect(remaining).toBeLessThanOrEqual(13);
      for (let i = 0; i < remaining; i++) await fetch(`${url}/api/v1/stats`);
      await expect(call(client, 'get_stats')).rejects.toThrow(/RATE_LIMITED/);
      await client.close().catch(() => undefined);
    } finally {
      await limited.close();
    }
  });

  it('GET /mcp answers 405 in the envelope: the server keeps no sessions to stream from', async () => {
    const res = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
