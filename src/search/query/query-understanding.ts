import type { RoleCategory } from '../../catalog/types.js';
import { placeNamedBy } from '../../sources/normalize/regions.js';
import { Analyzer, rawTokens, readLexicon } from '../embedders/static.js';

/**
 * Small, explicit query understanding: role words of the role taxonomy ("forward deployed", "FDE", "deployment
 * strategist" -> fde; "solutions architect", "SA" -> solutions_engineer; "customer success" -> csm ...) found in
 * the query. Used as a ranking boost, never as a filter: a query for "FDE" still returns a job titled otherwise
 * if both retrievers rank it high. The phrases live in embedders/lexicon.json, shared with the embedder.
 */
export class QueryUnderstanding {
  private readonly analyzer: Analyzer;

  constructor() {
    const { lexicon } = readLexicon();
    this.analyzer = new Analyzer(lexicon, (t) => t in lexicon.terms);
  }

  roles(query: string): RoleCategory[] {
    return this.analyzer.roles(this.analyzer.tokens(query)) as RoleCategory[];
  }

  /**
   * Words and word pairs of the query that could name a place ("london", "new york", "remote"; "sf" and "nyc"
   * expand through the lexicon). Candidates only: a term counts when some job's location contains it.
   */
  locationTerms(query: string): string[] {
    const tokens = this.analyzer.tokens(query).filter((t) => /^[a-z]/.test(t));
    const terms = new Set<string>();
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if ((t.length >= 3 && !NOT_PLACES.has(t)) || placeNamedBy(t)) terms.add(t);
      const next = tokens[i + 1];
      if (next !== undefined) terms.add(`${t} ${next}`);
    }
    // Region and country words as typed too: the lexicon spells "emea" as "europe", yet EMEA is more than Europe.
    const typed = rawTokens(query);
    for (let i = 0; i < typed.length; i++) {
      const pair = i + 1 < typed.length ? `${typed[i]} ${typed[i + 1]}` : undefined;
      for (const w of [typed[i]!, pair]) if (w !== undefined && placeNamedBy(w)) terms.add(w);
    }
    return [...terms];
  }
}

/** Query words that are never a place but occur inside location strings ("United States", "Remote - US"). */
const NOT_PLACES = new Set([
  'the',
  'and',
  'for',
  'jobs',
  'job',
  'with',
  'role',
  'roles',
  'team',
  'new',
  'united',
]);
