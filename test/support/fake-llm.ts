/**
 * A fake OpenAI-compatible chat-completions server (the OpenAI API reference) on 127.0.0.1 port 0. Each request
 * is answered by `reply`, which gets the parsed request body; requests are recorded for assertions.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLlmRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export type FakeLlmReply = (req: FakeLlmRequest) => { status?: number; body: unknown };

export interface FakeLlm {
  /** Base URL to use as LLM_BASE_URL (ends in /v1, like Ollama's). */
  baseUrl: string;
  requests: FakeLlmRequest[];
  setReply(reply: FakeLlmReply): void;
  close(): Promise<void>;
}

/** A well-formed completion whose message content is `content` (a JSON string for structured output). */
export function completion(content: string, finishReason = 'stop') {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1735142223,
    model: 'fake-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
    usage: { prompt_tokens: 44, completion_tokens: 48, total_tokens: 92 },
  };
}

export async function startFakeLlm(reply: FakeLlmReply): Promise<FakeLlm> {
  let current = reply;
  const requests: FakeLlmRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"invalid JSON"}}');
        return;
      }
      const r: FakeLlmRequest = { path: req.url ?? '/', headers: req.headers, body };
      requests.push(r);
      if (r.path !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"not found"}}');
        return;
      }
      const out = current(r);
      res.writeHead(out.status ?? 200, { 'content-type': 'application/json' });
      res.end(typeof out.body === 'string' ? out.body : JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setReply(r) {
      current = r;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
