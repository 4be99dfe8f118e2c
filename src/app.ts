import { hash } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import etag from '@fastify/etag';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Deps } from './deps.js';
import { AppError } from './errors.js';
import { clientErrorHandler } from './http/client-error.js';
import { registerCors } from './http/cors.js';
import { DeferredCompiles, deferredValidatorFactory } from './http/deferred-compiles.js';
import { type EarlyHits, earlyHits, serverWithEarlyHits } from './http/early-hits.js';
import { registerErrorHandling, sendError } from './http/error-handler.js';
import { type GuardHook, registerGuard } from './http/guard.js';
import { registerMethodNotAllowed } from './http/method-not-allowed.js';
import { openApiOptions } from './http/openapi.js';
import { registerRequestIdHeader, requestId } from './http/request-id.js';
import { requestLoggers } from './http/request-logger.js';
import { registerRequestMetrics } from './http/request-metrics.js';
import { registerResponseCache } from './http/response-cache.js';
import { decorateRouteConfig } from './http/route-config.js';
import { registerRoutes } from './http/routes/index.js';
import { INTERNAL_CALL_HEADER, internalCallSecret, mcpRoute } from './http/routes/mcp/mcp.js';
import { ErrorEnvelope, PaginationMeta } from './http/schemas/common.js';
import { sharedSerializerFactory } from './http/serializers.js';
import type { App } from './http/types.js';

export const API_PREFIX = '/api/v1';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
}

/** Builds the HTTP app with no top-level I/O: used by main, tests and the OpenAPI export alike. */
export async function buildApp(deps: Deps, opts: AppOptions = {}): Promise<App> {
  let guard: GuardHook | undefined;
  const early: { hits: EarlyHits | undefined } = { hits: undefined };
  const compiles = new DeferredCompiles();
  const internalSecret = internalCallSecret();
  const app: App = Fastify({
    logger: opts.logger ?? false,
    childLoggerFactory: requestLoggers,
    // A number is a hop count; Fastify accepts it at run time though its types omit it.
    trustProxy: deps.config.trustProxy as boolean | string,
    genReqId: requestId,
    bodyLimit: 1024 * 1024,
    // Fastify's default 10 s budget per plugin is for catching a forgotten done(); a start on a machine whose
    // cores are busy (a CI run, a crowded node) can need more, and must not crash for it.
    pluginTimeout: 60_000,
    // Fastify's own server, with cached answers served in front of routing once the app is built (early-hits.ts).
    serverFactory: (handler, options) => serverWithEarlyHits(handler, options as never, early),
    clientErrorHandler,
    // The router rejects malformed URL encoding and over-long path parameters before any hook runs; answer those
    // in the envelope too, after the same auth and rate-limit guard as every other request.
    frameworkErrors: (err, request, reply) => {
      const message =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A path parameter is too long (at most 500 characters)'
          : 'Malformed URL: invalid percent-encoding';
      const respond = () => {
        if (!reply.sent) sendError(reply, new AppError('BAD_REQUEST', message));
      };
      if (!guard) return respond();
      // A refused request is answered by the guard itself, which then does not call back.
      guard(request, reply, (e) => {
        if (e) request.log.error({ err: e }, 'guard failed on a malformed URL');
        respond();
      });
    },
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
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('compileSchemas', () => compiles.compileAll());
  decorateRouteConfig(app);
  registerRequestIdHeader(app);
  registerErrorHandling(app);
  const { hook: guardHook, admitAnonymous } = registerGuard(app, {
    tokens: deps.tokens,
    rateLimits: deps.rateLimits,
    tiers: deps.tiers,
    now: deps.now,
    onStoreFailure: deps.config.rateLimit.onStoreFailure,
    metrics: deps.metrics,
    internal: { header: INTERNAL_CALL_HEADER, value: internalSecret },
  });
  guard = guardHook;
  const seriesOf = registerRequestMetrics(app, deps.metrics);
  registerMethodNotAllowed(app);

  app.addSchema(ErrorEnvelope);
  app.addSchema(PaginationMeta);

  registerCors(app);
  // Hook order matters: ETag sees the uncompressed body, compression runs after it, the response cache last.
  // The plugin's default digest (sha1, base64) through the one-shot crypto.hash, which skips a Hash object.
  // A large serialized body is UTF-8 encoded once, here: the ETag hash, the response cache and the socket then
  // share the bytes (it was encoded three times, ~40 µs each for 14 KB with one non-ASCII character). A small one
  // stays a string, which Node writes in one piece with the headers (-10% req/s on /healthz as a Buffer).
  app.addHook('onSend', (_request, _reply, payload, done) => {
    done(null, typeof payload === 'string' && payload.length > 1024 ? Buffer.from(payload) : payload);
  });
  await app.register(etag, { weak: false, hashFn: (payload) => hash('sha1', payload, 'base64') });
  // Bodies up to 64 KB (every default page, and a token's 50 jobs) are compressed in one synchronous call. The
  // plugin's default on two cores (8 KB) sent a 14 KB /companies page through a zlib stream and the thread pool:
  // ~470 µs of CPU per brotli response that way, ~140 µs in one call (a 6 KB /jobs page: ~670 against ~110).
  //
  // gzip first when a client takes both (browsers send `gzip, deflate, br`): on our JSON pages brotli at the
  // plugin's quality 4 came out no smaller (a 6.5 KB /jobs page: 1,869 bytes against gzip's 1,866; a 13.7 KB
  // /companies page: 2,533 against 2,448) for ~20x the CPU of a miss: 1.2 ms against 53 µs, because the pinned
  // mmap threshold (src/malloc-env.ts) maps brotli's multi-MB encoder tables afresh on every call. Brotli stays
  // for clients that ask for it alone, with a 64 KB window: the same bytes on these pages, ~5x less of that cost.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    syncThreshold: 64 * 1024,
    encodings: ['gzip', 'br', 'deflate'],
    brotliOptions: {
      params: {
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_QUALITY]: 4,
        [zlib.BROTLI_PARAM_LGWIN]: 16,
      },
    },
  });
  // After compression: the cache stores the bytes as sent (see registerResponseCache).
  registerResponseCache(app, deps.responseCache, deps.metrics);
  // Behind a trusted proxy the client IP comes from X-Forwarded-For, which only Fastify's request reads.
  if (admitAnonymous && deps.config.trustProxy === false) {
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    early.hits = earlyHits({
      cache: deps.responseCache,
      admitAnonymous,
      seriesOf,
      cacheHits: deps.metrics.responseCache.cell({ outcome: 'hit' }),
      log: app.log,
      closing: () => closing,
    });
  }

  await app.register(swagger, openApiOptions());
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  await registerRoutes(app, deps, API_PREFIX);
  await app.register(async (scope) => mcpRoute(scope, app, deps.metrics, internalSecret));
  return app;
}
