/** Awesome lists of AI products as AI lists: each item's website gives a company's domain, its section the category. */
import type { CompanyCategory } from '../../src/catalog/vocabulary.js';
import { type Facts, noFacts } from './facts.js';
import { listedLinks, registrableDomain } from './parse.js';

/** Headings of AI lists whose items are business applications of AI rather than AI products themselves. */
const ENTERPRISE =
  /business|sales|marketing|customer|support|meeting|productivity|legal|finance|email|phone|hr\b/i;
/** Headings of AI lists that hold reading, courses or references, not companies. */
const NOT_COMPANIES =
  /reading|milestone|learn|course|education|resource|related|similar|credit|contents|leaderboard|paper|tutorial|history|ethic|critical|director|introduction|structure|contribut|benchmark|book|conference|publication|survey|method|hashing|graveyard|student|pricing|subscription|quantization|article|talk|comparison/i;

/** Large established companies an AI list names for their AI work: AI is not what they sell. */
const ESTABLISHED = /large compan/i;

function categoryOf(headings: string[]): CompanyCategory {
  if (headings.some((h) => ESTABLISHED.test(h))) return 'other';
  return headings.some((h) => ENTERPRISE.test(h)) ? 'enterprise_ai' : 'ai_native';
}

/** Link texts of articles and talks ("How GPT works - The New York Times") rather than of a company or product. */
function looksLikeAName(text: string): boolean {
  return text.split(/\s+/).length <= 5 && !/ [-|–—:] |: /.test(text);
}

/** Companies of an awesome list: each item's website gives the domain, its section the category. */
export function aiList(id: string, paths: string[]) {
  return (files: ReadonlyMap<string, string>): Facts => {
    const facts = noFacts();
    for (const path of paths) {
      for (const link of listedLinks(files.get(path) ?? '')) {
        if (link.headings.some((h) => NOT_COMPANIES.test(h)) || !looksLikeAName(link.name)) continue;
        const domain = registrableDomain(link.url);
        if (!domain) continue;
        const category = categoryOf(link.headings);
        facts.companies.push({ source: id, name: link.name, domain, category });
      }
    }
    return facts;
  };
}
