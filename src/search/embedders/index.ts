import { join } from 'node:path';
import type { Config } from '../../config.js';
import { OpenAiEmbedder } from './openai.js';
import { LazyStaticEmbedder, type VectorBuildListener } from './static.js';
import type { Embedder } from './types.js';

/**
 * The embedder chosen by EMBEDDINGS: `static` (bundled, offline, default) or `openai` (a compatible endpoint).
 * `listener` hears about the static model's one-off cache build (the server logs it).
 */
export function createEmbedder(
  config: Pick<Config, 'embeddings' | 'dataDir'>,
  listener?: VectorBuildListener,
): Embedder {
  const e = config.embeddings;
  switch (e.provider) {
    case 'static':
      return new LazyStaticEmbedder(join(config.dataDir, 'cache'), listener);
    case 'openai':
      // parseConfig guarantees the base URL for this provider.
      return new OpenAiEmbedder({
        baseUrl: e.baseUrl!,
        model: e.model ?? 'text-embedding-3-small',
        apiKey: e.apiKey,
      });
  }
}
