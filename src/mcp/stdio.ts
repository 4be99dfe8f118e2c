import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HttpApi } from './api.js';
import type { OpenApiDocument } from './input-schemas.js';
import { createMcpServer, type Tier } from './server.js';

export interface StdioOptions {
  /** The deployment's base URL, e.g. https://frontline.example.com (the API is under /api/v1). */
  url: string;
  token?: string | undefined;
}

/**
 * `frontline mcp`: an MCP server on stdin/stdout for desktop clients, answering from any deployment over its
 * public API. Standard output carries only the protocol; what goes wrong before the session starts is thrown
 * with a sentence the CLI prints to standard error.
 */
export async function runMcpStdio(opts: StdioOptions): Promise<void> {
  const api = new HttpApi(opts.url, opts.token);
  let docRes: Awaited<ReturnType<HttpApi['request']>>;
  try {
    // Read without the token: the document is public, and a refused token is reported below on its own.
    docRes = await new HttpApi(opts.url).request('GET', '/openapi.json');
  } catch (err) {
    throw new Error(`cannot reach ${opts.url}: ${(err as Error).message}`);
  }
  if (docRes.status !== 200) {
    throw new Error(
      `${opts.url}/api/v1/openapi.json answered ${docRes.status}; is --url a Frontline deployment?`,
    );
  }
  const doc = docRes.body as OpenApiDocument & { info: { version: string } };
  let tier: Tier = 'anonymous';
  if (opts.token) {
    const me = await api.request('GET', '/me');
    if (me.status !== 200)
      throw new Error(`the token was refused (${me.status}); mint one with 'frontline tokens create'`);
    tier = 'token';
  }
  const server = createMcpServer({ api, tier, doc, version: doc.info.version });
  await server.connect(new StdioServerTransport());
}
