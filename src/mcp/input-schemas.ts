import { API_BASE } from './api.js';

/**
 * Tool input schemas are derived from the served OpenAPI document: a tool takes exactly the parameters of the
 * operation it calls (query and path parameters, or the JSON body's properties), with the same types, limits and
 * descriptions. A filter added to an endpoint is therefore an argument of its tool with no change here.
 */

export type JsonSchema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation | undefined> | undefined>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Replaces `#/components/schemas/X` references by their targets, so a tool's schema stands on its own. */
function inline(schema: unknown, doc: OpenApiDocument, depth = 0): unknown {
  if (depth > 32 || schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((s) => inline(s, doc, depth + 1));
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const target = doc.components?.schemas?.[ref.slice('#/components/schemas/'.length)];
    return inline(target ?? {}, doc, depth + 1);
  }
  const out: Record<string, unknown> = {};
  // OpenAPI-only keywords mean nothing to a JSON Schema validator and only cost a model's context.
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example' || key === 'examples' || key === 'xml') continue;
    out[key] = inline(value, doc, depth + 1);
  }
  return out;
}

export function operationOf(doc: OpenApiDocument, method: string, path: string): Operation {
  const op = doc.paths[API_BASE + path]?.[method.toLowerCase()];
  if (!op) throw new Error(`The API has no operation ${method} ${API_BASE}${path}`);
  return op;
}

/** The operation's parameters (less `omit`) and JSON body as one object schema, and which go in the path. */
export function inputSchemaOf(
  doc: OpenApiDocument,
  method: string,
  path: string,
  omit: readonly string[] = [],
): { schema: JsonSchema; pathParams: string[] } {
  const op = operationOf(doc, method, path);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  for (const p of op.parameters ?? []) {
    if ((p.in !== 'query' && p.in !== 'path') || omit.includes(p.name)) continue;
    properties[p.name] = { ...(inline(p.schema ?? {}, doc) as JsonSchema), description: p.description ?? '' };
    if (p.required || p.in === 'path') required.push(p.name);
    if (p.in === 'path') pathParams.push(p.name);
  }
  const body = inline(op.requestBody?.content?.['application/json']?.schema, doc) as JsonSchema | undefined;
  if (body && typeof body.properties === 'object') {
    Object.assign(properties, body.properties);
    if (Array.isArray(body.required)) required.push(...(body.required as string[]));
  }
  return {
    schema: {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    },
    pathParams,
  };
}

/** The schema of the `data` member of the operation's 200 or 202 answer, for tools that pass it through. */
export function dataSchemaOf(doc: OpenApiDocument, method: string, path: string): JsonSchema | undefined {
  const op = operationOf(doc, method, path);
  const ok = op.responses?.['200'] ?? op.responses?.['202'];
  const envelope = inline(ok?.content?.['application/json']?.schema, doc) as
    | { properties?: { data?: JsonSchema } }
    | undefined;
  const data = envelope?.properties?.data;
  return data && data.type === 'object' ? data : undefined;
}
