import { type TextWord, wordsOf } from '../keyword-index/lexemes.js';
import { allowedEdits, editDistance } from './spelling.js';

/**
 * Company + role queries ("anthropic solutions", "solutions engineer at openai"): the query names a company and
 * asks for something there. Found when every distinctive word of a company's name is among the query's words
 * (names of 8+ characters within the typo allowance), and the query has words left over, which say what is wanted at it. A query
 * that is only a company name is not one (the company's jobs simply rank first, as for any name match).
 */

export interface CompanyIntent {
  companyId: string;
  /** The query without the company's words: what is wanted at it. */
  rest: string;
}

/** Name words too common in company names to identify one ("Scale AI", "Acme Labs"). */
const GENERIC = new Set(['ai', 'inc', 'labs', 'lab', 'hq', 'co', 'the', 'technologies', 'io', 'corp']);
/** Words joining company and role that say nothing on their own. */
const JOINERS = new Set(['at', 'in', 'for', 'with', 'jobs', 'job', 'roles', 'role']);

export interface IntentLookup {
  /** The company's display name, when it is active. */
  name(companyId: string): string | undefined;
  /** Documents holding the lexeme, and jobs of the company: a name word far more common than the company's jobs
   * is a role word too ("Writer" and "technical writer"), too ambiguous to read as the company. */
  frequency(lexeme: string): number;
  jobCount(companyId: string): number;
}

/** The first candidate company (best name match first) that the query names, with what is asked of it. */
export function companyIntent(
  query: string,
  candidates: readonly string[],
  lookup: IntentLookup,
): CompanyIntent | undefined {
  const words = wordsOf(query);
  for (const id of candidates) {
    const name = lookup.name(id);
    if (name === undefined) continue;
    const used = nameWordsIn(words, wordsOf(name), id, lookup);
    if (used === undefined) continue;
    const rest = words.filter((w, i) => !used.has(i) && !JOINERS.has(w.word) && w.lexeme !== '');
    if (rest.length === 0) return undefined;
    return { companyId: id, rest: rest.map((w) => w.word).join(' ') };
  }
  return undefined;
}

/** Indexes of the query words that spell the name, or undefined when a distinctive name word is missing. */
function nameWordsIn(
  query: TextWord[],
  name: TextWord[],
  companyId: string,
  lookup: IntentLookup,
): Set<number> | undefined {
  const used = new Set<number>();
  let distinctive = 0;
  for (const n of name) {
    // Misspelled only when long: a short name is a letter away from ordinary words ("Modal" and "model").
    const edits = n.word.length >= 8 ? allowedEdits(n.word.length) : 0;
    const at = query.findIndex(
      (q, i) => !used.has(i) && (q.word === n.word || editDistance(q.word, n.word, edits) <= edits),
    );
    if (GENERIC.has(n.word)) {
      if (at >= 0) used.add(at);
      continue;
    }
    if (at < 0) return undefined;
    if (lookup.frequency(n.lexeme) > 2 * lookup.jobCount(companyId)) return undefined;
    used.add(at);
    distinctive++;
  }
  return distinctive > 0 ? used : undefined;
}
