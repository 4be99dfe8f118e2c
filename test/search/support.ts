import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashedVector } from '../../src/search/embedders/static.js';

/**
 * DATA_DIR for search tests: the word-vector cache lands in <dir>/cache and is shared by every test file and
 * run on this machine, so its one-time build (~10 s, ~1 GB) happens once, not per file.
 */
export const SEARCH_TEST_DATA_DIR = join(tmpdir(), 'frontline-test');
export const SEARCH_TEST_CACHE_DIR = join(SEARCH_TEST_DATA_DIR, 'cache');

export interface FakeEmbeddings {
  url: string;
  /** Every request body received, in order. */
  requests: {
    model: string;
    input: string[];
    authorization: string | undefined;
    userAgent: string | undefined;
  }[];
  /** Statuses to answer instead of embedding, consumed one per request (e.g. [429, 500]). */
  failures: number[];
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An OpenAI-compatible /v1/embeddings server (the OpenAI API reference): deterministic vectors per text (hash ->
 * seeded PRNG -> normalised) of a fixed dimension, 400 for an empty string, items returned in reverse order
 * with their `index` so clients must sort.
 */
export async function startFakeEmbeddings(dims = 8): Promise<FakeEmbeddings> {
  const state: FakeEmbeddings = { url: '', requests: [], failures: [], close: async () => {} };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await body(req);
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const parsed = JSON.parse(text) as { model: string; input: string | string[] };
      const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      state.requests.push({
        model: parsed.model,
        input,
        authorization: req.headers.authorization,
        userAgent: req.headers['user-agent'],
      });
      const failure = state.failures.shift();
      if (failure !== undefined) {
        res.writeHead(failure, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ error: { message: 'try again', type: 'rate_limit' } }));
        return;
      }
      if (input.some((s) => s === '')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: 'input cannot be an empty string', type: 'invalid_request' } }),
        );
        return;
      }
      const data = input
        .map((s, index) => ({ object: 'embedding', index, embedding: Array.from(hashedVector(s, dims)) }))
        .reverse();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data,
          model: parsed.model,
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
