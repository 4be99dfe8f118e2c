/**
 * The public sources the registry is built from, each pinned to one commit, with its licence and what the build
 * takes from it. Adding a source is adding an entry here: the build reads its paths at that commit from a local
 * git directory and turns them into facts (facts.ts); registry/sources.yaml is written from this list.
 */
import { aiList } from './ai-lists.js';
import { readAtsCompanies, readCareerOps, readStapply } from './board-lists.js';
import { euTechJobs } from './eu-tech-jobs.js';
import type { Facts } from './facts.js';
import { openJobsData } from './open-jobs.js';
import { savedPostings } from './postings.js';
import { aiSdkProviders, livekitPlugins, modelsDevProviders, pipecatServices } from './providers.js';
import { ycCompanies } from './yc.js';

export interface SourceSpec {
  id: string;
  repository: string;
  commit: string;
  licence: string;
  contributes: string;
  /** Files read; a path ending in `/` reads every file of that folder but those in `exclude`. */
  paths: string[];
  exclude?: string[];
  /**
   * Board lists kept current by a program that reads the vendors' boards (true) rather than edited by hand:
   * when one company's boards disagree on the vendor, the newest such list decides (identity.ts).
   */
  discovered: boolean;
  /** Whether a list edited by hand picks each board for its company (`SourceInfo.picks` in identity.ts). */
  picks?: boolean;
  read(files: ReadonlyMap<string, string>): Facts;
}

const ATS_COMPANY_FILES = [
  'ashby',
  'bamboohr',
  'breezy',
  'gem',
  'greenhouse',
  'lever',
  'personio',
  'pinpoint',
  'recruitee',
  'rippling',
  'smartrecruiters',
  'workable',
  'workday',
];

/** Pipecat's kinds of AI service; analytics, transports, serializers and voice-activity detectors are not. */
const PIPECAT_SERVICES = [
  'audio-filters',
  'image-generation',
  'knowledge-retrieval',
  'llm',
  'memory',
  'stt',
  'translation',
  'tts',
  'video',
  'vision',
];

