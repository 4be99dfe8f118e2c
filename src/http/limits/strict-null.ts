import type { preValidationHookHandler } from 'fastify';
import { badRequest } from '../../errors.js';
import type { App } from '../types.js';

/** The parts of a JSON Schema (as TypeBox writes it) that say where null may stand. */
interface Schema {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

/** Whether the schema admits null: a `null` type, or a branch of a union that does. */
function admitsNull(s: Schema | undefined): boolean {
  if (s === undefined) return true;
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  if (branches.length > 0) return branches.some(admitsNull);
  // No type stated (Type.Unknown, a free object's values): anything goes.
  return s.type === undefined;
}

/** Every schema a value under `s` may be read by: the schema itself, or the branches of its union. */
const branchesOf = (s: Schema): Schema[] => {
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  return branches.length > 0 ? branches.flatMap(branchesOf) : [s];
};

/**
 * The path of the first null the schema does not admit, or undefined. A property is checked against the object
 * branches that declare it (any one admitting null is enough), nested objects included.
 */
export function refusedNull(value: unknown, schema: Schema | undefined, path: string): string | undefined {
  if (schema === undefined) return undefined;
  if (value === null) return admitsNull(schema) ? undefined : path;
  // Array elements are left to the route: POST /discover reports each bad item by its index, without failing
  // the request, and every other route's validator checks its elements against the schema.
  if (Array.isArray(value)) return undefined;
  if (typeof value !== 'object') return undefined;
  const objects = branchesOf(schema).filter((b) => b.properties !== undefined);
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const declared = objects.flatMap((o) => (o.properties?.[key] ? [o.properties[key]] : []));
    if (declared.length === 0) continue;
    const name = path === '' ? key : `${path}.${key}`;
    const bad = declared.map((d) => refusedNull(v, d, name));
    if (bad.every((b) => b !== undefined)) return bad[0];
  }
  return undefined;
}

/**
 * A JSON body's `null` where the route's body schema says the field cannot be null is refused with a 400 naming
 * the field, on every route: derived from each route's declared body schema, before its validator runs, so it
 * holds for the routes that check their bodies by hand (POST /discover reports bad items one by one, POST
 * /promote_and_onboard refuses coercions itself) as for the others. Without it a hand-written check that reads
 * null as "absent" accepts what the OpenAPI document says is refused.
 */
export function rejectUndeclaredNulls(app: App): void {
  app.addHook('onRoute', (route) => {
    const body = (route.schema as { body?: Schema } | undefined)?.body;
    if (body === undefined) return;
    const check: preValidationHookHandler = (request, _reply, done) => {
      const bad = refusedNull(request.body, body, '');
      if (bad === undefined) return done();
      done(
        badRequest(
          bad === '' ? 'Invalid body: must not be null' : `Invalid field '${bad}': must not be null`,
        ),
      );
    };
    const existing = route.preValidation === undefined ? [] : [route.preValidation].flat();
    route.preValidation = [check, ...existing];
  });
}
