import { Type } from 'typebox';
import type { WatchService } from '../../../watches/service.js';
import { dataOf, errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { WatchIdParams } from './schemas.js';

/** DELETE /watches/:id and POST /watches/:id/test. */
export function changeWatchRoutes(app: App, watches: WatchService): void {
  const common = { tags: ['watches'], security: [{ bearer: [] }], params: WatchIdParams };
  app.delete(
    '/watches/:id',
    {
      config: { access: 'token' },
      schema: {
        ...common,
        operationId: 'deleteWatch',
        summary: 'Delete a watch (deliveries under way stop at their next attempt)',
        response: {
          200: dataOf(Type.Object({ id: Type.String(), deleted: Type.Literal(true) })),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      await watches.remove(request.caller.tokenId ?? '', id);
      return { data: { id, deleted: true as const } };
    },
  );
  app.post(
    '/watches/:id/test',
    {
      config: { access: 'token' },
      schema: {
        ...common,
        operationId: 'testWatch',
        summary: 'Send a signed watch.test message to the webhook',
        response: {
          202: dataOf(Type.Object({ deliveryId: Type.String(), status: Type.Literal('pending') })),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const { deliveryId } = await watches.test(request.caller.tokenId ?? '', id);
      return reply.code(202).send({ data: { deliveryId, status: 'pending' as const } });
    },
  );
}
