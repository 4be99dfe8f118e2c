/**
 * Y Combinator's company directory in the JSON form yc-oss/api publishes (`companies/all.json`: one object per
 * company with `name`, `website`, `tags`, `industries`, `status`). YC's own tags are the AI signal, never the
 * name; the website gives the domain. Not in SOURCES yet: docs/registry.md says why and what enabling it takes.
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
  name?: string;
  website?: string | null;
  tags?: string[];
  industries?: string[];
  status?: string;
}

function categoryOf(c: YcCompany): CompanyCategory {
  return (c.industries ?? []).some((i) => ENTERPRISE_INDUSTRIES.test(i)) ? 'enterprise_ai' : 'ai_native';
}

/** Companies YC tags as AI, still operating, with a website on a public suffix. */
export function ycCompanies(source: string) {
  return (files: ReadonlyMap<string, string>): Facts => {
    const facts = noFacts();
    for (const text of files.values()) {
      for (const c of JSON.parse(text) as YcCompany[]) {
        if (!c.name?.trim() || GONE.has(c.status ?? '')) continue;
        if (!(c.tags ?? []).some((t) => YC_AI_TAGS.has(t))) continue;
        const domain = c.website ? registrableDomain(c.website) : null;
        if (domain) facts.companies.push({ source, name: c.name.trim(), domain, category: categoryOf(c) });
      }
    }
    return facts;
  };
}
