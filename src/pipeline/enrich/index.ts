/**
 * Company enrichment: fetch the homepage (and the about page when linked), then extract facts with the
 * deterministic heuristic enricher, or with the LLM enricher when LLM_BASE_URL is configured.
 */
import type { Config } from '../../config.js';
import { createOutboundClient, endpointClientOptions } from '../../net/client.js';
import type { HttpClient } from '../../net/types.js';
import { OutboundError } from '../../net/types.js';
import { deriveCategory, deriveTags } from './derive.js';
import { extractPage } from './extract.js';
import { askModel, type LlmOptions } from './llm.js';
import type { CompanyFacts, Enricher, FetchedPage, SocialLinks } from './types.js';

export type { CompanyFacts, Enricher, FetchedPage } from './types.js';

/** Company pages are HTML; 3 MB fits the heaviest marketing homepages. */
const PAGE_MAX_BYTES = 3 * 1024 * 1024;

async function fetchPage(client: HttpClient, url: string): Promise<FetchedPage> {
  const res = await client.request(url, { maxBytes: PAGE_MAX_BYTES, timeoutMs: 20_000 });
  if (res.status < 200 || res.status > 299) {
    throw new OutboundError(
      'http_status',
      `${url} answered ${res.status}`,
      res.status === 429 || res.status >= 500,
      res.status,
    );
  }
  return { url: res.url, html: res.body };
}

/**
 * The homepage, then its about page when one is linked. Throws OutboundError when the homepage cannot be
 * fetched (https://domain/, then https://www.domain/): enrichment without the company's own page is not done.
 * A failing about page is skipped.
 */
export async function fetchCompanyPages(domain: string, client: HttpClient): Promise<FetchedPage[]> {
  let home: FetchedPage | null = null;
  let firstError: unknown = null;
  for (const url of [`https://${domain}/`, `https://www.${domain}/`]) {
    try {
      home = await fetchPage(client, url);
      break;
    } catch (err) {
      firstError ??= err;
    }
  }
  if (!home) throw firstError;
  const about = extractPage(home, domain).aboutUrl;
  if (!about || about === home.url) return [home];
  try {
    return [home, await fetchPage(client, about)];
  } catch (err) {
    if (err instanceof OutboundError) return [home];
    throw err;
  }
}

export class HeuristicEnricher implements Enricher {
  async enrich(domain: string, pages: FetchedPage[]): Promise<CompanyFacts> {
    const [home, ...rest] = pages.map((p) => extractPage(p, domain));
    const empty: SocialLinks = {
      linkedin: null,
      twitter: null,
      github: null,
      youtube: null,
      crunchbase: null,
    };
    if (!home)
      return {
        domain,
        name: null,
        oneLiner: null,
        description: null,
        social: empty,
        category: null,
        tags: [],
        source: 'heuristic',
      };
    const about = rest[0];
    const text = {
      headline: [home.headline, about?.headline].filter(Boolean).join(' . '),
      body: [home.text, about?.text].filter(Boolean).join('\n\n'),
    };
    const tags = deriveTags(text);
    const social = { ...empty };
    for (const key of Object.keys(empty) as Array<keyof SocialLinks>)
      social[key] = home.social[key] ?? about?.social[key] ?? null;
    return {
      domain,
      name: home.name,
      oneLiner: home.oneLiner ?? about?.oneLiner ?? null,
      description: about?.description ?? home.description ?? about?.oneLiner ?? null,
      social,
      category: deriveCategory(text, tags),
      tags,
      source: 'heuristic',
    };
  }
}

export class LlmEnricher implements Enricher {
  private readonly heuristic = new HeuristicEnricher();

  constructor(
    private readonly client: HttpClient,
    private readonly opts: LlmOptions,
    /** Told why a model answer was not used (the facts then come from heuristics). */
    private readonly onFallback: (domain: string, reason: string) => void = () => undefined,
  ) {}

  async enrich(domain: string, pages: FetchedPage[]): Promise<CompanyFacts> {
    const base = await this.heuristic.enrich(domain, pages);
    if (pages.length === 0) return base;
    const text = pages
      .map((p) => {
        const f = extractPage(p, domain);
        return `${f.headline}\n${f.text}`;
      })
      .join('\n\n');
    const answer = await askModel(this.client, this.opts, domain, text);
    if (answer instanceof Error) {
      this.onFallback(domain, answer.message);
      return base;
    }
    return {
      domain,
      name: answer.name ?? base.name,
      oneLiner: answer.oneLiner ?? base.oneLiner,
      description: answer.description ?? base.description,
      // The model never sees hrefs; links come from the page itself.
      social: base.social,
      category: answer.category ?? base.category,
      tags: answer.tags.length > 0 ? answer.tags : base.tags,
      source: 'llm',
    };
  }
}

/**
 * The LLM enricher when LLM_BASE_URL and LLM_MODEL are set, else the heuristic one. Model calls go through the
 * shared client when OUTBOUND_HOST_MAP already routes the model's host, else through an endpoint client
 * (endpointClientOptions in src/net/client-options.ts).
 */
export function createEnricher(
  config: Config,
  client: HttpClient,
  onFallback?: (domain: string, reason: string) => void,
): Enricher {
  const { baseUrl, model, apiKey } = config.llm;
  if (!baseUrl || !model) return new HeuristicEnricher();
  const mapped = new URL(baseUrl).hostname.toLowerCase() in config.outboundHostMap;
  const llmClient = mapped ? client : createOutboundClient(endpointClientOptions(config, baseUrl));
  return new LlmEnricher(llmClient, { baseUrl, model, apiKey }, onFallback);
}
