import { type Static, type TSchema, Type } from 'typebox';

/**
 * The research dossier (docs/research.md): one TypeBox schema that validates provider output,
 * types the code and documents the response in the OpenAPI document. Every fact a provider could not establish is
 * null (or an empty list), never a guess.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const RESEARCH_MODES = ['full', 'fast'] as const;
export type ResearchMode = (typeof RESEARCH_MODES)[number];

export const PROCESSORS = ['lite', 'base', 'core', 'core2x', 'pro', 'ultra'] as const;
export type Processor = (typeof PROCESSORS)[number];

export const PROVIDER_NAMES = ['parallel', 'llm', 'local'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const FounderSchema = Type.Object(
  {
    name: Type.String({ examples: ['Ada Lovelace'] }),
    role: Nullable(Type.String({ description: 'Role at the company', examples: ['Co-founder & CEO'] })),
    background: Nullable(Type.String({ description: 'Prior work or education, when stated' })),
    links: Type.Array(Type.String(), { description: 'Profile URLs (LinkedIn, personal site...)' }),
  },
  { description: 'A founder' },
);

export const LeaderSchema = Type.Object(
  {
    name: Type.String({ examples: ['Grace Hopper'] }),
    title: Nullable(Type.String({ examples: ['VP Engineering'] })),
  },
  { description: 'A member of the leadership team' },
);

export const MarketAnalysisSchema = Type.Object(
  {
    market: Nullable(Type.String({ description: 'The market the company serves' })),
    positioning: Nullable(Type.String({ description: 'How the company positions itself in it' })),
    customers: Nullable(Type.String({ description: 'Who buys, named customers when public' })),
    trends: Nullable(Type.String({ description: 'Trends shaping the market' })),
  },
  { description: 'Market analysis; each part null when unknown' },
);

export const FundingRoundSchema = Type.Object(
  {
    date: Nullable(Type.String({ description: 'YYYY, YYYY-MM or YYYY-MM-DD', examples: ['2024-03'] })),
    round: Nullable(Type.String({ examples: ['Series B'] })),
    amountUsd: Nullable(Type.Integer({ minimum: 0, description: 'Amount raised in US dollars' })),
    investors: Type.Array(Type.String(), { description: 'Named investors, lead first when known' }),
  },
  { description: 'A funding round' },
);

export const CompetitorSchema = Type.Object(
  {
    name: Type.String({ examples: ['Example Corp'] }),
    domain: Nullable(Type.String({ examples: ['example.com'] })),
    note: Nullable(Type.String({ description: 'How it compares' })),
  },
  { description: 'A competitor' },
);

export const SourceSchema = Type.Object(
  {
    url: Type.String({ examples: ['https://acme.com/about'] }),
    title: Nullable(Type.String()),
  },
  { description: 'A page the dossier draws on' },
);

export const HiringProfileSchema = Type.Object(
  {
    activeJobs: Type.Integer({ minimum: 0, description: 'Active postings in the catalog' }),
    clientFacingJobs: Type.Integer({ minimum: 0, description: 'Of which client-facing (fde, csm, tam...)' }),
    topCategories: Type.Array(Type.Object({ category: Type.String(), count: Type.Integer({ minimum: 0 }) }), {
      description: 'Role categories by count, at most 5',
    }),
    locations: Type.Array(Type.String(), { description: 'Most frequent posting locations, at most 5' }),
    remoteShare: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'Share of remote postings' })),
  },
  { description: "Hiring profile from the catalog's own job data (not from the provider)" },
);

export const DossierSchema = Type.Object(
  {
    summary: Type.String({ description: 'What the company does, in a paragraph' }),
    founders: Type.Array(FounderSchema),
    leadership: Type.Array(LeaderSchema),
    foundedYear: Nullable(Type.Integer({ minimum: 1800, maximum: 2100, examples: [2021] })),
    employeeCount: Nullable(Type.Integer({ minimum: 0, description: 'Approximate headcount' })),
    headquarters: Nullable(Type.String({ examples: ['San Francisco, CA'] })),
    marketAnalysis: MarketAnalysisSchema,
    fundingRounds: Type.Array(FundingRoundSchema),
    competitors: Type.Array(CompetitorSchema),
    hiring: HiringProfileSchema,
    markdownReport: Type.String({ description: 'The full report in Markdown' }),
    sources: Type.Array(SourceSchema),
    generatedAt: Type.String({
      format: 'date-time',
      description: 'When the dossier was produced (ISO 8601 UTC)',
    }),
    provider: Type.Enum(PROVIDER_NAMES, {
      description:
        'parallel: Parallel Task API web research; llm: the configured OpenAI-compatible model over pages the ' +
        'service fetched; local: deterministic extraction from those pages, no model',
    }),
  },
  { description: 'A research dossier. Unknown facts are null (or empty lists), never invented.' },
);

export type Dossier = Static<typeof DossierSchema>;
export type Founder = Static<typeof FounderSchema>;
export type Leader = Static<typeof LeaderSchema>;
export type FundingRound = Static<typeof FundingRoundSchema>;
export type Competitor = Static<typeof CompetitorSchema>;
export type Source = Static<typeof SourceSchema>;
export type HiringProfile = Static<typeof HiringProfileSchema>;
export type MarketAnalysis = Static<typeof MarketAnalysisSchema>;

/** A stored run: the dossier plus how it was made (history keeps every run). */
export const ResearchRunSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    mode: Type.Enum(RESEARCH_MODES),
    processor: Type.Enum(PROCESSORS),
    provider: Type.Enum(PROVIDER_NAMES),
    providerProcessor: Nullable(Type.String({ description: "The vendor's processor name, e.g. core-fast" })),
    costUsd: Nullable(
      Type.Number({ minimum: 0, description: 'Provider cost in USD; 0 for local, null if unknown' }),
    ),
    durationMs: Type.Integer({ minimum: 0, description: 'Wall time of the research run' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { description: 'How a dossier was produced' },
);
export type ResearchRun = Static<typeof ResearchRunSchema>;
