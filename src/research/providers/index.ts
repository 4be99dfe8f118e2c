import type { Config } from '../../config.js';
import type { HttpClient } from '../../net/types.js';
import type { ResearchProvider } from '../types.js';
import { LlmProvider } from './llm.js';
import { LocalProvider } from './local.js';
import { ParallelProvider } from './parallel.js';

export interface ProviderDeps {
  http: HttpClient;
  now: () => number;
  /** Injected by tests so backoffs never wait on the wall clock. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * One provider per process, chosen by configuration: PARALLEL_API_KEY selects the Parallel Task API;
 * otherwise LLM_BASE_URL (with LLM_MODEL) selects the OpenAI-compatible model; otherwise the local composer.
 */
export function createResearchProvider(config: Config, deps: ProviderDeps): ResearchProvider {
  const sleep = deps.sleep ? { sleep: deps.sleep } : {};
  if (config.parallelApiKey) {
    return new ParallelProvider({ http: deps.http, apiKey: config.parallelApiKey, now: deps.now, ...sleep });
  }
  if (config.llm.baseUrl) {
    return new LlmProvider({
      http: deps.http,
      baseUrl: config.llm.baseUrl,
      model: config.llm.model ?? 'default',
      apiKey: config.llm.apiKey,
      now: deps.now,
      ...sleep,
    });
  }
  return new LocalProvider({ http: deps.http, now: deps.now });
}
