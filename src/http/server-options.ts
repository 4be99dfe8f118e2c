import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import { type EarlySlot, serverWithEarlyHits } from './caching/early-hits.js';
import { clientErrorHandler } from './client-error.js';
import { type DeferredCompiles, deferredValidatorFactory } from './deferred-compiles.js';
import { sharedSerializerFactory } from './documents/serializers.js';
import { requestId } from './request-id.js';
import { requestLoggers } from './request-logger.js';
import { type GuardSlot, routerErrorHandler } from './router-errors.js';

export interface ServerOptionsInput {
  config: Config;
  logger: FastifyServerOptions['logger'];
  compiles: DeferredCompiles;
  early: EarlySlot;
  slot: GuardSlot;
}

/** Fastify's server options: limits, timeouts, the server itself, and how schemas compile. */
export function serverOptions(input: ServerOptionsInput): FastifyServerOptions {
  const { config, compiles, early } = input;
  return {
    logger: input.logger,
    childLoggerFactory: requestLoggers,
    // A number is a hop count; Fastify accepts it at run time though its types omit it.
    trustProxy: config.trustProxy as boolean | string,
    genReqId: requestId,
    bodyLimit: 1024 * 1024,
    // A request (headers and body) must arrive whole within this, from any caller: a slow body is cut off with
    // 408 rather than holding a connection and its parser open (see serverWithEarlyHits).
    requestTimeout: config.requestTimeoutMs,
    // Fastify's default 10 s budget per plugin is for catching a forgotten done(); a start on a machine whose
    // cores are busy (a CI run, a crowded node) can need more, and must not crash for it.
    pluginTimeout: 60_000,
    // Fastify's own server, with cached answers served in front of routing once the app is built (caching/early-hits.ts).
    serverFactory: (handler, options) => serverWithEarlyHits(handler, options as never, early),
    clientErrorHandler: clientErrorHandler(early),
    frameworkErrors: routerErrorHandler(input.slot),
    // Header and URL bounds: Node's defaults (16 KB headers) hold; query strings are parsed by Fastify.
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
    // Route schemas compile on first use; the server compiles the rest once it answers (app.compileSchemas).
    schemaController: {
      compilersFactory: {
        buildValidator: deferredValidatorFactory(compiles),
        buildSerializer: sharedSerializerFactory(compiles),
      },
    },
    ajv: {
      customOptions: {
        coerceTypes: true,
        useDefaults: true,
        removeAdditional: false,
        allErrors: false,
      },
    },
  };
}
