import { join } from 'node:path';
import type { Config } from '../../config.js';
import { createOutboundClient, endpointClientOptions } from '../../net/client.js';
import type { OutboundConfig } from '../../net/client-options.js';
import { OpenAiEmbedder } from './openai.js';
import { LazyStaticEmbedder, type VectorBuildListener } from './static.js';
import type { Embedder } from './types.js';

/** The configuration an embedder is made from: its provider and what the outbound client reads. */
export type EmbedderConfig = Pick<Config, 'embeddings' | 'dataDir'> & OutboundConfig;

/**
 * The embedder chosen by EMBEDDINGS: `static` (bundled, offline, default) or `openai` (a compatible endpoint,
 * reached through the guarded outbound client). `listener` hears about the static model's one-off cache build
 * (the server logs it); `onOutcome` is told the outcome of every embeddings request (metrics).
 */
export function createEmbedder(
  config: EmbedderConfig,
  listener?: VectorBuildListener,
  onOutcome?: (host: string, outcome: string) => void,
): Embedder {
  const e = config.embeddings;
  switch (e.provider) {
    case 'static':
      return new LazyStaticEmbedder(join(config.dataDir, 'cache'), listener);
    case 'openai':
      // parseConfig guarantees the base URL for this provider.
      return new OpenAiEmbedder({
        http: createOutboundClient(endpointClientOptions(config, e.baseUrl!, onOutcome)),
        baseUrl: e.baseUrl!,
        model: e.model ?? 'text-embedding-3-small',
        apiKey: e.apiKey,
      });
  }
}
