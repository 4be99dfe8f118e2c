import { type HttpClient, OutboundError, type OutboundResponse } from '../../net/types.js';
import { type Embedder, normalize } from './types.js';

/**
 * An OpenAI-compatible `POST {base}/v1/embeddings` client (OpenAI, Ollama, vLLM, llama.cpp, TEI).
 *
 * Requests go through the guarded outbound client as documented API calls (`kind: 'api'`); the endpoint is
 * operator-configured (EMBEDDINGS_BASE_URL), so createEmbedder gives it an endpoint client (src/net/client-options.ts)
 * that may reach a local server. Batches are capped at `maxBatch` inputs; 429 and 5xx
 * answers and network errors are retried with exponential backoff (Retry-After honoured); other 4xx fail at
 * once because repeating them cannot help. The dimension is learned from the first answer and every later
 * vector must match it.
 */
export interface OpenAiEmbedderOptions {
  /** The guarded outbound client the requests go through. */
  http: HttpClient;
  /** Base URL, with or without a trailing `/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  /** Inputs per request (default 128). */
  maxBatch?: number;
  /** Attempts per batch including the first (default 5). */
  maxAttempts?: number;
  /** First backoff in ms, doubled per retry (default 500). */
  backoffMs?: number;
  /** Per-request timeout in ms (default 30000): embedding a batch on a CPU-only server can take seconds. */
  timeoutMs?: number;
  /** Sleep function; tests inject an instant one instead of waiting on the wall clock. */
  sleep?: (ms: number) => Promise<void>;
}

export class EmbeddingError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'EmbeddingError';
  }
}

const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

interface EmbeddingsResponse {
  data?: { index?: number; embedding?: unknown }[];
}

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly maxBatch: number;
  private dims: number | undefined;
  private readonly url: string;

  constructor(private readonly opts: OpenAiEmbedderOptions) {
    this.id = `openai:${opts.model}`;
    this.maxBatch = opts.maxBatch ?? 128;
    const base = opts.baseUrl.replace(/\/+$/, '');
    this.url = base.endsWith('/v1') ? `${base}/embeddings` : `${base}/v1/embeddings`;
  }

  get dimension(): number | undefined {
    return this.dims;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.maxBatch) {
      // Servers reject empty inputs (400); a single space embeds as "nothing" without failing the batch.
      const batch = texts.slice(i, i + this.maxBatch).map((t) => (t.trim() === '' ? ' ' : t));
      out.push(...(await this.withRetry(batch)));
    }
    return out;
  }

  private async withRetry(batch: string[]): Promise<Float32Array[]> {
    const attempts = this.opts.maxAttempts ?? 5;
    const sleep = this.opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    let delay = this.opts.backoffMs ?? 500;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.request(batch);
      } catch (err) {
        const retryable = err instanceof EmbeddingError ? err.retryable : true;
        if (!retryable || attempt >= attempts) throw err;
        const hinted = err instanceof RetryAfter ? err.ms : 0;
        await sleep(Math.max(delay, hinted));
        delay *= 2;
      }
    }
  }

  private async request(batch: string[]): Promise<Float32Array[]> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    let res: OutboundResponse;
    try {
      res = await this.opts.http.request(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.opts.model, input: batch, encoding_format: 'float' }),
        kind: 'api',
        // A batch of 128 vectors of 3,072 floats is several MB of JSON; the retries are this embedder's own.
        maxBytes: MAX_RESPONSE_BYTES,
        timeoutMs: this.opts.timeoutMs ?? 30_000,
        retry: false,
      });
    } catch (err) {
      const retryable = err instanceof OutboundError ? err.retryable : true;
      throw new EmbeddingError(`embeddings request failed: ${(err as Error).message}`, retryable);
    }
    if (res.status === 429 || res.status >= 500) {
      const after = Number(res.headers['retry-after']);
      const message = `embeddings endpoint answered ${res.status}`;
      throw Number.isFinite(after) && after > 0
        ? new RetryAfter(message, after * 1000)
        : new EmbeddingError(message, true);
    }
    if (res.status < 200 || res.status >= 300) {
      // The body may echo the request; only its first bytes go into the error, never the API key.
      throw new EmbeddingError(
        `embeddings endpoint answered ${res.status}: ${res.body.slice(0, 300)}`,
        false,
      );
    }
    let body: EmbeddingsResponse;
    try {
      body = JSON.parse(res.body) as EmbeddingsResponse;
    } catch {
      throw new EmbeddingError('embeddings response is not JSON', false);
    }
    return this.parse(body, batch.length);
  }

  private parse(body: EmbeddingsResponse, expected: number): Float32Array[] {
    const data = body.data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new EmbeddingError(
        `embeddings response has ${data?.length ?? 'no'} items for ${expected} inputs`,
        false,
      );
    }
    const out = new Array<Float32Array>(expected);
    for (const [pos, item] of data.entries()) {
      const index = typeof item.index === 'number' ? item.index : pos;
      const e = item.embedding;
      if (
        !Array.isArray(e) ||
        e.length === 0 ||
        !e.every((x) => typeof x === 'number' && Number.isFinite(x))
      ) {
        throw new EmbeddingError('embeddings response item is not an array of numbers', false);
      }
      if (index < 0 || index >= expected || out[index]) {
        throw new EmbeddingError(`embeddings response has a bad or repeated index ${index}`, false);
      }
      this.dims ??= e.length;
      if (e.length !== this.dims) {
        throw new EmbeddingError(`embedding has ${e.length} dimensions, expected ${this.dims}`, false);
      }
      out[index] = normalize(Float32Array.from(e as number[]));
    }
    return out;
  }
}

class RetryAfter extends EmbeddingError {
  constructor(
    message: string,
    readonly ms: number,
  ) {
    super(message, true);
  }
}
