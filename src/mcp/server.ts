import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { describeInvalid } from '../errors.js';
import type { FrontlineApi, QueryValues } from './api.js';
import { dataSchemaOf, inputSchemaOf, type JsonSchema, type OpenApiDocument } from './input-schemas.js';
import {
  apiError,
  FetchInput,
  FetchOutput,
  runFetch,
  runSearch,
  SearchInput,
  SearchOutput,
  ToolApiError,
} from './research-tools.js';
import { type Access, API_TOOLS, type ApiTool, RoleCategoriesOutput, roleCategories } from './tools.js';

export type Tier = 'anonymous' | 'token';
export type CallOutcome = 'ok' | 'error' | 'invalid';

export interface McpServerOptions {
  api: FrontlineApi;
  /** The caller's tier: token tools are listed only for a token. */
  tier: Tier;
  /** The deployment's OpenAPI document, from which tool inputs are derived. */
  doc: OpenApiDocument;
  version: string;
  /** Counts calls by tool and outcome (metrics). */
  onCall?: (tool: string, outcome: CallOutcome) => void;
}

interface ToolDef {
  tool: Tool;
  access: Access;
  validate: ValidateFunction;
  run: (api: FrontlineApi, args: Record<string, unknown>) => Promise<Record<string, unknown>>;
}

const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false });
addFormats.default(ajv);

/** Arguments as a query string: the API parses booleans, numbers and comma-separated lists itself. */
function queryOf(args: Record<string, unknown>, skip: string[]): QueryValues {
  const query: QueryValues = {};
  for (const [key, value] of Object.entries(args)) {
    if (skip.includes(key) || value === undefined || value === null) continue;
    query[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return query;
}

function apiToolDef(doc: OpenApiDocument, spec: ApiTool, tier: Tier): ToolDef {
  const omit = [...(spec.omit ?? []), ...(tier === 'token' ? [] : (spec.tokenArgs ?? []))];
  const { schema, pathParams } = inputSchemaOf(doc, spec.method, spec.path, omit);
  const output = spec.output ?? dataSchemaOf(doc, spec.method, spec.path);
  return {
    access: spec.access,
    validate: ajv.compile(schema),
    tool: {
      name: spec.name,
      title: spec.title,
      description: spec.access === 'token' ? `${spec.description} Requires a token.` : spec.description,
      inputSchema: schema as Tool['inputSchema'],
      ...(output ? { outputSchema: output as Tool['outputSchema'] } : {}),
      annotations: { readOnlyHint: spec.method === 'GET', openWorldHint: false },
    },
    run: async (api, args) => {
      const path = spec.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        encodeURIComponent(String(args[name])),
      );
      const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !pathParams.includes(k)));
      const res =
        spec.method === 'GET'
          ? await api.request('GET', path, queryOf(args, pathParams))
          : await api.request('POST', path, undefined, rest);
      if (res.status < 200 || res.status >= 300) throw apiError(res);
      const body = res.body as { data?: unknown };
      return spec.present ? spec.present(body) : (body.data as Record<string, unknown>);
    },
  };
}

function ownToolDef(
  name: string,
  description: string,
  input: JsonSchema,
  output: JsonSchema,
  run: ToolDef['run'],
): ToolDef {
  return {
    access: 'public',
    validate: ajv.compile(input),
    tool: {
      name,
      description,
      inputSchema: input as Tool['inputSchema'],
      outputSchema: output as Tool['outputSchema'],
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run,
  };
}

const NO_INPUT = { type: 'object', properties: {}, additionalProperties: false };

/** Every tool as one tier is offered it, derived once per OpenAPI document and tier. */
const defsByDoc = new WeakMap<OpenApiDocument, Partial<Record<Tier, ToolDef[]>>>();

export function toolDefs(doc: OpenApiDocument, tier: Tier): ToolDef[] {
  const byTier = defsByDoc.get(doc) ?? {};
  defsByDoc.set(doc, byTier);
  let defs = byTier[tier];
  if (!defs) {
    defs = [
      ...API_TOOLS.map((spec) => apiToolDef(doc, spec, tier)),
      ownToolDef(
        'list_role_categories',
        'The 18 role categories (slugs for role_category), with the seven client-facing ones marked.',
        NO_INPUT,
        RoleCategoriesOutput,
        async () => ({ categories: roleCategories() }),
      ),
      ownToolDef(
        'search',
        'Search Frontline for jobs and companies; returns ids, titles and URLs to pass to fetch.',
        SearchInput,
        SearchOutput,
        (api, args) => runSearch(api, String(args.query)),
      ),
      ownToolDef(
        'fetch',
        'The full text of one search result by id (job:<uuid> or company:<slug>).',
        FetchInput,
        FetchOutput,
        (api, args) => runFetch(api, String(args.id)),
      ),
    ];
    byTier[tier] = defs;
  }
  return defs;
}

function toolError(code: string, message: string, retryAfterSeconds?: number): CallToolResult {
  const error = { code, message, ...(retryAfterSeconds !== undefined && { retryAfterSeconds }) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

/** The API's own sentence for the failure ("must be one of: ..."), naming the argument. */
const argumentError = (validate: ValidateFunction): string =>
  describeInvalid('argument', validate.errors ?? [], 'arguments');

/** An MCP server over the API for one caller (stateless: one per HTTP request, or one per stdio session). */
export function createMcpServer(opts: McpServerOptions): Server {
  const server = new Server(
    { name: 'frontline', title: 'Frontline', version: opts.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Frontline tracks where AI companies hire for client-facing roles. Resolve role categories with ' +
        'list_role_categories and tag slugs with list_tags before filtering; search_jobs with client_facing=true ' +
        'lists the seven client-facing categories.',
    },
  );
  const visible = (def: ToolDef) => def.access === 'public' || opts.tier === 'token';
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: toolDefs(opts.doc, opts.tier)
      .filter(visible)
      .map((d) => d.tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const def = toolDefs(opts.doc, opts.tier).find((d) => d.tool.name === request.params.name);
    if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${request.params.name}'`);
    const args = request.params.arguments ?? {};
    if (!def.validate(args)) {
      opts.onCall?.(def.tool.name, 'invalid');
      return toolError('BAD_REQUEST', argumentError(def.validate));
    }
    try {
      const result = await def.run(opts.api, args);
      opts.onCall?.(def.tool.name, 'ok');
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    } catch (err) {
      opts.onCall?.(def.tool.name, 'error');
      if (err instanceof ToolApiError) return toolError(err.code, err.message, err.retryAfterSeconds);
      throw err;
    }
  });
  return server;
}
