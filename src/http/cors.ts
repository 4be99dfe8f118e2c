import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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
const CORS_HEADERS = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED,
});
const ALLOWED = 'Authorization, Content-Type, If-None-Match, X-Request-Id';
const MAX_AGE_S = '600';

/** The headers every response carries, errors included, so a browser app can read our error envelope. */
export function addCorsHeaders(reply: FastifyReply): void {
  reply.headers(CORS_HEADERS);
}

/** The same headers on an answer written without Fastify (a cache hit answered before routing). */
export function addCorsHeadersTo(out: OutgoingHttpHeaders): void {
  Object.assign(out, CORS_HEADERS);
}

/** A preflight names the method it wants; an OPTIONS without it is an ordinary request. */
const isPreflight = (request: FastifyRequest) =>
  request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;

/**
 * CORS for a public API: any origin, no credentials (so a token is never sent implicitly), answered the way
 * @fastify/cors answers with this fixed policy. Registered before the guard: every answer the guard gives (401,
 * 403, 429) carries the headers, and a preflight is answered 204 here without touching any quota (a browser
 * sends one before a request it would then be refused, and it carries no credentials to count). A bare OPTIONS
 * goes on to the router and is answered in the envelope: 405 with Allow on a route's path, 404 elsewhere.
 */
export function registerCors(app: FastifyInstance): void {
  // Every method a route has (DELETE, PATCH, ...), collected as routes are added: a preflight allows them all.
  const methods = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);
  let allowed = '';
  app.addHook('onRoute', (route) => {
    for (const m of [route.method].flat()) methods.add(m.toUpperCase());
    allowed = '';
  });
  app.addHook('onRequest', (request, reply, done) => {
    addCorsHeaders(reply);
    if (!isPreflight(request)) {
      done();
      return;
    }
    allowed ||= [...methods].join(', ');
    reply.header('access-control-allow-methods', allowed);
    reply.header('access-control-allow-headers', ALLOWED);
    reply.header('access-control-max-age', MAX_AGE_S);
    // Safari needs an explicit empty body on a 204.
    reply.code(204).header('content-length', '0').send();
  });

  // Gives the router an OPTIONS route for every path: preflights are answered above; a bare OPTIONS is not routed.
  app.options('*', { schema: { hide: true } }, (_request, reply) => {
    reply.callNotFound();
  });
}
