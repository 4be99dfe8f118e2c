import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Deps } from './deps.js';
import { registerCompression } from './http/caching/compression.js';
import { type EarlySlot, installEarlyHits } from './http/caching/early-hits.js';
import { registerResponseCache } from './http/caching/response-cache.js';
import { registerCors } from './http/cors.js';
import { DeferredCompiles } from './http/deferred-compiles.js';
import { registerContentTypes } from './http/documents/content-types.js';
import { registerDocs } from './http/documents/docs.js';
import { registerErrorHandling, registerPageErrors } from './http/error-handler.js';
import { registerGuard } from './http/limits/guard.js';
import { registerHostCheck, registerNulCheck } from './http/limits/request-checks.js';
import { buildFailedAuthPolicy, buildPagesPolicy } from './http/limits/tiers.js';
import { registerMethodNotAllowed } from './http/method-not-allowed.js';
import { registerRequestIdHeader } from './http/request-id.js';
import { registerRequestMetrics } from './http/request-metrics.js';
import { decorateRouteConfig } from './http/route-config.js';
import type { GuardSlot } from './http/router-errors.js';
import { registerRoutes } from './http/routes/index.js';
import { INTERNAL_CALL_HEADER, internalCallSecret, mcpRoute } from './http/routes/mcp/mcp.js';
import { pageErrorRenderer } from './http/routes/site/errors.js';
import type { Site } from './http/routes/site/page.js';
import { ErrorEnvelope, PaginationMeta } from './http/schemas/common.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { serverOptions } from './http/server-options.js';
import type { App } from './http/types.js';

export const API_PREFIX = '/api/v1';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the HTTP app with no top-level I/O: used by main, tests and the OpenAPI export alike. A list of plugins
 * and routes; the order of the onRequest hooks is the order below (request id, CORS and preflights, Host, guard).
 */
export async function buildApp(deps: Deps, opts: AppOptions = {}): Promise<App> {
  const compiles = new DeferredCompiles();
  const internalSecret = internalCallSecret();
  const early: EarlySlot = { hits: undefined };
  const slot: GuardSlot = { hook: undefined, routeConfigFor: undefined };
  const app: App = Fastify(
    serverOptions({ config: deps.config, logger: opts.logger ?? false, compiles, early, slot }),
  ).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('compileSchemas', () => compiles.compileAll());
  decorateRouteConfig(app);
  registerRequestIdHeader(app);
  registerSecurityHeaders(app);
  registerErrorHandling(app);
  const site: Site = { config: deps.config, apiPrefix: API_PREFIX, now: deps.now };
  registerPageErrors(app, pageErrorRenderer(site));
  registerCors(app);
  registerHostCheck(app);
  const guard = registerGuard(app, {
    tokens: deps.tokens,
    rateLimits: deps.rateLimits,
    tiers: deps.tiers,
    failedAuth: buildFailedAuthPolicy(deps.config.rateLimit),
    pages: buildPagesPolicy(deps.config.rateLimit),
    now: deps.now,
    onStoreFailure: deps.config.rateLimit.onStoreFailure,
    metrics: deps.metrics,
    metricsToken: deps.config.metricsToken,
    internal: { header: INTERNAL_CALL_HEADER, value: internalSecret },
  });
  slot.hook = guard.hook;
  early.refusalHeaders = guard.parserRefusalHeaders;
  const seriesOf = registerRequestMetrics(app, deps.metrics);
  registerMethodNotAllowed(app);
  slot.routeConfigFor = (method, path) => app.routeConfigFor(method, path);
  registerContentTypes(app);
  registerNulCheck(app);

  app.addSchema(ErrorEnvelope);
  app.addSchema(PaginationMeta);

  await registerCompression(app);
  // After compression: the cache stores the bytes as sent (see registerResponseCache).
  registerResponseCache(app, deps.responseCache, deps.metrics);
  installEarlyHits(app, early, {
    cache: deps.responseCache,
    admitAnonymous: guard.admitAnonymous,
    seriesOf,
    cacheHits: deps.metrics.responseCache.cell({ outcome: 'hit' }),
    trustProxy: deps.config.trustProxy,
  });

  await registerDocs(app);
  await registerRoutes(app, deps, API_PREFIX, site);
  await app.register(async (scope) => mcpRoute(scope, app, deps.metrics, internalSecret, guard.charge));
  return app;
}
