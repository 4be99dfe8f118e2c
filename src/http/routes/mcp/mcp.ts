import { randomBytes } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { InjectApi } from '../../../mcp/api.js';
import type { OpenApiDocument } from '../../../mcp/input-schemas.js';
import { createMcpServer } from '../../../mcp/server.js';
import type { Metrics } from '../../../metrics.js';
import type { Guard } from '../../limits/guard.js';
import { errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';

/** One JSON-RPC 2.0 message, or a batch: the transport reads the rest. */
const JsonRpcMessage = Type.Union(
  [
    Type.Object({ jsonrpc: Type.Literal('2.0') }, { additionalProperties: true }),
    Type.Array(Type.Object({ jsonrpc: Type.Literal('2.0') }, { additionalProperties: true }), {
      minItems: 1,
    }),
  ],
  {
    description:
      'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, …)',
  },
);

const JsonRpcResponse = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(
      Type.Object({ code: Type.Integer(), message: Type.String() }, { additionalProperties: true }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Marks the API calls a tool makes on behalf of an MCP request. The MCP request itself was counted by the guard
 * (one MCP message is one request of the caller's limit); its tool's calls carry this header with a secret drawn
 * at start, which nobody outside the process can present, and are not counted again.
 */
export const INTERNAL_CALL_HEADER = 'x-frontline-internal-call';

export function internalCallSecret(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (each POST carries its JSON-RPC message
 * and is answered with JSON). Other methods answer 405, as the transport allows a server that keeps no
 * sessions to stream from. The caller's tier decides which tools are listed; every tool call goes through the public API.
 */
export function mcpRoute(
  app: App,
  root: FastifyInstance,
  metrics: Metrics,
  secret: string,
  charge: Guard['charge'],
): void {
  app.route({
    method: 'POST',
    url: '/mcp',
    config: { access: 'public' },
    schema: {
      tags: ['agents'],
      operationId: 'postMcp',
      summary: 'Model Context Protocol endpoint (Streamable HTTP, stateless)',
      description:
        'JSON-RPC 2.0 messages of the Model Context Protocol, one per POST (Accept: application/json, ' +
        'text/event-stream). Anonymous callers get the read tools; a bearer token adds get_dossier, ' +
        'onboard_company and workflow_status. Each message counts as one request against the rate limit, each ' +
        'message of a JSON-RPC batch too (a batch the window has no room for is refused whole with 429). ' +
        'Answers are JSON-RPC messages, not the API envelope (docs/agents.md).',
      body: JsonRpcMessage,
      response: {
        200: {
          description: 'The JSON-RPC response to a request',
          content: { 'application/json': { schema: JsonRpcResponse } },
        },
        202: { description: 'A notification or response was accepted; no body', type: 'null' },
        ...errorResponses(400, 413, 415),
      },
    },
    // The guard counted this POST once; a batch counts each further message before any of them runs.
    preHandler: (request, reply, done) =>
      charge(request, reply, Array.isArray(request.body) ? request.body.length - 1 : 0, done),
    handler: async (request, reply) => {
      // Every answer here is JSON (no streams), so a client that accepts only JSON is served too.
      request.raw.headers.accept = 'application/json, text/event-stream';
      const doc = root.swagger() as unknown as OpenApiDocument & { info: { version: string } };
      const api = new InjectApi(
        root as never,
        { authorization: request.headers.authorization, ip: request.ip },
        { header: INTERNAL_CALL_HEADER, value: secret },
      );
      const server = createMcpServer({
        api,
        tier: request.caller.tier,
        doc,
        version: doc.info.version,
        onCall: (tool, outcome) => metrics.mcpCalls.inc({ tool, outcome }),
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      // The transport writes the answer itself; the headers the guard set (tier, rate limit, CORS, request id)
      // go with it.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string);
      }
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
}
