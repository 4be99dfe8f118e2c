import { type HttpClient, OutboundError, type OutboundResponse } from '../../net/types.js';
import type { StepRunner } from '../../pipeline/engine/types.js';
import { PROCESSORS, type Processor, type ResearchMode, type Source } from '../dossier.js';
import { dossierOutputSchema, normalizeFacts } from '../output.js';
import { factsReport } from '../report-facts.js';
import {
  type HiringEvidence,
  type ProviderResult,
  ResearchError,
  type ResearchProvider,
  type ResearchRequest,
} from '../types.js';

/**
 * Parallel Task API (the Parallel Task API reference): create a run (202, queued), then wait on the blocking result endpoint,
 * calling again on 408 (still running) and on 429/5xx after a backoff, until a deadline sized per processor.
 * The create and the wait are separate workflow steps, so a resumed workflow waits on the run it already paid
 * for instead of creating a second one.
 */

export const PARALLEL_BASE_URL = 'https://api.parallel.ai';

/** USD per run (Parallel's published pricing as of 2026-05-02); -fast variants cost the same. */
export const PARALLEL_PRICE_USD: Record<Processor, number> = {
  lite: 0.005,
  base: 0.01,
  core: 0.025,
  core2x: 0.05,
  pro: 0.1,
  ultra: 0.3,
};

/** Wait budget per processor, ms: the documented worst-case latency plus headroom. */
export const PARALLEL_DEADLINE_MS: Record<Processor, number> = {
  lite: 3 * 60_000,
  base: 5 * 60_000,
  core: 10 * 60_000,
  core2x: 15 * 60_000,
  pro: 20 * 60_000,
  ultra: 45 * 60_000,
};

export interface ParallelOptions {
  http: HttpClient;
  apiKey: string;
  /** Default https://api.parallel.ai (tests point OUTBOUND_HOST_MAP at a fake instead). */
  baseUrl?: string;
  now: () => number;
  /** Injected so tests never wait on the wall clock. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Seconds each result call asks the server to hold (default 8): below the outbound client's 10 s wait for
   * response headers, so a held call ends as a clean 408 rather than a client-side timeout.
   */
  holdSeconds?: number;
  /** Overrides of PARALLEL_DEADLINE_MS, ms. */
  deadlines?: Partial<Record<Processor, number>>;
  /** Attempts at creating a run on 429/5xx, first included (default 4). */
  createAttempts?: number;
  /** First backoff after 429/5xx, ms, doubled per attempt up to 30 s (default 2000). */
  backoffMs?: number;
}

export const parallelProcessor = (processor: Processor, mode: ResearchMode): string =>
  mode === 'fast' ? `${processor}-fast` : processor;

