/**
 * Y Combinator's company directory: one object per company with `id`, `name`, `former_names`, `website`, `tags`,
 * `industries`, `status`, either as a JSON array (yc-oss/api's `companies/all.json`) or in the envelope of the
 * directory's search responses (`{"results":[{"hits":[...]}]}`, akshaybhalotia/yc_company_scraper's
 * `responses/*.json`, one file per batch). A company listed under two spellings of its batch ("W24" and
 * "Winter 2024") is read once, by its id. YC's own tags are the AI signal, never the name; the website gives the
 * domain.
 */
import type { CompanyCategory } from '../../src/catalog/vocabulary.js';
import { type Facts, noFacts } from './facts.js';
import { registrableDomain } from './parse.js';

/** YC tags that say the company builds AI (exact tag names as YC spells them). */
export const YC_AI_TAGS = new Set([
  'AI',
  'Artificial Intelligence',
  'Generative AI',
  'Machine Learning',
  'ML',
  'Deep Learning',
  'Reinforcement Learning',
  'NLP',
  'Computer Vision',
  'Speech Recognition',
  'Conversational AI',
  'AI Assistant',
  'AIOps',
  'AI-Enhanced Learning',
  'AI-powered Drug Discovery',
]);

/** Statuses of companies that no longer hire under their own name: a wound-down or bought company is left out. */
const GONE = new Set(['Inactive', 'Acquired']);

/** YC industries that are business functions: an AI company selling into them is enterprise AI. */
const ENTERPRISE_INDUSTRIES =
  /^(Sales|Marketing|Legal|Finance and Accounting|Human Resources|Recruiting and Talent|Productivity|Operations|Office Management)$/;

interface YcCompany {
  id?: number | string;
  name?: string;
  website?: string | null;
  tags?: string[];
  industries?: string[];
  status?: string;
}

function categoryOf(c: YcCompany): CompanyCategory {
  return (c.industries ?? []).some((i) => ENTERPRISE_INDUSTRIES.test(i)) ? 'enterprise_ai' : 'ai_native';
}

/** The companies of one file: a plain array, or the hits of every result of a search response. */
function companiesIn(text: string): YcCompany[] {
  const doc = JSON.parse(text) as YcCompany[] | { results?: { hits?: YcCompany[] }[] };
  if (Array.isArray(doc)) return doc;
  return (doc.results ?? []).flatMap((r) => r.hits ?? []);
}

/** Companies YC tags as AI, still operating, with a website on a public suffix. */
export function ycCompanies(source: string) {
  return (files: ReadonlyMap<string, string>): Facts => {
    const facts = noFacts();
    const seen = new Set<string>();
    for (const text of files.values()) {
      for (const c of companiesIn(text)) {
        const id = c.id === undefined ? `${c.name} ${c.website}` : String(c.id);
        if (seen.has(id)) continue;
        seen.add(id);
        if (!c.name?.trim() || GONE.has(c.status ?? '')) continue;
        if (!(c.tags ?? []).some((t) => YC_AI_TAGS.has(t))) continue;
        const domain = c.website ? registrableDomain(c.website) : null;
        if (domain) facts.companies.push({ source, name: c.name.trim(), domain, category: categoryOf(c) });
      }
    }
    return facts;
  };
}
