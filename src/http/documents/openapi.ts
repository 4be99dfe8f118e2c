import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import { errorResponse } from '../schemas/common.js';

/**
 * The OpenAPI document's frame. Paths and schemas come from the routes themselves; this adds what every operation
 * of a kind shares, derived from the route's declaration so no route can forget it:
 * - the error statuses the app's shared machinery can answer on it (guard, router, body parser, error handler);
 * - 304 on reads (every GET body gets an ETag and honours If-None-Match);
 * - the security each route declares through its `access`;
 * - the headers on each response, as references to components.headers;
 * - HEAD operations, which every GET answers too (headers only).
 */
const HEADERS = {
  'X-Api-Tier': {
    description: 'anonymous or token: the tier this request was served under',
    schema: { type: 'string', enum: ['anonymous', 'token'] },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per window for this caller',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current sliding window',
    schema: { type: 'integer' },
  },
  RateLimit: {
    description:
      'IETF draft form of the current state: "<tier>";r=<remaining>;t=<seconds until capacity frees>',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'IETF draft form of the policy: "<tier>";q=<quota>;w=<window seconds>',
    schema: { type: 'string' },
  },
  'X-Request-Id': {
    description: 'Request id (echoes a valid incoming X-Request-Id); quote it in bug reports',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  ETag: {
    description:
      'Strong validator of the body; on a read, send it back in If-None-Match to get 304 while it still holds',
    schema: { type: 'string' },
  },
  'X-Cache': {
    description: 'hit or miss: whether the shared response cache answered',
    schema: { type: 'string', enum: ['hit', 'miss'] },
  },
  Allow: { description: 'The methods this path is served with', schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'The scheme to authenticate with: Bearer', schema: { type: 'string' } },
} as const;

type HeaderName = keyof typeof HEADERS;

const RATE_LIMIT_HEADERS: HeaderName[] = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'RateLimit',
  'RateLimit-Policy',
];

/** What the document needs to know of a route beyond its schema; carried from transform to transformObject. */
interface RouteFacts {
  rateLimited: boolean;
  cached: boolean;
}
const FACTS = 'x-frontline-route';

const NOT_MODIFIED = {
  type: 'null',
  description: 'Not Modified: the If-None-Match validator still matches the body; no body is sent',
};

/**
 * Error statuses the shared machinery can answer on a route, whatever its handler does: an unknown query parameter
 * or a malformed URL (400), a presented invalid token (403), a wrong method on its path (405), rate limits and
 * failed-token budgets (429), an unexpected fault (500), an unavailable dependency (503); 401 where a token or the
 * metrics secret is required, 404 where a path parameter names something, 413 and 415 where a body is parsed.
 */
function sharedStatuses(config: RouteOptions['config'], schema: FastifySchema, url: string): number[] {
  const statuses = [400, 403, 405, 429, 500, 503];
  if (config?.access === 'token' || config?.access === 'metrics') statuses.push(401);
  if (url.includes(':')) statuses.push(404);
  if (schema.body) statuses.push(413, 415);
  return statuses;
}

