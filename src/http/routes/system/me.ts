import { Type } from 'typebox';
import { errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';

const Me = Type.Object({
  data: Type.Object({
    tier: Type.Union([Type.Literal('token'), Type.Literal('anonymous')]),
    tokenName: Type.String({ description: 'Name the token was minted with' }),
    rateLimit: Type.Object({ limit: Type.Integer(), windowSeconds: Type.Integer() }),
  }),
});

/** GET /me: who the token belongs to and what it allows. Token only: a quick way to check a token works. */
export function meRoute(app: App): void {
  app.get(
    '/me',
    {
      config: { access: 'token' },
      schema: {
        operationId: 'getMe',
        tags: ['system'],
        summary: "The calling token's tier, name and limits",
        security: [{ bearer: [] }],
        response: { 200: Me, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({
      data: {
        tier: request.caller.tier,
        tokenName: request.caller.tokenName ?? '',
        rateLimit: {
          limit: request.caller.policy.requestsPerWindow,
          windowSeconds: Math.round(request.caller.policy.windowMs / 1000),
        },
      },
    }),
  );
}
