import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { TSchema } from 'typebox';
import type { DeferredCompiles } from '../deferred-compiles.js';

type Factory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<Factory>>;
type Schema = Record<string, unknown>;

/**
 * Fastify compiles a response serializer for every route and status, and most of them are the same schema: every
 * error status of every route is the ErrorEnvelope. Compiling each distinct schema once takes ~0.1 s off a start.
 * Two schemas that differ only in their descriptions serialize alike, so descriptions are not part of the key
 * (a property named "description" is a schema object, not a string, and stays in it). Each is compiled on
 * first use or by DeferredCompiles.compileAll, whichever comes first.
 */
export function sharedSerializerFactory(deferred: DeferredCompiles): Factory {
  const base = SerializerSelector();
  return (externalSchemas, options) => {
    const compiler = deferred.defer(() => base(externalSchemas, options));
    const compiled = new Map<string, () => Serializer>();
    return (route) => {
      const key = JSON.stringify(route.schema, (k, v) =>
        k === 'description' && typeof v === 'string' ? undefined : v,
      );
      let serializer = compiled.get(key);
      if (serializer === undefined) {
        serializer = deferred.defer(() =>
          compiler()({ ...route, schema: serializableSchema(route.schema as Schema) }),
        );
        compiled.set(key, serializer);
      }
      const get = serializer;
      return (data: unknown) => get()(data);
    };
  };
}

const standalone = SerializerSelector()({}, {});

/** A serializer for one schema outside any route (list bodies written item by item, see list-body.ts). */
export function serializerFor(schema: TSchema): (value: unknown) => string {
  return standalone({
    schema: serializableSchema(schema as unknown as Schema),
    method: 'GET',
    url: '/',
    httpStatus: '200',
  }) as (value: unknown) => string;
}

const NESTED_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const NESTED_ONE = ['items', 'additionalProperties'] as const;

/**
 * The schema as fast-json-stringify should see it. For `anyOf` it writes code that tries each branch with an Ajv
 * validator, and it builds an Ajv instance (formats included) for every schema that has one, each costly at a
 * start, then a validator call for every nullable value of every response. The unions our responses use
 * have forms it writes inline: X-or-null becomes `type: [X's type, "null"]` and a union of string literals a
 * string. Only serializers see the rewrite; request validation and the OpenAPI document keep the schema as
 * declared. test/http/serializers.test.ts checks the bytes are the same.
 */
export function serializableSchema(schema: Schema): Schema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  let out: Schema = schema;
  const set = (key: string, value: unknown) => {
    if (out === schema) out = { ...schema };
    out[key] = value;
  };
  for (const key of NESTED_MAPS) {
    const map = schema[key];
    if (map && typeof map === 'object') {
      const entries = Object.entries(map as Record<string, Schema>);
      const rewritten = entries.map(([k, v]) => [k, serializableSchema(v)] as const);
      if (rewritten.some(([k, v]) => v !== (map as Record<string, Schema>)[k])) {
        set(key, Object.fromEntries(rewritten));
      }
    }
  }
  for (const key of NESTED_ONE) {
    const child = schema[key];
    if (child && typeof child === 'object') {
      const rewritten = serializableSchema(child as Schema);
      if (rewritten !== child) set(key, rewritten);
    }
  }
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf)) return out;
  const branches = (anyOf as Schema[]).map(serializableSchema);
  const flat = flattenUnion(branches);
  if (flat === undefined) {
    if (branches.some((b, i) => b !== anyOf[i])) set('anyOf', branches);
    return out;
  }
  const { anyOf: _dropped, ...rest } = out;
  return { ...rest, ...flat };
}

const COMBINATORS = ['anyOf', 'oneOf', 'allOf', '$ref', 'not', 'if'];
const isNull = (s: Schema) =>
  s.type === 'null' && Object.keys(s).every((k) => k === 'type' || k === 'description');
const simple = (s: Schema) => typeof s.type === 'string' && !COMBINATORS.some((k) => k in s);

/** The inline equivalent of a union of branches, or undefined when it has none. */
function flattenUnion(branches: Schema[]): Schema | undefined {
  // X | null: one typed branch and a bare null.
  if (branches.length === 2) {
    const nullAt = branches.findIndex(isNull);
    const other = branches[1 - nullAt];
    if (nullAt !== -1 && other && simple(other) && other.type !== 'null') {
      return { ...other, type: [other.type, 'null'] };
    }
  }
  // 'a' | 'b' | …: literals of one type serialize as that type.
  const first = branches[0];
  if (
    first &&
    simple(first) &&
    branches.every((b) => 'const' in b && b.type === first.type && Object.keys(b).length <= 3)
  ) {
    return { type: first.type };
  }
  return undefined;
}
