import { OutboundError, type OutboundResponse } from '../../net/types.js';
import type { StepRunner } from '../../pipeline/engine/types.js';
import type { Processor } from '../dossier.js';
import { type GatheredPages, type GatherOptions, gatherPages } from '../evidence.js';
import { dossierOutputSchema, normalizeFacts } from '../output.js';
import { factsReport } from '../report-facts.js';
import {
  type DossierFacts,
  type HiringEvidence,
  type ProviderResult,
  ResearchError,
  type ResearchProvider,
  type ResearchRequest,
} from '../types.js';
import { ownSummary } from './local.js';

/**
 * An OpenAI-compatible chat model (OpenAI, Ollama, vLLM, llama.cpp; the OpenAI API reference) over evidence the
 * service gathered itself: the company's pages and our job data. The model is told to use only that evidence,
 * and its answer is checked against it: people and a founding year that appear nowhere in the evidence are
 * dropped as unsupported.
 */

export interface LlmProviderOptions extends GatherOptions {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  now: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Evidence characters sent per mode (defaults: full 24000, fast 8000), within small models' context. */
  promptChars?: { full: number; fast: number };
  /** One completion's budget, ms (default 120000: a CPU-hosted model writes a long report slowly). */
  timeoutMs?: number;
  /** Attempts on 429/5xx/network errors, first included (default 3). */
  attempts?: number;
  backoffMs?: number;
}

const SYSTEM = [
  'You are a company research analyst. Build a research dossier about the company from the EVIDENCE only:',
  "pages of the company's own website and its job postings. If a fact is not stated in the evidence, use null",
  '(or an empty list). Never guess names, years, amounts or headcounts. Reply with JSON matching the schema;',
  'markdownReport is a full report in Markdown that says which facts could not be established.',
].join(' ');

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function buildPrompt(
  req: ResearchRequest,
  gathered: GatheredPages,
  hiring: HiringEvidence,
  budget: number,
): string {
  const { subject } = req;
  const header = [
    `Company: ${subject.name}`,
    `Domain: ${subject.domain}`,
    subject.oneLiner ? `Catalog one-liner: ${subject.oneLiner}` : '',
    `Job data: ${hiring.profile.activeJobs} active postings, ${hiring.profile.clientFacingJobs} client-facing; ` +
      `categories ${hiring.profile.topCategories.map((c) => `${c.category}=${c.count}`).join(', ') || 'none'}; ` +
      `locations ${hiring.profile.locations.join('; ') || 'none'}.`,
    hiring.titles.length ? `Recent job titles: ${hiring.titles.join('; ')}` : '',
    '',
    'EVIDENCE:',
  ]
    .filter((l) => l !== '')
    .join('\n');
  // Each page gets an equal share of the budget so a long homepage cannot crowd out the team page.
  const share = Math.max(500, Math.floor((budget - header.length) / Math.max(1, gathered.pages.length)));
  const pages = gathered.pages.map(
    (p) => `--- ${p.url} (${p.kind}) ${p.title ?? ''}\n${p.text.slice(0, share)}`,
  );
  return `${header}\n${pages.join('\n')}`.slice(0, budget + 2_000);
}

/** Removes what the evidence does not support: a model that ignores the instruction cannot invent people. */
export function groundFacts(facts: DossierFacts, evidence: string): DossierFacts {
  const hay = evidence.toLowerCase();
  const stated = (name: string) => hay.includes(name.toLowerCase());
  return {
    ...facts,
    founders: facts.founders.filter((f) => stated(f.name)),
    leadership: facts.leadership.filter((l) => stated(l.name)),
    foundedYear:
      facts.foundedYear !== null && hay.includes(String(facts.foundedYear)) ? facts.foundedYear : null,
  };
}

export class LlmProvider implements ResearchProvider {
  readonly name = 'llm' as const;
  readonly processors: readonly Processor[] = ['lite', 'base'];
  readonly steps = ['gather-evidence', 'llm-compose'] as const;
  private readonly url: string;

