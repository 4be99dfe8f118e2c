import { join } from 'node:path';
import type { Config } from '../../config.js';
import { OpenAiEmbedder } from './openai.js';
import { LazyStaticEmbedder } from './static.js';
import type { Embedder } from './types.js';

/** The embedder chosen by EMBEDDINGS: `static` (bundled, offline, default) or `openai` (a compatible endpoint). */
export function createEmbedder(config: Pick<Config, 'embeddings' | 'dataDir'>): Embedder {
  const e = config.embeddings;
  switch (e.provider) {
    case 'static':
      return new LazyStaticEmbedder(join(config.dataDir, 'cache'));
    case 'openai':
      // parseConfig guarantees the base URL for this provider.
      return new OpenAiEmbedder({
        baseUrl: e.baseUrl!,
        model: e.model ?? 'text-embedding-3-small',
        apiKey: e.apiKey,
      });
  }
}
