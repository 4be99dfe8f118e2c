/**
 * AI companies that a board's own postings name. A board whose saved postings link, most of them, to a domain
 * its identifier spells is that domain's board (postings.ts); the company is taken as an AI company when the
 * domain is an `.ai` domain or a board list's display name for the board says AI ("Rad AI"), as a display name
 * that is an `.ai` domain already does (sources.ts). The display name gives the company's name: a board no list
 * names gives no company.
 */
import { parse as parseDomain } from 'tldts';
import type { CompanyFact, Facts } from './facts.js';
import { AI_MARK, boardKey, ownsWord } from './words.js';

export function linkedCompanies(facts: Facts[]): CompanyFact[] {
  const names = new Map<string, string>();
  for (const b of facts.flatMap((f) => f.boards)) {
    const id = `${b.vendor}:${b.board.toLowerCase()}`;
    if (b.name && !names.has(id)) names.set(id, b.name);
  }
  const out: CompanyFact[] = [];
  for (const l of facts.flatMap((f) => f.links)) {
    const name = names.get(`${l.vendor}:${l.board.toLowerCase()}`);
    if (!name || !ownsWord(l.domain, boardKey(l))) continue;
    if (parseDomain(l.domain).publicSuffix !== 'ai' && !AI_MARK.test(name)) continue;
    out.push({ source: l.source, name, domain: l.domain, category: 'ai_native' });
  }
  return out;
}