  constructor(private readonly opts: LlmProviderOptions) {
    const base = opts.baseUrl.replace(/\/+$/, '');
    this.url = base.endsWith('/v1') ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
  }

  async research(req: ResearchRequest, hiring: HiringEvidence, step: StepRunner): Promise<ProviderResult> {
    const gathered = await step('gather-evidence', () => gatherPages(req.subject, req.mode, this.opts));
    const budget = (this.opts.promptChars ?? { full: 24_000, fast: 8_000 })[req.mode];
    const prompt = buildPrompt(req, gathered, hiring, budget);
    const answer = await step('llm-compose', () => this.complete(prompt));
    const nowYear = new Date(this.opts.now()).getUTCFullYear();
    const facts = groundFacts(normalizeFacts(answer, nowYear, null), prompt);
    facts.sources = gathered.pages.map((p) => ({ url: p.url, title: p.title }));
    if (!facts.summary) facts.summary = ownSummary(req.subject, gathered.pages);
    if (!facts.markdownReport)
      facts.markdownReport = factsReport(req.subject, facts, `the ${this.opts.model} model`);
    return { facts, costUsd: null, providerProcessor: null, providerRunId: null };
  }

  /** One chat completion with a JSON schema; returns the parsed JSON object the model produced. */
  async complete(prompt: string): Promise<unknown> {
    const body = JSON.stringify({
      model: this.opts.model,
      temperature: 0,
      max_tokens: 4_000,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: prompt },
      ],
      // The nested OpenAI form: llama.cpp ignores the flat one (the OpenAI API reference).
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'company_dossier', strict: true, schema: dossierOutputSchema(true) },
      },
    });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    const attempts = this.opts.attempts ?? 3;
    const sleep = this.opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
    for (let attempt = 1; ; attempt++) {
      let res: OutboundResponse | null = null;
      let failure: string;
      let hinted: number | null = null;
      try {
        res = await this.opts.http.request(this.url, {
          method: 'POST',
          kind: 'api',
          headers,
          body,
          retry: false,
          timeoutMs: this.opts.timeoutMs ?? 120_000,
        });
        if (res.status === 200) return this.parse(res);
        failure = `HTTP ${res.status}`;
        hinted = /^\d+$/.test(res.headers['retry-after'] ?? '')
          ? Number(res.headers['retry-after']) * 1000
          : null;
        if (res.status !== 429 && res.status < 500) {
          throw new ResearchError(`LLM: the model endpoint refused the request (${failure})`, false);
        }
      } catch (err) {
        if (err instanceof ResearchError) throw err;
        if (!(err instanceof OutboundError) || !err.retryable) {
          throw new ResearchError(`LLM: request failed: ${(err as Error).message}`, false);
        }
        failure = err.message;
      }
      if (attempt >= attempts)
        throw new ResearchError(`LLM: gave up after ${attempts} attempts (${failure})`, true);
      await sleep(Math.min(30_000, hinted ?? (this.opts.backoffMs ?? 1_000) * 2 ** (attempt - 1)));
    }
  }

  private parse(res: OutboundResponse): unknown {
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      throw new ResearchError('LLM: the completion is not JSON', false);
    }
    const choice =
      isObj(body) && Array.isArray(body.choices) && isObj(body.choices[0]) ? body.choices[0] : null;
    const message = choice && isObj(choice.message) ? choice.message : null;
    if (message && typeof message.refusal === 'string' && message.refusal) {
      throw new ResearchError(`LLM: the model refused: ${message.refusal.slice(0, 200)}`, false);
    }
    if (choice?.finish_reason === 'length')
      throw new ResearchError('LLM: the answer was cut off (max_tokens)', false);
    const content = message?.content;
    if (typeof content !== 'string')
      throw new ResearchError('LLM: the completion has no message content', false);
    try {
      // Some servers wrap JSON in a Markdown fence despite the schema.
      return JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
    } catch {
      // At temperature 0 the same prompt would give the same answer: not worth a retry.
      throw new ResearchError('LLM: the model did not return valid JSON', false);
    }
  }
}
