import type { Embedder } from './embedders/types.js';

/** Query embeddings kept by lower-cased text (the most recent QUERY_CACHE_SIZE); a failed embedding is undefined. */
const QUERY_CACHE_SIZE = 512;

export class QueryVectors {
  private readonly kept = new Map<string, Float32Array>();

  constructor(
    private readonly embedder: Embedder,
    private readonly onError?: (err: unknown) => void,
  ) {}

  async of(text: string): Promise<Float32Array | undefined> {
    const key = text.toLowerCase();
    const hit = this.kept.get(key);
    if (hit) return hit;
    try {
      const [v] = await this.embedder.embed([text]);
      if (!v) return undefined;
      if (this.kept.size >= QUERY_CACHE_SIZE) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(key, v);
      return v;
    } catch (err) {
      this.onError?.(err);
      return undefined;
    }
  }
}