function securityOf(access: string | undefined): Record<string, string[]>[] | undefined {
  switch (access) {
    case 'token':
      return [{ bearer: [] }];
    // No requirement: the reference shows its lock on token operations only. A token sent anyway is honoured
    // (bigger pages and limits), which the catalog tag's description says.
    case 'public':
      return [];
    case 'metrics':
      return [{ metricsToken: [] }, {}];
    default:
      return undefined;
  }
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

type Schema = FastifySchema & {
  hide?: boolean;
  operationId?: string;
  summary?: string;
  security?: unknown;
  response?: Record<string, unknown>;
  [FACTS]?: RouteFacts;
};

/** The route's schema as the document shows it: shared statuses, security and HEAD naming added. */
function documented(route: RouteOptions, schema: Schema | undefined, url: string): Schema | undefined {
  if (!schema || schema.hide) return schema;
  const config = route.config;
  const method = String(route.method);
  const read = method === 'GET' || method === 'HEAD';
  const response: Record<string, unknown> = { ...(schema.response ?? {}) };
  for (const status of sharedStatuses(config, schema, url)) response[status] ??= errorResponse(status);
  if (route.bodyLimit)
    response[413] = errorResponse(413, `this operation's limit is ${route.bodyLimit} bytes`);
  if (read) response[304] ??= NOT_MODIFIED;
  const facts: RouteFacts = {
    rateLimited: config?.rateLimited !== false,
    cached: config?.cache === true,
  };
  const out: Schema = { ...schema, response, [FACTS]: facts };
  const security = securityOf(config?.access);
  if (security) out.security = security;
  if (method === 'HEAD' && schema.operationId) {
    // @fastify/swagger suffixes a HEAD route's operationId with "-head"; ours stay camelCase.
    const base = schema.operationId.replace(/-head$/, '');
    out.operationId = `head${capitalized(base.replace(/^get(?=[A-Z])/, ''))}`;
    out.summary = `Headers of: ${schema.summary ?? url} (no body)`;
  }
  return out;
}

interface ResponseObject {
  headers?: Record<string, unknown>;
  content?: unknown;
}
interface Parameter {
  example?: unknown;
  schema?: { examples?: unknown[] };
}
interface Operation {
  [FACTS]?: RouteFacts;
  parameters?: Parameter[];
  responses?: Record<string, ResponseObject>;
  requestBody?: {
    required?: boolean;
    content?: Record<string, { schema?: { anyOf?: { type?: string }[] } }>;
  };
}

function headersOf(status: string, facts: RouteFacts): HeaderName[] {
  // Every body gets an ETag (the etag plugin hashes every payload, errors included).
  const names: HeaderName[] = ['X-Request-Id', 'X-Api-Tier', 'ETag'];
  // A wrong method is answered by the not-found handler, which is rate limited on every path.
  if (facts.rateLimited || status === '405') names.push(...RATE_LIMIT_HEADERS);
  if (status === '429' || status === '503') names.push('Retry-After');
  if (status === '405') names.push('Allow');
  if (status === '401') names.push('WWW-Authenticate');
  // A cached route's answers say whether the cache answered, refusals included.
  if (facts.cached) names.push('X-Cache');
  return names;
}

/** Headers by reference; HEAD answers carry no body; a body whose schema admits null is optional. */
function finishOperation(method: string, op: Operation): void {
  const facts = op[FACTS];
  delete op[FACTS];
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const headers: Record<string, unknown> = { ...(response.headers ?? {}) };
    if (facts)
      for (const name of headersOf(status, facts)) headers[name] = { $ref: `#/components/headers/${name}` };
    response.headers = headers;
    if (method === 'head') delete response.content;
  }
  // The reference pre-fills "Try it out" from a parameter's `example`, not from its schema's `examples`.
  for (const p of op.parameters ?? []) {
    const first = p.schema?.examples?.[0];
    if (p.example === undefined && first !== undefined) p.example = first;
  }
  const bodies = Object.values(op.requestBody?.content ?? {});
  if (op.requestBody && bodies.some((b) => b.schema?.anyOf?.some((s) => s.type === 'null'))) {
    op.requestBody.required = false;
  }
}

export function openApiOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Frontline API',
        version: '1.0.0',
        description:
          'Catalog of AI companies hiring for client-facing roles, and the research and ingestion pipeline behind it. ' +
          'Every response is JSON in the envelope {data, meta?} or {error:{code,message}} (this document itself and ' +
          '/metrics excepted). Every operation refuses query parameters it does not declare (400 naming the first).',
        license: { name: 'UNLICENSED (proprietary)', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <token>' },
          metricsToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'Authorization: Bearer <METRICS_TOKEN>, a secret separate from API tokens. When METRICS_TOKEN is not ' +
              'set, /metrics needs no credentials but answers loopback clients only (403 otherwise).',
          },
        },
        headers: HEADERS as unknown as Record<string, never>,
      },
      tags: [
        {
          name: 'catalog',
          description:
            'Public catalog reads: no token needed; one sent as Authorization: Bearer raises the page size and rate ' +
            'limits (X-Api-Tier says which tier served the request)',
        },
        {
          name: 'signals',
          description:
            'Hiring signals from job events: series, trends, newly hiring, time to close (no token needed)',
        },
        { name: 'pipeline', description: 'Discovery and ingestion pipeline (token)' },
        { name: 'research', description: 'Deep research dossiers of tracked companies (token)' },
        { name: 'system', description: 'Health, identity, metrics and this document' },
        {
          name: 'watches',
          description: 'Saved searches whose new jobs are delivered by signed webhooks (token)',
        },
        {
          name: 'agents',
          description: 'The Model Context Protocol endpoint for agents (anonymous or token)',
        },
      ],
    },
    exposeHeadRoutes: true,
    // Shared schemas appear in components under their $id (ErrorEnvelope, PaginationMeta), not def-N.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `Schema${i}`,
    },
    transform: ({ schema, url, route }) => ({
      schema: documented(route, schema as Schema | undefined, url) as FastifySchema,
      url,
    }),
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: Record<string, unknown> }).openapiObject;
      const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
      for (const ops of Object.values(paths)) {
        for (const [method, op] of Object.entries(ops)) finishOperation(method, op);
      }
      return doc;
    },
  };
}
