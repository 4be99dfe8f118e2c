import { locationHolds } from '../../catalog/fields/job-filters.js';
import type { JobFilters } from '../../catalog/types.js';
import type { Db } from '../../db/port.js';
import { rawTokens } from '../embedders/static.js';
import type { RankedList } from '../fusion.js';
import { type JobQueryPlan, NAME_SIMILARITY } from '../job-lists.js';
import { type AllWordsQuery, allWordsQuery, distinctLexemes } from '../keyword-index/lexemes.js';
import { companyIntent } from '../query/company-intent.js';
import type { QueryTerms } from '../query/query-terms.js';
import {
  allWordsTsQuery,
  anyWordTsQuery,
  companyJobCounts,
  jobsOfCompanies,
  rankedJobs,
  type Within,
} from './job-queries.js';
import type { NearestRows } from './nearest.js';
import type { SqlVocabulary } from './vocabulary.js';

/**
 * The lists of a job search ranked in the database: the same lists, with the same weights, as the in-memory
 * search (job-lists.ts, hybrid.ts), each one statement. They run concurrently: on PostgreSQL each takes a
 * connection of the pool; on the embedded database they queue on its one connection.
 */

const ANY_WORD_WEIGHT = 0.5;
const TYPO_WEIGHT = 0.8;

/** The query understood (planJobQuery's plan), reading names and job counts from the database. */
export async function planSqlJobQuery(
  db: Db,
  words: SqlVocabulary,
  q: string,
  hybrid: boolean,
): Promise<JobQueryPlan> {
  const { text, corrections } = words.corrected(q, words.places.namesPlace);
  if (!hybrid) return { query: q, text, corrections, named: [] };
  // The five best, as similarCompanies would list them for no filter (best first, then by id).
  const named = words.names.match(q.toLowerCase(), NAME_SIMILARITY).slice(0, 5);
  const companies = await companyJobCounts(
    db,
    named.map((m) => m.id),
  );
  const intent = companyIntent(
    q,
    named.map((m) => m.id),
    {
      name: (id) => companies.get(id)?.name,
      frequency: words.frequency,
      jobCount: (id) => companies.get(id)?.jobs ?? 0,
    },
  );
  return {
    query: q,
    text,
    corrections,
    named,
    ...(intent && {
      intent: { ...intent, text: words.corrected(intent.rest, words.places.namesPlace).text },
    }),
  };
}

export interface ListInputs {
  plan: JobQueryPlan;
  terms: QueryTerms;
  filters: JobFilters;
  hybrid: boolean;
  /** False: the semantic lists only (the relevance bench's semantic mode). */
  keyword: boolean;
  n: number;
  /** The distinct locations of the places the query names (none: it names none). */
  locations: readonly string[];
  vectors?: { query: Float32Array; rest?: Float32Array };
  minSimilarity: number;
  /** Whether an all-words query matches many jobs (SqlVocabulary.dense): its list then walks the newest jobs. */
  dense: (q: AllWordsQuery, whole: boolean) => boolean;
  /** Whether lexemes match few jobs (SqlVocabulary.sparse): a list of any of them then sorts every match. */
  sparse: (lexemes: readonly string[]) => boolean;
}

const allWords = (text: string) => allWordsTsQuery(allWordsQuery(text));

/**
 * Whether a list whose words many titles hold is better planned by PostgreSQL than walked. The walk tests the
 * newest jobs, or a filter's index in date order (one role, one department: migration 0195 carries the words in
 * both). A pay floor has no index in date order, so its walk went through the newest jobs and read the pay of
 * every one: planned, the pay index answers alone (fresh searches with `salary_min` at 1M jobs, idle: p99
 * 675-697 ms planned against 2,097-2,322 ms walked). Several roles at once (client_facing, the roles a query
 * describes) stay walked: planning them only helped titles that no client-facing job holds, and cost the common
 * case more (fresh searches with `client_facing=true`, p50 92-117 ms planned against 80-99 ms walked; the
 * comparison is in docs/performance.md).
 */
const plannedByPostgres = (filters: JobFilters): boolean => filters.salary !== undefined;

/**
 * The query's places that the request's location filter keeps: the same jobs, but PostgreSQL is given the few
 * places both admit, not every place of a region with a LIKE beside it (which it answered through the trigram
 * index, one search per place: "customer success us remote" with location=canada, 2 s at 100,000 jobs).
 */
