import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { healthRoutes } from './health.js';
import { meRoute } from './me.js';
import { metricsRoute } from './metrics.js';

const OpenApiDocument = Type.Object(
  {
    openapi: Type.String({ examples: ['3.1.0'] }),
    info: Type.Object({}, { additionalProperties: true }),
    paths: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true, description: 'An OpenAPI 3.1 document (this one)' },
);

export async function systemRoutes(app: App, deps: Deps, prefix: string): Promise<void> {
  healthRoutes(app, deps);
  metricsRoute(app, deps);
  await app.register(
    async (api) => {
      meRoute(api);
      api.get(
        '/openapi.json',
        {
          config: { access: 'public' },
          schema: {
            operationId: 'getOpenApiDocument',
            tags: ['system'],
            summary: 'This OpenAPI 3.1 document',
            hide: false,
            response: { 200: OpenApiDocument },
          },
        },
        async () => app.swagger(),
      );
    },
    { prefix },
  );
}
