import { LRUCache } from 'lru-cache';
import type { Embedder } from './embedders/types.js';

/** Query embeddings kept by lower-cased text (the QUERY_CACHE_SIZE most recently used); a failed embedding is undefined. */
const QUERY_CACHE_SIZE = 512;

export class QueryVectors {
  private readonly kept = new LRUCache<string, Float32Array>({ max: QUERY_CACHE_SIZE });

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
      this.kept.set(key, v);
      return v;
    } catch (err) {
      this.onError?.(err);
      return undefined;
    }
  }
}
