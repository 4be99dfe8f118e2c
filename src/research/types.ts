import type { StepRunner } from '../pipeline/engine/types.js';
import type { Dossier, HiringProfile, Processor, ProviderName, ResearchMode } from './dossier.js';

/** The company being researched, as the catalog knows it. */
export interface ResearchSubject {
  companyId: string;
  name: string;
  domain: string;
  website: string | null;
  oneLiner: string;
  description: string | null;
}

export interface ResearchRequest {
  subject: ResearchSubject;
  mode: ResearchMode;
  processor: Processor;
}

/** A person found on the company's pages (team cards, JSON-LD, "founded by" sentences). */
export interface PersonMention {
  name: string;
  title: string | null;
  bio: string | null;
  links: string[];
}

/** One page of the company's own site, reduced to what research reads (the raw HTML is not kept). */
export interface EvidencePage {
  url: string;
  /** Why it was picked: home, team, about, press, blog, contact, other. */
  kind: string;
  title: string | null;
  /** Meta description or og:description. */
  metaDescription: string | null;
  /** Visible text, whitespace-collapsed, capped. */
  text: string;
  /** schema.org JSON-LD objects found on the page (flattened @graph). */
  jsonLd: unknown[];
  people: PersonMention[];
}

/** What the catalog itself knows about the company's hiring (from our job data). */
export interface HiringEvidence {
  profile: HiringProfile;
  /** Recent active job titles, most recent first. */
  titles: string[];
}

/** The fields a provider establishes; the service adds hiring, generatedAt and provider. */
export type DossierFacts = Omit<Dossier, 'hiring' | 'generatedAt' | 'provider'>;

export interface ProviderResult {
  facts: DossierFacts;
  /** USD; null when the provider does not say. */
  costUsd: number | null;
  /** The vendor's own processor name (Parallel), null otherwise. */
  providerProcessor: string | null;
  providerRunId: string | null;
}

/**
 * A research provider. `research` runs inside a durable workflow: every external call goes through `step` so a
 * resumed run reuses finished calls (above all a paid Parallel run) instead of repeating them.
 */
export interface ResearchProvider {
  readonly name: ProviderName;
  /** Processors this provider honours; others are refused with 400 before any work starts. */
  readonly processors: readonly Processor[];
  /** Step names in order, shown by the workflow status endpoint. */
  readonly steps: readonly string[];
  research(req: ResearchRequest, hiring: HiringEvidence, step: StepRunner): Promise<ProviderResult>;
}

/** A provider failure: `retryable` tells the workflow step whether another attempt can help. */
export class ResearchError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ResearchError';
  }
}
