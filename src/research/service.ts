import type { Db } from '../db/port.js';
import { badRequest, notFound, UpstreamError } from '../errors.js';
import type { WorkflowEngine, WorkflowState } from '../pipeline/engine/types.js';
import type { Processor, ResearchMode, ResearchRun } from './dossier.js';
import {
  type CompanyRef,
  companyByDomain,
  latestResearch,
  listRuns,
  researchById,
  type StoredResearch,
} from './store.js';
import type { ResearchProvider } from './types.js';
import { DEEP_RESEARCH_WORKFLOW, type ResearchPayload, type ResearchResult } from './workflow.js';

/**
 * What the deep-research routes call. A request enqueues the durable workflow (concurrent requests for the same
 * domain, mode and processor join one run through the engine's dedup key) and waits for it up to `waitMs`:
 * finished in time, the caller gets the dossier; otherwise a workflow handle, and the run completes anyway.
 */

export interface ResearchServiceOptions {
  db: Db;
  engine: WorkflowEngine;
  provider: Pick<ResearchProvider, 'name' | 'processors'>;
  /** How long a request waits for the dossier before answering 202, ms (DEEP_RESEARCH_WAIT_S). */
  waitMs: number;
  /** The wall clock the wait is measured on (default Date.now); tests inject one they can move forward. */
  wallClock?: () => number;
  /** Status polling interval while waiting, ms (default 250). */
  pollMs?: number;
}

export type ResearchOutcome =
  | { kind: 'ready'; company: CompanyRef; mode: ResearchMode; processor: Processor; stored: StoredResearch }
  | { kind: 'pending'; workflowId: string; status: WorkflowState };

const companyRef = (c: CompanyRef): CompanyRef => ({
  id: c.id,
  name: c.name,
  domain: c.domain,
  slug: c.slug,
});

export class ResearchService {
  constructor(private readonly opts: ResearchServiceOptions) {}

  /** The tracked company for a normalized domain, or 404 (new companies go through /onboard). */
  async company(domain: string): Promise<CompanyRef> {
    const company = await companyByDomain(this.opts.db, domain);
    if (!company)
      throw notFound(`No tracked company with domain '${domain}'; add it with POST /onboard first`);
    return companyRef(company);
  }

  async research(domain: string, mode: ResearchMode, processor: Processor): Promise<ResearchOutcome> {
    const { provider } = this.opts;
    if (!provider.processors.includes(processor)) {
      throw badRequest(
        `Invalid field 'processor': '${processor}' needs the Parallel provider (PARALLEL_API_KEY); the configured ` +
          `provider is '${provider.name}', which supports ${provider.processors.join(', ')}`,
      );
    }
    const company = await this.company(domain);
    const payload: ResearchPayload = { companyId: company.id, domain: company.domain, mode, processor };
    const { workflowId } = await this.opts.engine.enqueue(DEEP_RESEARCH_WORKFLOW, payload);
    // Wall-clock wait: this bounds an HTTP request, unlike the catalog clock, which tests may freeze.
    const clock = this.opts.wallClock ?? Date.now;
    const deadline = clock() + this.opts.waitMs;
    const poll = this.opts.pollMs ?? 250;
    for (;;) {
      const view = await this.opts.engine.get(workflowId);
      if (!view) throw new Error(`workflow ${workflowId} vanished`);
      if (view.status === 'succeeded') {
        const id = (view.result as ResearchResult | undefined)?.researchId;
        const stored = id ? await researchById(this.opts.db, id) : undefined;
        if (!stored) throw new Error(`workflow ${workflowId} succeeded without a stored dossier`);
        return { kind: 'ready', company, mode, processor, stored };
      }
      if (view.status === 'failed' || view.status === 'cancelled') {
        // The provider (a vendor, the model, the company's site) failed: a gateway error, not our 500.
        throw new UpstreamError(`Deep research failed: ${view.error ?? view.status}`);
      }
      const left = deadline - clock();
      if (left <= 0) return { kind: 'pending', workflowId, status: view.status };
      await new Promise((resolve) => setTimeout(resolve, Math.min(poll, left)));
    }
  }

  async latest(domain: string): Promise<{ company: CompanyRef; stored: StoredResearch }> {
    const company = await this.company(domain);
    const stored = await latestResearch(this.opts.db, company.id);
    if (!stored) throw notFound(`No research stored for '${domain}'; run POST /deep-research first`);
    return { company, stored };
  }

  async history(domain: string, limit: number): Promise<{ company: CompanyRef; runs: ResearchRun[] }> {
    const company = await this.company(domain);
    return { company, runs: await listRuns(this.opts.db, company.id, limit) };
  }
}