export const SOURCES: SourceSpec[] = [
  {
    id: 'ats-companies',
    repository: 'complete-labs/ats-scrapers',
    commit: '85a2de50002f571f3b2acd5d04b5945abf322202',
    licence: 'MIT',
    contributes:
      'Job boards with the display name of their company, one CSV per vendor (an MIT fork of kalil0321/ats-scrapers, ' +
      'whose scrapers read every listed board); display names that are .ai domains.',
    paths: ATS_COMPANY_FILES.map((v) => `ats-companies/${v}.csv`),
    discovered: true,
    read: readAtsCompanies,
  },
  {
    id: 'stapply',
    repository: 'stapply-ai/ats-scrapers',
    commit: '7202096c4e08d4b132837bb22206a09fb0149ba2',
    licence: 'MIT',
    contributes:
      'Job boards per vendor (identifiers only); ai_companies.json, AI companies with their vendor.',
    paths: [
      'ai_companies.json',
      'ashby/companies.csv',
      'gem/gem_companies.csv',
      'greenhouse/greenhouse_companies.csv',
      'lever/lever_companies.csv',
      'rippling/rippling_companies.csv',
      'workable/workable_companies.csv',
    ],
    discovered: true,
    read: readStapply,
  },
  {
    id: 'stapply-postings',
    repository: 'stapply-ai/ats-scrapers',
    commit: '43ece6fd3ab4398cda575f0483fd49ea5c58eccb',
    licence: 'MIT',
    contributes:
      "Ashby boards' postings as the vendor's API returned them, one file per board; only the domains the postings link to are read.",
    paths: ['ashby/companies/'],
    // Blobs the snapshot this build reads does not hold; the other boards suffice to check a rule.
    exclude: ['ashby/companies/deel.json', 'ashby/companies/openai.json', 'ashby/companies/renuity.json'],
    discovered: true,
    read: savedPostings('stapply-postings', 'ashby'),
  },
  {
    id: 'career-ops',
    repository: 'santifer/career-ops',
    commit: 'ec800a2c7539ee394b89eb6d6434a3f2f61de84a',
    licence: 'MIT',
    contributes:
      'Companies hiring for solutions and forward-deployed roles with their job boards, edited by hand.',
    paths: ['templates/portals.example.yml'],
    discovered: false,
    read: readCareerOps,
  },
  {
    id: 'open-jobs-data',
    repository: 'ConorsCode/open-jobs-data',
    commit: 'adf0538c2a6088d8d0c6a655a2c785c72540e32e',
    licence: 'MIT',
    contributes:
      "Job boards with their company's display name, edited by hand; taken only when the daily run committed beside the list found the board answering with postings.",
    paths: ['companies.json', 'data/summary.json'],
    // Its daily run reads every listed board and the list drops those that stop answering: kept current.
    discovered: true,
    read: openJobsData('open-jobs-data'),
  },
  {
    id: 'eu-tech-jobs',
    repository: 'Aramente/eu-tech-jobs',
    commit: '1a70177ad57c7803663fd037bf9d62283facf9be',
    licence: 'CC-BY-4.0',
    contributes:
      "Companies hiring in Europe with their job boards' display names (`companies/`), and the new postings its " +
      "daily run found, each with its URL (`data/diffs/`): a Greenhouse posting's URL is the page its company set " +
      'for the board; only the domains of those URLs are read.',
    paths: ['companies/ai/', 'companies/tech/', 'data/diffs/'],
    // A blob the snapshot this build reads does not hold.
    exclude: ['data/diffs/2026-04-29-diff.jsonl'],
    discovered: false,
    // Partly mined by a program and without websites: its names say which board, not which company of a name.
    picks: false,
    read: euTechJobs('eu-tech-jobs'),
  },
  {
    id: 'awesome-generative-ai',
    repository: 'steven2358/awesome-generative-ai',
    commit: '63d863418c0a6db3db92cacf150a72f76933e15c',
    licence: 'CC0-1.0',
    contributes: 'Generative-AI companies and products with their websites (AI signal, domain, category).',
    paths: ['README.md', 'DISCOVERIES.md'],
    discovered: false,
    read: aiList('awesome-generative-ai', ['README.md', 'DISCOVERIES.md']),
  },
  {
    id: 'awesome-ai-tools',
    repository: 'mahseema/awesome-ai-tools',
    commit: 'b55186e97bc01635d637f544431700f331077944',
    licence: 'MIT',
    contributes: 'AI tools with their websites (AI signal, domain, category).',
    paths: ['README.md', 'IMAGE.md', 'marketing.md'],
    discovered: false,
    read: aiList('awesome-ai-tools', ['README.md', 'IMAGE.md', 'marketing.md']),
  },
  {
    id: 'awesome-robotics-ai',
    repository: 'balloch/awesome-robotics-ai-companies',
    commit: '2fbf84a7d867a1e4297ad1004387c25b0c49de5b',
    licence: 'CC0-1.0',
    contributes: 'Robotics and autonomous-agent AI companies with their websites (AI signal, domain).',
    paths: ['README.md'],
    discovered: false,
    read: aiList('awesome-robotics-ai', ['README.md']),
  },
  {
    id: 'awesome-llmops',
    repository: 'tensorchord/Awesome-LLMOps',
    commit: '710991845b941dd48a2fec37fb0c2a5c13ddc570',
    licence: 'CC0-1.0',
    contributes: 'LLM infrastructure products with their websites (AI signal, domain).',
    paths: ['README.md'],
    discovered: false,
    read: aiList('awesome-llmops', ['README.md']),
  },
  {
    id: 'awesome-generative-ai-calegario',
    repository: 'filipecalegario/awesome-generative-ai',
    commit: '822bda6cb154727ff15cc0ad51bfddac2d6d5328',
    licence: 'CC0-1.0',
    contributes: 'Generative-AI tools and applications with their websites (AI signal, domain).',
    paths: ['README.md'],
    discovered: false,
    read: aiList('awesome-generative-ai-calegario', ['README.md']),
  },
  {
    id: 'awesome-ai-coding-tools',
    repository: 'ai-for-developers/awesome-ai-coding-tools',
    commit: '172db982165e601131823678c5d37ce6c7775ab4',
    licence: 'MIT',
    contributes: 'AI coding tools with their websites (AI signal, domain).',
    paths: ['README.md'],
    discovered: false,
    read: aiList('awesome-ai-coding-tools', ['README.md']),
  },
  {
    id: 'awesome-code-ai',
    repository: 'sourcegraph/awesome-code-ai',
    commit: '0a8ba1e760b5a6f2f2dae1956f5a05de0a3a220a',
    licence: 'CC0-1.0',
    contributes: 'AI coding assistants and code models with their websites (AI signal, domain).',
    paths: ['README.md'],
    discovered: false,
    read: aiList('awesome-code-ai', ['README.md']),
  },
  {
    id: 'awesome-vector-database',
    repository: 'dangkhoasdc/awesome-vector-database',
    commit: '01b27fc3359309d6e9cf24ca14c42a1ae19940a7',
    licence: 'CC0-1.0',
    contributes: 'Vector database services and engines with their websites (AI infrastructure, domain).',
    paths: ['README.md'],
    discovered: false,
    read: aiList('awesome-vector-database', ['README.md']),
  },
  {
    id: 'awesome-ai-tools-eudk',
    repository: 'eudk/awesome-ai-tools',
    commit: '626be08c52c330c8aadf000e7ad3046d16481904',
    licence: 'CC0-1.0',
    contributes: 'AI platforms, models and tools with their websites (AI signal, domain, category).',
    paths: ['README.md'],
    discovered: false,
    read: aiList('awesome-ai-tools-eudk', ['README.md']),
  },
  {
    id: 'awesome-ai-for-science',
    repository: 'ai-boost/awesome-ai-for-science',
    commit: '2d6b813fee07b9ca3633dbcb4e6b2089e1d40b09',
    licence: 'MIT',
    contributes: 'AI-for-science platforms and companies with their websites (AI signal, domain).',
    paths: ['README.md'],
    discovered: false,
    read: aiList('awesome-ai-for-science', ['README.md']),
  },
  {
    id: 'awesome-ai-coding',
    repository: 'wsxiaoys/awesome-ai-coding',
    commit: 'a45b31b4c890cdf8a7a777f5f8909dfc9151e5e5',
    licence: 'CC0-1.0',
    contributes: 'AI coding products with their websites (AI signal, domain).',
    paths: ['README.md'],
    discovered: false,
    read: aiList('awesome-ai-coding', ['README.md']),
  },
  {
    id: 'awesome-ai-security',
    repository: 'ottosulin/awesome-ai-security',
    commit: '43752481d68e48a9d69cc8f19d28de9e20e4146d',
    licence: 'MIT',
    contributes: 'AI-security products with their websites (AI signal, domain).',
    paths: ['README.md'],
    discovered: false,
    read: aiList('awesome-ai-security', ['README.md']),
  },
  {
    id: 'models-dev',
    repository: 'anomalyco/models.dev',
    commit: 'f3fc692299671838c7c65fd8126bf84d81a2e817',
    licence: 'MIT',
    contributes:
      'Providers of AI model APIs with the hosts of their API and documentation (AI signal, domain): a provider counts ' +
      'when both hosts share one domain that its name spells.',
    paths: ['providers/*/provider.toml'],
    discovered: false,
    read: modelsDevProviders('models-dev'),
  },
  {
    id: 'ai-sdk-providers',
    repository: 'vercel/ai',
    commit: 'ed857f50f112e23930b0c2dd8d532cc8bebbc911',
    licence: 'Apache-2.0',
    contributes:
      "The AI SDK's pages of model providers, official and community (AI signal, domain): the provider's home page " +
      'as the page links it under its own name.',
    paths: ['content/providers/01-ai-sdk-providers/', 'content/providers/05-community-providers/'],
    discovered: false,
    read: aiSdkProviders('ai-sdk-providers'),
  },
  {
    id: 'pipecat-services',
    repository: 'pipecat-ai/docs',
    commit: '1393c9d76927eaef55dd3d872ae51e37ace8f92e',
    licence: 'BSD-2-Clause',
    contributes:
      "Pipecat's pages of AI services for voice agents (speech, language models, avatars) with their makers' sites " +
      '(AI signal, domain).',
    paths: PIPECAT_SERVICES.map((kind) => `api-reference/server/services/${kind}/`),
    discovered: false,
    read: pipecatServices('pipecat-services'),
  },
  {
    id: 'livekit-plugins',
    repository: 'livekit/agents',
    commit: 'da6af86ac640a3bc54585764e64321d7048c1c16',
    licence: 'Apache-2.0',
    contributes:
      "LiveKit Agents' plugins for AI services (speech, language models, avatars), each README linking its maker's " +
      'site (AI signal, domain).',
    paths: ['livekit-plugins/*/README.md'],
    discovered: false,
    read: livekitPlugins('livekit-plugins'),
  },
  {
    id: 'yc-directory',
    repository: 'akshaybhalotia/yc_company_scraper',
    commit: 'f630b641a0dec321962cc1bc1b6c1dcc24823f74',
    licence: 'MIT',
    contributes:
      "Y Combinator's company directory as its search returned it, one file per batch: companies YC tags as AI, " +
      'still operating, with their websites (AI signal, domain, category).',
    paths: ['responses/'],
    // The list of batch names, not companies.
    exclude: ['responses/yc_batches.json'],
    discovered: false,
    read: ycCompanies('yc-directory'),
  },
];
