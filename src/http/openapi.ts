import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';

/**
 * The OpenAPI document's frame. Paths and schemas come from the routes themselves; this adds what every operation
 * shares: the security each route declares through its `access`, and the headers on every response.
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
} as const;

const RETRY_AFTER = { description: 'Seconds to wait before retrying', schema: { type: 'integer' as const } };

type Operation = { responses?: Record<string, { headers?: Record<string, unknown> }> };

function addHeaders(doc: Record<string, unknown>): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const [path, ops] of Object.entries(paths)) {
    // Probes and the metrics endpoint are exempt from rate limits and carry no rate-limit headers.
    const exempt = path === '/healthz' || path === '/readyz' || path === '/metrics';
    for (const op of Object.values(ops)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const headers: Record<string, unknown> = { ...(response.headers ?? {}) };
        if (!exempt) {
          for (const name of Object.keys(HEADERS)) headers[name] = { $ref: `#/components/headers/${name}` };
        }
        if (status === '429' || status === '503')
          headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
        response.headers = headers;
      }
    }
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
          '/metrics excepted).',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <token>' },
        },
        headers: { ...HEADERS, 'Retry-After': RETRY_AFTER } as unknown as Record<string, never>,
      },
      tags: [
        { name: 'catalog', description: 'Public catalog reads (anonymous or token)' },
        { name: 'pipeline', description: 'Research and ingestion pipeline (token)' },
        { name: 'system', description: 'Health, identity, metrics and this document' },
      ],
    },
    transform: ({ schema, url, route }) => {
      const access = route.config?.access;
      const security =
        access === 'token' ? [{ bearer: [] }] : access === 'public' ? [{}, { bearer: [] }] : undefined;
      return { schema: (security && schema ? { ...schema, security } : schema) as FastifySchema, url };
    },
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: Record<string, unknown> }).openapiObject;
      addHeaders(doc);
      return doc;
    },
  };
}
