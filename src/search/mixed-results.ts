import { lexemes, wordsOf } from './keyword-index/lexemes.js';
import { allowedEdits, editDistance } from './query/spelling.js';
import { wordSimilarity } from './query/trigram.js';

/**
 * One result list of jobs and companies for a free-text query (the MCP `search` tool): each side comes ranked
 * by its own search, and this decides how they interleave by what the query asks for. A company the query
 * names, and nothing more ("anthropic", "antropic"), leads; otherwise a result leads by how much of the query
 * its own words hold (a job's title; a company's name and one-liner), so "forward deployed engineer" lists
 * Forward Deployed Engineer jobs before companies whose one-liner merely mentions deployment, and "vector
 * database" lists vector-database companies before jobs that only share a word. Ties keep each side's order,
 * a job first.
 */

export interface MixedItem {
  kind: 'job' | 'company';
  id: string;
  /** A job's title, or a company's name. */
  name: string;
  /** A company's one-liner. */
  about?: string;
}

/** pg_trgm word_similarity from which a company name counts as named by the query (as the search's name lists). */
const NAMED = 0.5;

export function mixResults<T extends MixedItem>(
  query: string,
  jobs: readonly T[],
  companies: readonly T[],
): T[] {
  const words = lexemes(query).map((l) => l.lexeme);
  const last = /[\p{L}\p{N}]$/u.test(query) ? words.at(-1) : undefined;
  const coverage = (text: string): number => {
    if (words.length === 0) return 0;
    const own = lexemes(text).map((l) => l.lexeme);
    const held = words.filter((w) => own.some((o) => o === w || (w === last && o.startsWith(w))));
    return held.length / words.length;
  };
  const scored = [
    ...jobs.map((item, rank) => ({ item, rank, tier: tierOf(coverage(item.name)) })),
    ...companies.map((item, rank) => ({
      item,
      rank,
      tier: namesOnly(query, item.name) ? 3 : tierOf(coverage(`${item.name} ${item.about ?? ''}`)),
    })),
  ];
  return scored
    .sort(
      (a, b) =>
        b.tier - a.tier ||
        a.rank - b.rank ||
        (a.item.kind === b.item.kind ? 0 : a.item.kind === 'job' ? -1 : 1),
    )
    .map((s) => s.item);
}

/** All of the query's words (2), at least half (1), fewer (0). */
const tierOf = (coverage: number) => (coverage >= 0.999 ? 2 : coverage >= 0.5 ? 1 : 0);

/**
 * Whether the query is the company's name and nothing more, spelled right or within the typo allowance: every
 * word of the query is one of the name's, and the query holds the whole name or matches its trigrams ("ai" does
 * not name Scale AI).
 */
function namesOnly(query: string, name: string): boolean {
  const own = wordsOf(name).map((w) => w.word);
  const near = (a: string, b: string) =>
    a === b || editDistance(a, b, allowedEdits(a.length)) <= allowedEdits(a.length);
  const asked = wordsOf(query).filter((w) => w.lexeme !== '');
  if (asked.length === 0 || !asked.every((w) => own.some((o) => near(o, w.word)))) return false;
  const whole = own.every((o) => asked.some((w) => near(o, w.word)));
  return whole || wordSimilarity(name.toLowerCase(), query.toLowerCase()) >= NAMED;
}