interface CreatedRun {
  runId: string;
  processor: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function vendorMessage(res: OutboundResponse): string {
  try {
    const body = JSON.parse(res.body) as unknown;
    const err = isObj(body) && isObj(body.error) ? body.error : isObj(body) ? body : {};
    const msg = err.message ?? err.detail;
    if (typeof msg === 'string' && msg) return msg.slice(0, 300);
  } catch {
    // Not JSON.
  }
  return `HTTP ${res.status}`;
}

function retryAfterMs(res: OutboundResponse): number | null {
  const v = res.headers['retry-after'];
  return v && /^\d+$/.test(v.trim()) ? Number(v.trim()) * 1000 : null;
}

export class ParallelProvider implements ResearchProvider {
  readonly name = 'parallel' as const;
  readonly processors = PROCESSORS;
  readonly steps = ['parallel-create', 'parallel-result'] as const;
  private readonly base: string;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: ParallelOptions) {
    this.base = (opts.baseUrl ?? PARALLEL_BASE_URL).replace(/\/+$/, '');
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  async research(req: ResearchRequest, _hiring: HiringEvidence, step: StepRunner): Promise<ProviderResult> {
    const created = await step('parallel-create', () => this.create(req));
    const output = await step('parallel-result', () => this.waitForResult(created.runId, req.processor));
    const nowYear = new Date(this.opts.now()).getUTCFullYear();
    const content = output.type === 'text' ? {} : output.content;
    const report = output.type === 'text' && typeof output.content === 'string' ? output.content : null;
    const facts = normalizeFacts(content, nowYear, report);
    facts.sources = output.sources;
    if (!facts.summary)
      facts.summary = req.subject.oneLiner || `${req.subject.name} (${req.subject.domain}).`;
    if (!facts.markdownReport) facts.markdownReport = factsReport(req.subject, facts, 'Parallel Task API');
    return {
      facts,
      costUsd: PARALLEL_PRICE_USD[req.processor],
      providerProcessor: created.processor,
      providerRunId: created.runId,
    };
  }

  private headers(): Record<string, string> {
    return { 'x-api-key': this.opts.apiKey, 'content-type': 'application/json', accept: 'application/json' };
  }

  private backoff(attempt: number): number {
    return Math.min(30_000, (this.opts.backoffMs ?? 2_000) * 2 ** (attempt - 1));
  }

  async create(req: ResearchRequest): Promise<CreatedRun> {
    const processor = parallelProcessor(req.processor, req.mode);
    const { subject } = req;
    const body = JSON.stringify({
      input: {
        company_name: subject.name,
        domain: subject.domain,
        website: subject.website ?? `https://${subject.domain}`,
        description: (subject.description ?? subject.oneLiner).slice(0, 2000),
      },
      processor,
      task_spec: { output_schema: { type: 'json', json_schema: dossierOutputSchema(true) } },
      metadata: { company_id: subject.companyId.slice(0, 500) },
    });
    const attempts = this.opts.createAttempts ?? 4;
    for (let attempt = 1; ; attempt++) {
      let res: OutboundResponse;
      try {
        res = await this.opts.http.request(`${this.base}/v1/tasks/runs`, {
          method: 'POST',
          kind: 'api',
          headers: this.headers(),
          body,
          retry: false,
          timeoutMs: 30_000,
        });
      } catch (err) {
        if (err instanceof OutboundError && err.retryable && attempt < attempts) {
          await this.sleep(this.backoff(attempt));
          continue;
        }
        throw new ResearchError(`Parallel: could not create a run: ${(err as Error).message}`, true);
      }
      if (res.status === 200 || res.status === 201 || res.status === 202) {
        const run = JSON.parse(res.body) as unknown;
        if (!isObj(run) || typeof run.run_id !== 'string') {
          throw new ResearchError('Parallel: create answered without a run_id', false);
        }
        return {
          runId: run.run_id,
          processor: typeof run.processor === 'string' ? run.processor : processor,
        };
      }
      if ((res.status === 429 || res.status >= 500) && attempt < attempts) {
        await this.sleep(retryAfterMs(res) ?? this.backoff(attempt));
        continue;
      }
      const what =
        res.status === 402
          ? 'insufficient credit'
          : res.status === 401
            ? 'the API key was rejected'
            : res.status === 429
              ? 'rate limited'
              : vendorMessage(res);
      throw new ResearchError(
        `Parallel: creating a ${processor} run failed (${res.status}): ${what}`,
        res.status === 429 || res.status >= 500,
      );
    }
  }

  async waitForResult(
    runId: string,
    processor: Processor,
  ): Promise<{ type: string; content: unknown; sources: Source[] }> {
    const deadline = this.opts.now() + (this.opts.deadlines?.[processor] ?? PARALLEL_DEADLINE_MS[processor]);
    const hold = this.opts.holdSeconds ?? 8;
    const url = `${this.base}/v1/tasks/runs/${encodeURIComponent(runId)}`;
    for (let attempt = 1; ; attempt++) {
      if (this.opts.now() >= deadline) {
        throw new ResearchError(
          `Parallel: run ${runId} did not finish within the ${processor} deadline`,
          false,
        );
      }
      let res: OutboundResponse;
      try {
        res = await this.opts.http.request(`${url}/result?timeout=${hold}`, {
          kind: 'api',
          headers: this.headers(),
          retry: false,
          timeoutMs: (hold + 10) * 1000,
        });
      } catch (err) {
        if (err instanceof OutboundError && err.retryable) {
          await this.sleep(this.backoff(Math.min(attempt, 5)));
          continue;
        }
        throw new ResearchError(
          `Parallel: waiting for run ${runId} failed: ${(err as Error).message}`,
          false,
        );
      }
      if (res.status === 200) return this.readResult(res, runId);
      if (res.status === 408) continue; // still running: ask again at once
      if (
        res.status === 429 ||
        res.status === 500 ||
        res.status === 502 ||
        res.status === 503 ||
        res.status === 504
      ) {
        await this.sleep(retryAfterMs(res) ?? this.backoff(Math.min(attempt, 5)));
        continue;
      }
      if (res.status === 404)
        throw new ResearchError(`Parallel: run ${runId} failed: ${await this.failure(url)}`, false);
      throw new ResearchError(
        `Parallel: result of run ${runId} answered ${res.status}: ${vendorMessage(res)}`,
        false,
      );
    }
  }

  /** The failed run's error message, read from the status endpoint (the result endpoint only says 404). */
  private async failure(url: string): Promise<string> {
    try {
      const res = await this.opts.http.request(url, {
        kind: 'api',
        headers: this.headers(),
        timeoutMs: 15_000,
      });
      const run = JSON.parse(res.body) as unknown;
      if (res.status === 404) return 'unknown run id';
      const error = isObj(run) ? run.error : undefined;
      const message = isObj(error) ? (error.message ?? error.detail) : error;
      const status = isObj(run) && typeof run.status === 'string' ? run.status : 'failed';
      return typeof message === 'string' && message ? `${status}: ${message.slice(0, 300)}` : status;
    } catch {
      return 'run failed (status unavailable)';
    }
  }

  private readResult(
    res: OutboundResponse,
    runId: string,
  ): { type: string; content: unknown; sources: Source[] } {
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      throw new ResearchError(`Parallel: result of run ${runId} is not JSON`, false);
    }
    const output = isObj(body) && isObj(body.output) ? body.output : null;
    if (!output) throw new ResearchError(`Parallel: result of run ${runId} has no output`, false);
    // Citations of every field become the dossier's sources, each URL once.
    const sources = new Map<string, Source>();
    for (const basis of Array.isArray(output.basis) ? output.basis : []) {
      for (const c of isObj(basis) && Array.isArray(basis.citations) ? basis.citations : []) {
        if (isObj(c) && typeof c.url === 'string' && /^https?:\/\//.test(c.url) && !sources.has(c.url)) {
          sources.set(c.url, { url: c.url, title: typeof c.title === 'string' ? c.title : null });
        }
      }
    }
    let content = output.content;
    if (output.type === 'json' && typeof content === 'string') {
      try {
        content = JSON.parse(content);
      } catch {
        throw new ResearchError(`Parallel: run ${runId} returned malformed JSON content`, false);
      }
    }
    return {
      type: typeof output.type === 'string' ? output.type : 'json',
      content,
      sources: [...sources.values()].slice(0, 100),
    };
  }
}
