import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Factory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<Factory>>;

/**
 * Fastify compiles a response serializer for every route and status, and most of them are the same schema: every
 * error status of every route is the ErrorEnvelope. Compiling each distinct schema once takes ~0.1 s off a start.
 * Two schemas that differ only in their descriptions serialize alike, so descriptions are not part of the key
 * (a property named "description" is a schema object, not a string, and stays in it).
 */
export function sharedSerializerFactory(): Factory {
  const base = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = base(externalSchemas, options);
    const compiled = new Map<string, Serializer>();
    return (route) => {
      const key = JSON.stringify(route.schema, (k, v) =>
        k === 'description' && typeof v === 'string' ? undefined : v,
      );
      let serializer = compiled.get(key);
      if (serializer === undefined) {
        serializer = compile(route);
        compiled.set(key, serializer);
      }
      return serializer;
    };
  };
}
