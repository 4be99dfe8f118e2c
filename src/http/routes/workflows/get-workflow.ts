import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { notFound } from '../../../errors.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';

const Step = Type.Object({
  name: Type.String({ examples: ['scrape:greenhouse/acme'] }),
  status: Type.Union(
    [
      Type.Literal('pending'),
      Type.Literal('running'),
      Type.Literal('succeeded'),
      Type.Literal('skipped'),
      Type.Literal('failed'),
    ],
    { description: 'skipped: the completion marker was set and the run was not forced' },
  ),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  error: Type.Optional(Type.String({ description: 'Why the step failed (after its retries)' })),
});

const Workflow = Type.Object({
  workflowId: Type.String(),
  name: Type.String({ description: 'Catalog name of the workflow', examples: ['onboard'] }),
  status: Type.Union([
    Type.Literal('enqueued'),
    Type.Literal('running'),
    Type.Literal('succeeded'),
    Type.Literal('failed'),
    Type.Literal('cancelled'),
  ]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  steps: Type.Array(Step, {
    description: 'Checkpointed steps in order; while the run is live, the remaining planned steps follow',
  }),
  result: Type.Optional(
    Type.Unknown({ description: "The run's result once succeeded (shape per workflow)" }),
  ),
  error: Type.Optional(Type.String({ description: 'Why the run failed or was cancelled' })),
});

/** GET /workflows/:workflowId: ours beyond the spec, which tracks runs by id but names no endpoint. */
export function getWorkflowRoute(app: App, deps: Deps): void {
  app.get(
    '/workflows/:workflowId',
    {
      config: { access: 'token' },
      schema: {
        operationId: 'getWorkflow',
        tags: ['pipeline'],
        summary: 'Progress and outcome of a pipeline run',
        security: [{ bearer: [] }],
        params: Type.Object({ workflowId: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: dataOf(Workflow), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const view = await deps.pipeline.engine.get(request.params.workflowId);
      if (!view) throw notFound(`No workflow with id ${request.params.workflowId}`);
      return { data: view };
    },
  );
}
