import type { JobAttrs } from '../catalog/replica/catalog-replica.js';
import type { RowMasks } from '../catalog/replica/job-columns.js';
import { rawTokens } from './embedders/static.js';
import type { RankedList } from './fusion.js';
import type { KeywordIndex } from './keyword-index/keyword-index.js';
import { allWordsQuery, distinctLexemes } from './keyword-index/lexemes.js';
import { type CompanyIntent, companyIntent } from './query/company-intent.js';
import type { QueryTerms, QueryUnit } from './query/query-terms.js';
import type { Correction } from './query/spelling.js';
import { titleFit } from './query/title-fit.js';
import type { NameMatch } from './query/trigram.js';

/**
 * What a job search understands of its query before ranking, and the keyword lists it ranks from (hybrid.ts
 * fuses them with the semantic ones).
 */

export interface JobQueryPlan {
  /** The query as typed. */
  query: string;
  /** The query with misspelled words corrected (query/spelling.ts); the embedding and role words read this. */
  text: string;
  corrections: Correction[];
  /** Active companies whose name is word-similar to the query, best first (at most 5). */
  named: NameMatch[];
  /** The company the query names and what it asks of it ("anthropic solutions"). */
  intent?: CompanyIntent & { text: string };
}

/** pg_trgm word_similarity above which a company name counts as a (misspelled) match. */
export const NAME_SIMILARITY = 0.5;
/** Weight of the any-word keyword list: recall for long queries, below the all-words list. */
const ANY_WORD_WEIGHT = 0.5;
/** Weight of the all-words list of the corrected query: below the words as typed, so exact matches lead. */
const TYPO_WEIGHT = 0.8;

/**
 * The query understood: misspellings corrected (but not words that name a place where jobs are, `isPlace`:
 * "york" is no misspelling of "work"), and in hybrid mode the companies it names.
 */
export function planJobQuery(
  words: KeywordIndex,
  q: string,
  hybrid: boolean,
  isPlace?: (word: string) => boolean,
): JobQueryPlan {
  const { text, corrections } = words.corrected(q, isPlace);
  if (!hybrid) return { query: q, text, corrections, named: [] };
  const named = words.similarCompanies(q, NAME_SIMILARITY, (a) => a.active).slice(0, 5);
  const intent = companyIntent(
    q,
    named.map((m) => m.id),
    words.intentLookup(),
  );
  return {
    query: q,
    text,
    corrections,
    named,
    ...(intent && { intent: { ...intent, text: words.corrected(intent.rest, isPlace).text } }),
  };
}

type Stage = <T>(name: string, run: () => T) => T;

/**
 * The keyword lists: every word as typed (the last as a prefix); with corrections, every word as corrected;
 * in hybrid mode any word, the jobs of the companies named, and those of a named company matching what the
 * query asks of it.
 */
export function keywordLists(
  words: KeywordIndex,
  plan: JobQueryPlan,
  masks: RowMasks | null,
  at: RowMasks | undefined,
  opts: { n: number; hybrid: boolean; stage: Stage },
): { lists: RankedList[]; matched: ReadonlySet<string> } {
  const { n, stage } = opts;
  const q = plan.query;
  const lists: RankedList[] = [
    { name: 'keyword', ids: stage('kw.all', () => words.allWords(allWordsQuery(q), masks, n)) },
  ];
  if (plan.corrections.length > 0) {
    lists.push({
      name: 'keyword',
      ids: stage('kw.typo', () => words.allWords(allWordsQuery(plan.text), masks, n)),
      weight: TYPO_WEIGHT,
    });
  }
  const matched = new Set<string>();
  if (!opts.hybrid) return { lists, matched };
  if (rawTokens(q).length > 1) {
    const lexemes = [...new Set([...distinctLexemes(q), ...distinctLexemes(plan.text)])];
    lists.push({
      name: 'keyword',
      ids: stage('kw.any', () => words.anyWords(lexemes, masks, n)),
      weight: ANY_WORD_WEIGHT,
    });
  }
  // Jobs at the companies named, even misspelled ("antropic"): the 5 best-matching active companies.
  if (plan.named.length > 0) {
    lists.push({ name: 'company', ids: words.jobsOfCompanies(plan.named, masks, n) });
  }
  if (plan.intent && at) {
    const text = plan.intent.text;
    const ids = stage('kw.intent', () => words.allWords(allWordsQuery(text), at, n));
    lists.push({ name: 'company', ids });
    for (const id of ids) matched.add(id);
  }
  return { lists, matched };
}

