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
 */
export function deferredValidatorFactory(deferred: DeferredCompiles): ValidatorFactory {
  const base = AjvCompiler();
  return (externalSchemas, options) => {
    // The Ajv instance itself (~10 ms, with every shared schema added) is built on the first compile, too.
    const compiler = deferred.defer(() => base(externalSchemas, options));
    return (route) => {
      const compiled = deferred.defer(() => compiler()(route));
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
