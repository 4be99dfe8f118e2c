import type { StepRunner } from '../../pipeline/engine/types.js';
import type { Processor } from '../dossier.js';
import { type GatheredPages, type GatherOptions, gatherPages } from '../evidence.js';
import { extractFacts } from '../extract.js';
import { localReport } from '../report.js';
import type {
  DossierFacts,
  EvidencePage,
  HiringEvidence,
  ProviderResult,
  ResearchProvider,
  ResearchRequest,
  ResearchSubject,
} from '../types.js';

/**
 * The offline default: the company's own pages and our job data, read by deterministic rules. No network beyond
 * the company's site, no model, no cost. Honest by construction: facts are extracted, never composed.
 */

export interface LocalProviderOptions extends GatherOptions {
  now: () => number;
}

/** The company's own description: catalog first (enrichment already chose it), then the homepage's meta text. */
export function ownSummary(subject: ResearchSubject, pages: EvidencePage[]): string {
  const home = pages.find((p) => p.kind === 'home');
  const parts = [subject.description, subject.oneLiner, home?.metaDescription].filter(
    (s): s is string => typeof s === 'string' && s.trim().length > 0,
  );
  const best = parts.sort((a, b) => b.length - a.length)[0];
  return best?.trim() ?? `${subject.name} (${subject.domain}).`;
}

export function composeLocal(
  subject: ResearchSubject,
  gathered: GatheredPages,
  hiring: HiringEvidence,
  nowYear: number,
): DossierFacts {
  const x = extractFacts(gathered.pages, nowYear);
  const home = gathered.pages.find((p) => p.kind === 'home');
  const positioning = subject.oneLiner.trim() || home?.metaDescription || null;
  const facts: Omit<DossierFacts, 'markdownReport'> = {
    summary: ownSummary(subject, gathered.pages),
    founders: x.founders.map(({ url: _url, ...f }) => f),
    leadership: x.leadership.map(({ url: _url, ...l }) => l),
    foundedYear: x.foundedYear?.value ?? null,
    employeeCount: x.employeeCount?.value ?? null,
    headquarters: x.headquarters?.value ?? null,
    marketAnalysis: { market: null, positioning, customers: null, trends: null },
    fundingRounds: x.fundingRounds.map(({ url: _url, ...r }) => r),
    competitors: [],
    sources: gathered.pages.map((p) => ({ url: p.url, title: p.title })),
  };
  return {
    ...facts,
    markdownReport: localReport({
      subject,
      facts,
      extraction: x,
      hiring: hiring.profile,
      failures: gathered.failures,
    }),
  };
}

export class LocalProvider implements ResearchProvider {
  readonly name = 'local' as const;
  readonly processors: readonly Processor[] = ['lite', 'base'];
  readonly steps = ['gather-evidence'] as const;

  constructor(private readonly opts: LocalProviderOptions) {}

  async research(req: ResearchRequest, hiring: HiringEvidence, step: StepRunner): Promise<ProviderResult> {
    const gathered = await step('gather-evidence', () => gatherPages(req.subject, req.mode, this.opts));
    const year = new Date(this.opts.now()).getUTCFullYear();
    return {
      facts: composeLocal(req.subject, gathered, hiring, year),
      costUsd: 0,
      providerProcessor: null,
      providerRunId: null,
    };
  }
}
