import type { preValidationHookHandler } from 'fastify';
import { badRequest } from '../../errors.js';
import { allowLoggedParams } from '../../logger.js';
import type { App } from '../types.js';

type QuerySchema = { properties?: Record<string, { type?: unknown }> } | undefined;

/** A decimal numeral: what a numeric query parameter may hold ("Infinity", "1e400" and hex are not numbers here). */
const NUMERAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function isNumeric(schema: { type?: unknown } | undefined): boolean {
  return schema?.type === 'integer' || schema?.type === 'number';
}

/** The first numeric parameter whose value is not a finite numeral (the validator coerces "Infinity" to a number). */
function nonFinite(query: Record<string, unknown>, numeric: ReadonlySet<string>): string | undefined {
  for (const name of numeric) {
    const raw = query[name];
    const values = Array.isArray(raw) ? raw : [raw];
    for (const v of values) {
      if (typeof v !== 'string' || v.trim() === '') continue; // blank: the route's own rules apply
      if (!(NUMERAL.test(v.trim()) && Number.isFinite(Number(v)))) return name;
    }
  }
  return undefined;
}

/**
 * Every route refuses query parameters it does not declare, with a 400 naming the first unknown one: a misspelt
 * filter (`?compnay=acme`) would otherwise be ignored silently and answer the unfiltered list. One hook derived
 * from each route's querystring schema covers every route, those with a custom validator compiler included.
 * Numeric parameters must hold finite numerals: the validator would coerce "Infinity" and let it past its bounds.
 * Runs after the guard (onRequest), so authentication and rate limits answer first.
 */
export function rejectUnknownQueryParameters(app: App): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // The CORS preflight catch-all answers for every path, whatever query the browser's URL carries.
    if (methods.every((m) => m === 'OPTIONS')) return;
    const schema = route.schema as { querystring?: QuerySchema } | undefined;
    const declared = Object.keys(schema?.querystring?.properties ?? {});
    allowLoggedParams(declared);
    const known = new Set(declared);
    const properties = schema?.querystring?.properties ?? {};
    const numeric = new Set(declared.filter((name) => isNumeric(properties[name])));
    const expected = declared.length > 0 ? `expected one of: ${declared.join(', ')}` : 'it takes none';
    const check: preValidationHookHandler = (request, _reply, done) => {
      for (const name of Object.keys(request.query as Record<string, unknown>)) {
        if (!known.has(name)) {
          done(badRequest(`Unknown query parameter '${name}'; ${expected}`));
          return;
        }
      }
      const bad = nonFinite(request.query as Record<string, unknown>, numeric);
      if (bad !== undefined) {
        done(badRequest(`Invalid query parameter '${bad}': must be a finite number`));
        return;
      }
      done();
    };
    const existing = route.preValidation === undefined ? [] : [route.preValidation].flat();
    route.preValidation = [check, ...existing];
  });
}
