import type { Config } from '../config.js';
import type { Db } from '../db/port.js';
import { clientOptionsFromConfig, createOutboundClient, type OutboundClient } from '../net/client.js';
import type { WorkflowDefinition, WorkflowEngine } from '../pipeline/engine/types.js';
import { createResearchProvider } from './providers/index.js';
import { ResearchService } from './service.js';
import type { ResearchProvider } from './types.js';
import { deepResearchWorkflow } from './workflow.js';

/**
 * Deep research as the composition root wires it: the provider chosen by configuration, the workflow definition
 * registered on the pipeline's engine, and (once that engine exists) the service the routes call.
 */

export interface ResearchPartsOptions {
  config: Config;
  db: Db;
  now: () => number;
  /** The wall clock a request's wait for its dossier is measured on (Date.now by default). */
  wallClock?: () => number;
  /** Re-computes search embeddings of the given companies (the search indexer's embedIds). */
  embed: (kind: 'company', ids: readonly string[]) => Promise<void>;
  /** Told every outbound request's host and outcome (metrics). */
  onOutbound?: (host: string, outcome: string) => void;
}

export class ResearchParts {
  readonly provider: ResearchProvider;
  readonly definition: WorkflowDefinition;
  private readonly http: OutboundClient;

  constructor(private readonly opts: ResearchPartsOptions) {
    // Its own guarded client: research fetches company pages and calls the vendor API with its own budgets.
    this.http = createOutboundClient(clientOptionsFromConfig(opts.config, opts.onOutbound));
    this.provider = createResearchProvider(opts.config, { http: this.http, now: opts.now });
    this.definition = deepResearchWorkflow({
      db: opts.db,
      now: opts.now,
      provider: this.provider,
      embed: opts.embed,
    }) as unknown as WorkflowDefinition;
  }

  service(engine: WorkflowEngine): ResearchService {
    return new ResearchService({
      db: this.opts.db,
      engine,
      provider: this.provider,
      waitMs: this.opts.config.deepResearchWaitS * 1000,
      ...(this.opts.wallClock ? { wallClock: this.opts.wallClock } : {}),
    });
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
