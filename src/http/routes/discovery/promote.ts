import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { badRequest } from '../../../errors.js';
import type { RunArgs } from '../../../pipeline/discovery/intake.js';
import { PROMOTE_DEFAULTS, PROMOTE_MAX, PROMOTE_WORKFLOW } from '../../../pipeline/discovery/workflow.js';
import type { WorkflowEngine } from '../../../pipeline/engine/types.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { Enqueued, WorkflowIdField } from '../pipeline/schemas.js';

const Body = Type.Union(
  [
    Type.Object(
      {
        limit: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: PROMOTE_MAX.limit,
            default: PROMOTE_DEFAULTS.limit,
            description: `Max sightings to take in, oldest first; 1 to ${PROMOTE_MAX.limit}, default ${PROMOTE_DEFAULTS.limit}`,
          }),
        ),
        maxValidations: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: PROMOTE_MAX.maxValidations,
            default: PROMOTE_DEFAULTS.maxValidations,
            description:
              `Max candidate validations in this run; 1 to ${PROMOTE_MAX.maxValidations}, default ` +
              `${PROMOTE_DEFAULTS.maxValidations}`,
          }),
        ),
        maxOnboards: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: PROMOTE_MAX.maxValidations,
            deprecated: true,
            description: 'Legacy alias of maxValidations; when both are given they must be equal',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'Optional: no body (or an empty one) means the defaults' },
);

const Accepted = dataOf(
  Type.Object({
    workflowId: WorkflowIdField,
    args: Type.Object(
      { limit: Type.Integer(), maxValidations: Type.Integer() },
      {
        description:
          'The arguments of the run this request started (defaults filled in, alias resolved), or of the run it ' +
          'joined when merged is true',
      },
    ),
    merged: Type.Boolean({
      description:
        'true when a run was already enqueued or running: this request joined it, keeping its arguments',
    }),
    status: Enqueued,
  }),
);

function positive(body: Record<string, unknown>, field: string, max: number): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw badRequest(`Invalid field '${field}': must be an integer`);
  if (v < 1 || v > max) throw badRequest(`Invalid field '${field}': must be between 1 and ${max}, got ${v}`);
  return v;
}

/** Body -> effective arguments. Strict: "10" or true are not integers here, unknown fields are refused. */
export function promoteArgs(body: unknown): RunArgs {
  if (body === undefined || body === null) return { ...PROMOTE_DEFAULTS };
  if (typeof body !== 'object' || Array.isArray(body))
    throw badRequest('Malformed body: expected a JSON object');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !['limit', 'maxValidations', 'maxOnboards'].includes(k));
  if (unknown) throw badRequest(`Unknown field '${unknown}'; expected limit and maxValidations`);
  const limit = positive(b, 'limit', PROMOTE_MAX.limit);
  const maxValidations = positive(b, 'maxValidations', PROMOTE_MAX.maxValidations);
  const maxOnboards = positive(b, 'maxOnboards', PROMOTE_MAX.maxValidations);
  if (maxValidations !== undefined && maxOnboards !== undefined && maxValidations !== maxOnboards) {
    throw badRequest(
      `Conflicting fields: 'maxOnboards' (${maxOnboards}) is a legacy alias of 'maxValidations' ` +
        `(${maxValidations}); send only maxValidations`,
    );
  }
  return {
    limit: limit ?? PROMOTE_DEFAULTS.limit,
    maxValidations: maxValidations ?? maxOnboards ?? PROMOTE_DEFAULTS.maxValidations,
  };
}

/**
 * POST /promote_and_onboard: enqueues discovery processing. Every trigger shares one dedup key, so
 * concurrent triggers get the same workflowId while a run is enqueued or running; that run keeps the arguments
 * it was started with, and a trigger that joined it is told so (merged) with those arguments.
 */
export async function promoteRoute(app: App, engine: () => WorkflowEngine): Promise<void> {
  await app.register(async (scope) => {
    // The body is optional: an empty body sent with Content-Type: application/json means "defaults" here,
    // where Fastify's parser would refuse it.
    const json = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
      return json(request, String(body), done);
    });
    scope.post(
      '/promote_and_onboard',
      {
        config: { access: 'token' },
        // Documented by the schema; checked by promoteArgs so that "10" or true are not silently coerced.
        validatorCompiler: () => () => true,
        schema: {
          operationId: 'promoteAndOnboard',
          tags: ['pipeline'],
          summary: 'Process discovery: sightings -> candidates -> validation -> onboarding (durable, 202)',
          description:
            `Defaults: limit ${PROMOTE_DEFAULTS.limit}, maxValidations ${PROMOTE_DEFAULTS.maxValidations}. ` +
            'maxOnboards is a legacy alias of maxValidations (400 when both are given and differ). Poll ' +
            'GET /api/v1/workflows/{workflowId}: its result counts each stage.',
          security: [{ bearer: [] }],
          body: Body,
          response: { 202: Accepted, ...errorResponses(400, 401, 403, 415) },
        },
      },
      async (request, reply) => {
        const asked = promoteArgs(request.body as unknown);
        const run = await engine().enqueue(PROMOTE_WORKFLOW, { ...asked, runId: randomUUID() });
        const { limit, maxValidations } = run.payload as RunArgs;
        const data = { workflowId: run.workflowId, args: { limit, maxValidations }, merged: run.merged };
        return reply.status(202).send({ data: { ...data, status: 'enqueued' as const } });
      },
    );
  });
}
