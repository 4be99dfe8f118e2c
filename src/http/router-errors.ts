import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { addCorsHeaders } from './cors.js';
import { sendError } from './error-handler.js';
import type { GuardHook } from './limits/guard.js';
import type { RouteConfig } from './route-config.js';

/** Filled in once the guard exists; the router's error handler is a server option, given before any hook. */
export interface GuardSlot {
  hook: GuardHook | undefined;
  routeConfigFor: ((method: string, path: string) => RouteConfig | undefined) | undefined;
}

/**
 * Fastify's `frameworkErrors`: the router rejects malformed URL encoding and over-long path parameters before
 * any hook runs. Such a request still gets what every answer carries (the request id, CORS headers) and the
 * guard of the route its path would reach: an anonymous caller of a token-only route is told 401 about the
 * token first, as for a well-formed URL, and only an authorised one learns that the URL is malformed.
 */
export function routerErrorHandler(slot: GuardSlot) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', request.id);
    addCorsHeaders(reply);
    const message =
      err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path parameter is too long (at most 500 characters)'
        : 'Malformed URL: invalid percent-encoding';
    const respond = () => {
      if (!reply.sent) sendError(reply, new AppError('BAD_REQUEST', message));
    };
    const guard = slot.hook;
    if (!guard || !slot.routeConfigFor) {
      respond();
      return;
    }
    const path = request.url.split('?')[0] ?? '/';
    request.routeConfigMemo = slot.routeConfigFor(request.method, path) ?? {};
    // A refused request is answered by the guard itself, which then does not call back.
    guard(request, reply, (e) => {
      if (e) request.log.error({ err: e }, 'guard failed on a malformed URL');
      respond();
    });
  };
}