/** Each worth half a first place in one list: enough to reorder near-ties, not to outrank strong matches. */
const HINT = 0.5;
/** A named company's jobs matching what the query asks of it: above every other match. */
const INTENT = 1;
/**
 * A title that answers every unit of the query, and nothing else, gains this many first places in one list
 * (less as it answers fewer units or holds more words than asked for): the fused lists decide among titles
 * that fit alike.
 */
const FIT = 1.5;
/** A job at the place the query names, in first places, scaled by how well its title fits the rest. */
const PLACE = 1.5;

/** What the boosts read of a job. */
export type BoostFacts = Pick<JobAttrs, 'title' | 'role' | 'companyId' | 'location' | 'remote'>;

export interface BoostHints {
  roles: ReadonlySet<string>;
  atPlace?: (a: BoostFacts) => boolean;
  intent?: { companyId: string; roles: ReadonlySet<string>; matched: ReadonlySet<string> };
  /** The query's units (query/query-terms.ts), without its places and its company. */
  units?: readonly QueryUnit[];
}

/**
 * Boosts of fused jobs: how well the title fits the query, the role the query names, the place it names (for
 * jobs whose title fits the rest), and for a company + role query, the company's jobs whose title matches the
 * rest of the query or whose role it names.
 */
export function jobBoosts(
  lists: readonly RankedList[],
  k: number,
  at: (id: string) => BoostFacts | undefined,
  hints: BoostHints,
): Map<string, number> {
  const boosts = new Map<string, number>();
  const { roles, atPlace, intent } = hints;
  const units = hints.units ?? [];
  if (roles.size === 0 && !atPlace && !intent && units.length === 0) return boosts;
  const first = 1 / (k + 1);
  const seen = new Set<string>();
  for (const list of lists) {
    for (const id of list.ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      const attrs = at(id);
      if (!attrs) continue;
      let score = roles.has(attrs.role) ? HINT * first : 0;
      const fit = units.length > 0 ? titleFit(units, attrs.title, attrs.role) : undefined;
      if (fit) score += FIT * first * fit.coverage ** 2 * (0.5 + 0.25 * fit.precision + 0.25 * fit.order);
      if (atPlace?.(attrs)) score += PLACE * first * (fit ? fit.coverage : 1);
      if (
        intent &&
        attrs.companyId === intent.companyId &&
        (intent.matched.has(id) || intent.roles.has(attrs.role))
      )
        score += INTENT;
      if (score > 0) boosts.set(id, score);
    }
  }
  return boosts;
}

/**
 * Lists from what the query was understood to ask: its role part anywhere, when it differs from the query as
 * corrected (places left out, abbreviations spelled out: "PM london" -> "product manager"); the categories its
 * role phrases name ("customer-facing engineer": engineers of the seven client-facing categories, whatever
 * their titles call the role); and, when it names a place, the role part at that place.
 */
export function understoodLists(
  words: KeywordIndex,
  plan: JobQueryPlan,
  terms: QueryTerms,
  rows: { masks: RowMasks | null; ofRoles: () => RowMasks; at: (() => RowMasks) | undefined },
  n: number,
): RankedList[] {
  const rest = terms.text;
  // A description of roles: the jobs of those roles holding words of their role phrases ("sales engineer",
  // "onboarding specialist").
  const lists: RankedList[] = [];
  if (terms.described.length > 0) {
    const phrases = [...new Set(terms.units.flatMap((u) => u.alternatives.flat()))];
    lists.push({ name: 'keyword', ids: words.anyWords(phrases, rows.ofRoles(), n) });
  }
  if (rest.trim() === '') return lists;
  if (allWordsKey(rest) !== allWordsKey(plan.text))
    lists.push({ name: 'keyword', ids: words.allWords(allWordsQuery(rest), rows.masks, n) });
  if (terms.roles.length > 0 && terms.others.trim() !== '')
    lists.push({ name: 'keyword', ids: words.allWords(allWordsQuery(terms.others), rows.ofRoles(), n) });
  if (rows.at) lists.push({ name: 'place', ids: words.allWords(allWordsQuery(rest), rows.at(), n) });
  return lists;
}

const allWordsKey = (text: string) => JSON.stringify(allWordsQuery(text));
