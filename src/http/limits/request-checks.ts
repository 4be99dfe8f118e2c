import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AppError, badRequest } from '../../errors.js';
import { routeConfig } from '../route-config.js';

/**
 * An HTTP/1.1 request must name its Host (RFC 9112 section 3.2). Node's own check answers 400 with no body; the
 * server lets such requests through (caching/early-hits.ts) so this hook answers them in the envelope, with the request id
 * and CORS headers the hooks before it set. HTTP/1.0 requests may omit it.
 */
export function registerHostCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw;
    if (raw.headers.host === undefined && raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1) {
      done(badRequest('Missing Host header (required by HTTP/1.1)'));
      return;
    }
    done();
  });
}

/** PostgreSQL's text types cannot hold U+0000, so no parameter or body string may carry it. */
const NUL = '\u0000';

/** The path of the first string holding a NUL in a parsed JSON value, or undefined. */
function nulIn(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  for (const [key, v] of Object.entries(value)) {
    if (key.includes(NUL)) return path ? `${path}.${key.replaceAll(NUL, '\\0')}` : key.replaceAll(NUL, '\\0');
    const found = nulIn(v, path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function refuseNul(request: FastifyRequest): AppError | undefined {
  const parts: [string, unknown][] = [
    ['query parameter', request.query],
    ['path parameter', request.params],
  ];
  // A route that judges its body item by item (POST /discover) rejects such an item on its own, not the batch.
  if (routeConfig(request).perItemBody !== true) parts.push(['field', request.body]);
  for (const [where, value] of parts) {
    const name = nulIn(value, '');
    if (name !== undefined) {
      return badRequest(`Invalid ${where} '${name || 'body'}': must not contain NUL (\\u0000) characters`);
    }
  }
  return undefined;
}

/**
 * Refuses NUL characters in query and path parameters and body strings before validation, naming the parameter
 * (or the field's path in the body):
 * the database refuses them (and would answer with an error naming nothing), so no handler may ever see one.
 */
export function registerNulCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    done(refuseNul(request));
  });
}
