import { randomUUID } from 'node:crypto';
import type { RawRequestDefaultExpression } from 'fastify';
import type { App } from './types.js';

const VALID_ID = /^[\w.:-]{1,128}$/;

/** Fastify's genReqId: a caller's well-formed X-Request-Id is kept, so one id follows a request across services. */
export function requestId(req: RawRequestDefaultExpression): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && VALID_ID.test(given) ? given : randomUUID();
}

/** Every response carries the request's id. */
export function registerRequestIdHeader(app: App): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
