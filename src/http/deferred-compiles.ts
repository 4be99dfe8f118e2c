import { setImmediate as nextTurn } from 'node:timers/promises';
import AjvCompiler from '@fastify/ajv-compiler';

/**
 * Fastify compiles every route's validators (Ajv) and response serializers while the server starts: ~0.15 s of
 * a restart, spent before the first request can be answered, on some 60 routes of which a restart's first
 * requests use a handful. Compilers made here compile a schema on its first use instead, and the server compiles
 * whatever is still pending right after it starts answering (compileAll), one schema per turn of the event loop.
 * A schema that cannot compile still stops `serve` (it exits reporting it), seconds later than before.
 */
export class DeferredCompiles {
  private readonly pending = new Set<() => unknown>();

  /** `compile` runs once, on the first call of the returned getter or in compileAll, whichever comes first. */
  defer<T>(compile: () => T): () => T {
    let compiled: { value: T } | undefined;
    const get = (): T => {
      if (compiled === undefined) {
        compiled = { value: compile() };
        this.pending.delete(get);
      }
      return compiled.value;
    };
    this.pending.add(get);
    return get;
  }

  /** Schemas not compiled yet. */
  get size(): number {
    return this.pending.size;
  }

  /** Compiles every pending schema, yielding to the event loop between two, so requests are served meanwhile. */
  async compileAll(): Promise<void> {
    for (const get of [...this.pending]) {
      get();
      await nextTurn();
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every route schema not compiled yet (see DeferredCompiles). */
    compileSchemas(): Promise<void>;
  }
}

type ValidatorFactory = ReturnType<typeof AjvCompiler>;
type ValidatorCompiler = ReturnType<ValidatorFactory>;
type Validator = ReturnType<ValidatorCompiler>;

/**
 * Fastify's own validator factory (@fastify/ajv-compiler, with the `ajv` server options), deferred. Fastify reads
 * a failed validation's `errors` off the function it was given, so the wrapper carries the compiled one's over.
 *
 * The validators that serve skip Ajv's check of each schema against the JSON Schema meta-schema: compiling the
 * meta-schema's own validator is slow, and would land on a restart's first request. The check still runs,
 * in compileAll: each schema is compiled again on a second Ajv with Fastify's options unchanged, so a malformed
 * schema fails the start as before. That Ajv is dropped once compileAll is done.
 */
export function deferredValidatorFactory(deferred: DeferredCompiles): ValidatorFactory {
  const serving = AjvCompiler();
  return (externalSchemas, options) => {
    // The Ajv instances themselves (costly, with every shared schema added) are built on first use, too.
    const servingOptions = (coerce: boolean) =>
      ({
        ...options,
        customOptions: {
          ...options?.customOptions,
          validateSchema: false,
          ...(coerce ? {} : { coerceTypes: false }),
        },
      }) as typeof options;
    const compiler = deferred.defer(() => serving(externalSchemas, servingOptions(true)));
    // JSON bodies carry their own types: `"name": 123` or `"force": "true"` is refused, not coerced. Query
    // strings, path parameters and headers are text, which the coercing compiler turns into numbers and booleans.
    const bodyCompiler = deferred.defer(() => AjvCompiler()(externalSchemas, servingOptions(false)));
    // Only ever called from compileAll; a fresh pool, so nothing keeps its Ajv once the checks have run.
    const checker = deferred.defer(() => AjvCompiler()(externalSchemas, options));
    return (route) => {
      // Fastify passes { schema, method, url, httpPart }; the compiler's types name only the schema.
      const body = (route as unknown as { httpPart?: string }).httpPart === 'body';
      const compiled = deferred.defer(() => (body ? bodyCompiler : compiler)()(route));
      deferred.defer(() => checker()(route));
      const validate = ((data: unknown) => {
        const fn = compiled();
        const ok = fn(data);
        validate.errors = fn.errors;
        return ok;
      }) as unknown as Validator;
      return validate;
    };
  };
}
