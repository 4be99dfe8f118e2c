import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    corsPreflightEnabled: boolean;
  }
}

const EXPOSED = [
  'X-Api-Tier',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'ETag',
  'X-Request-Id',
].join(', ');
/** The CORS headers of every response, preflight or not. */
export const CORS_HEADERS = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED,
});
const METHODS = 'GET, HEAD, POST, OPTIONS';
const ALLOWED = 'Authorization, Content-Type, If-None-Match, X-Request-Id';
const MAX_AGE_S = '600';

/**
 * CORS for a public API: any origin, no credentials (so a token is never sent implicitly), answered the way
 * @fastify/cors answers with this fixed policy, preflight included. The plugin resolves its options per request
 * (copying them and reading the route's config twice); with nothing per-route to resolve, two constant headers
 * per request are all that is left. Runs after the guard, like the plugin did: preflights count against the
 * rate limit.
 */
export function registerCors(app: FastifyInstance): void {
  app.decorateRequest('corsPreflightEnabled', false);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('access-control-allow-origin', CORS_HEADERS['access-control-allow-origin']);
    reply.header('access-control-expose-headers', CORS_HEADERS['access-control-expose-headers']);
    if (request.method !== 'OPTIONS') {
      done();
      return;
    }
    // A preflight names its origin and the method it wants; anything else is not one.
    if (!request.headers.origin || !request.headers['access-control-request-method']) {
      reply.status(400).type('text/plain').send('Invalid Preflight Request');
      return;
    }
    request.corsPreflightEnabled = true;
    reply.header('access-control-allow-methods', METHODS);
    reply.header('access-control-allow-headers', ALLOWED);
    reply.header('access-control-max-age', MAX_AGE_S);
    // Safari needs an explicit empty body on a 204.
    reply.code(204).header('content-length', '0').send();
  });

  // Gives the router an OPTIONS route for every path, so preflights reach the hook above (which answers them).
  app.options('*', { schema: { hide: true } }, (request, reply) => {
    if (request.corsPreflightEnabled) reply.send();
    else reply.callNotFound();
  });
}