function placesKept(locations: readonly string[], filters: JobFilters): string[] {
  const { location } = filters;
  return location === undefined ? [...locations] : locations.filter((l) => locationHolds(location, l));
}

/** Several categories: `= ANY`, which no index answers in date order before PostgreSQL 17. */
const several = (roles: readonly string[] | undefined): boolean => roles === undefined || roles.length > 1;

/**
 * Whether a list's walk goes through the newest jobs of the whole catalog (SqlVocabulary.dense's `whole`): no
 * condition but the words, remote-only and several role categories, which the walk tests entry by entry. One
 * role, one department, a place, a company or a location each have an index the walk takes instead, holding
 * few of the catalog's entries.
 */
function walksNewest(filters: JobFilters, within: Within): boolean {
  if (within.locations !== undefined || within.companyId !== undefined || !several(within.roles))
    return false;
  const { remoteOnly: _remote, roleCategories, ...others } = filters;
  return several(roleCategories) && Object.values(others).every((v) => v === undefined);
}

/** Every list, and the ids of the named company's jobs that match what the query asks of it. */
export async function sqlJobLists(
  db: Db,
  nearest: NearestRows | undefined,
  x: ListInputs,
): Promise<{ lists: RankedList[]; matched: ReadonlySet<string> }> {
  const { plan, terms, filters, n } = x;
  /** The list of jobs holding any of the lexemes. */
  const any = (lexemes: readonly string[], within: Within = {}) =>
    rankedJobs(db, anyWordTsQuery(lexemes), filters, within, n, x.sparse(lexemes) ? 'sort' : 'plan');
  /** The list of jobs holding every word of the text (the last as a prefix). */
  const all = (text: string, within: Within = {}) => {
    const q = allWordsQuery(text);
    const walk = !plannedByPostgres(filters) && x.dense(q, walksNewest(filters, within));
    return rankedJobs(db, allWordsTsQuery(q), filters, within, n, walk ? 'walk' : 'plan');
  };
  const lists: Promise<RankedList>[] = [];
  const add = (name: string, ids: Promise<string[]>, weight?: number) =>
    lists.push(ids.then((found) => ({ name, ids: found, ...(weight !== undefined && { weight }) })));
  if (x.keyword) add('keyword', all(plan.query));
  if (plan.corrections.length > 0) add('keyword', all(plan.text), TYPO_WEIGHT);
  let matched: Promise<string[]> = Promise.resolve([]);
  if (x.hybrid) {
    if (rawTokens(plan.query).length > 1) {
      const lexemes = [...new Set([...distinctLexemes(plan.query), ...distinctLexemes(plan.text)])];
      add('keyword', any(lexemes), ANY_WORD_WEIGHT);
    }
    if (plan.named.length > 0) add('company', jobsOfCompanies(db, plan.named, filters, n));
    if (plan.intent) {
      matched = all(plan.intent.text, { companyId: plan.intent.companyId });
      add('company', matched);
    }
    // A description of roles: the jobs of those roles holding words of their role phrases (job-lists.ts).
    if (terms.described.length > 0) {
      const phrases = [...new Set(terms.units.flatMap((u) => u.alternatives.flat()))];
      add('keyword', any(phrases, { roles: terms.roles }));
    }
    const rest = terms.text;
    if (rest.trim() !== '') {
      if (allWords(rest) !== allWords(plan.text)) add('keyword', all(rest));
      if (terms.roles.length > 0 && terms.others.trim() !== '')
        add('keyword', all(terms.others, { roles: terms.roles }));
      if (x.locations.length > 0) add('place', all(rest, { locations: placesKept(x.locations, filters) }));
    }
  }
  const v = x.vectors;
  if (v && nearest) {
    add('semantic', nearest.jobs(v.query, filters, {}, n, x.minSimilarity));
    if (x.locations.length > 0)
      add('place', nearest.jobs(v.query, filters, { locations: x.locations }, n, -1));
    if (v.rest && plan.intent)
      add('company', nearest.jobs(v.rest, filters, { companyId: plan.intent.companyId }, n, -1));
  }
  return { lists: await Promise.all(lists), matched: new Set(await matched) };
}
