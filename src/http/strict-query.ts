import type { preValidationHookHandler } from 'fastify';
import { badRequest } from '../errors.js';
import type { App } from './types.js';

type QuerySchema = { properties?: Record<string, unknown> } | undefined;

/**
 * Every route refuses query parameters it does not declare, with a 400 naming the first unknown one: a misspelt
 * filter (`?compnay=acme`) would otherwise be ignored silently and answer the unfiltered list. One hook derived
 * from each route's querystring schema covers every route, those with a custom validator compiler included.
 * Runs after the guard (onRequest), so authentication and rate limits answer first.
 */
export function rejectUnknownQueryParameters(app: App): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // The CORS preflight catch-all answers for every path, whatever query the browser's URL carries.
    if (methods.every((m) => m === 'OPTIONS')) return;
    const schema = route.schema as { querystring?: QuerySchema } | undefined;
    const declared = Object.keys(schema?.querystring?.properties ?? {});
    const known = new Set(declared);
    const expected = declared.length > 0 ? `expected one of: ${declared.join(', ')}` : 'it takes none';
    const check: preValidationHookHandler = (request, _reply, done) => {
      for (const name of Object.keys(request.query as Record<string, unknown>)) {
        if (!known.has(name)) {
          done(badRequest(`Unknown query parameter '${name}'; ${expected}`));
          return;
        }
      }
      done();
    };
    const existing = route.preValidation === undefined ? [] : [route.preValidation].flat();
    route.preValidation = [check, ...existing];
  });
}
