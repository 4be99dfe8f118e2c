import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestApp } from '../support/app.js';

/** Listens on a loopback port so the SDK's client reaches /mcp over real HTTP. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

export async function httpClient(base: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'frontline-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

export type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** The error code and message of a tool error (the API's envelope, as the tool's text). */
export function toolError(result: ToolResult): { code: string; message: string; retryAfterSeconds?: number } {
  if (!result.isError)
    throw new Error(`expected a tool error, got ${JSON.stringify(result.structuredContent)}`);
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('a tool error carries text');
  return (JSON.parse(first.text) as { error: { code: string; message: string } }).error;
}
