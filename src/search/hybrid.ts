import { LRUCache } from 'lru-cache';
import { companyPredicate } from '../catalog/filters.js';
import type { CatalogReplica, JobAttrs } from '../catalog/replica/catalog-replica.js';
import type { CompanyFilters, JobFilters } from '../catalog/types.js';
import type { Db } from '../db/port.js';
import { rawTokens, readLexicon } from './embedders/static.js';
import type { Embedder } from './embedders/types.js';
import { DEFAULT_RRF_K, fuseRankings, fuseScored, type RankedList, type Scored } from './fusion.js';
import {
  type JobQueryPlan,
  jobBoosts,
  keywordLists,
  NAME_SIMILARITY,
  planJobQuery,
  understoodLists,
} from './job-lists.js';
import { KeywordSearch } from './keyword.js';
import { KeywordIndex } from './keyword-index/keyword-index.js';
import { type Highlighter, highlighter } from './query/highlight.js';
import { describedRoles, QueryTermParser, type QueryTerms } from './query/query-terms.js';
import { QueryUnderstanding } from './query/query-understanding.js';
import { QueryVectors } from './query-vectors.js';
import type { SearchService } from './types.js';
import type { Hit, TopK } from './vectors/vector-index.js';

/**
 * Hybrid search: keyword candidates (full text, weighted fields, prefix on the last word; an any-word variant;
 * trigram similarity on company names for misspellings) and semantic candidates (nearest neighbours of the
 * query embedding) are retrieved with every filter applied inside each retrieval, then fused with Reciprocal
 * Rank Fusion. Role words in the query boost jobs of that role category; an exact company name or slug pins
 * that company first. If the embedder fails, search degrades to the keyword lists instead of failing. Queries
 * written with websearch operators get keyword semantics only, from PostgreSQL (see usesOperators).
 *
 * Job search runs in memory, from the index the change feed keeps current: the keyword lists from its inverted
 * index (keyword-index/keyword-index.ts), the semantic ones from one vector scan. Company search keeps PostgreSQL full text
 * for its all-words and any-word lists (it covers descriptions and research summaries, ~5,000 rows); company
 * names (misspellings, exact names) are matched in memory.
 */
export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface HybridSearchOptions {
  db: Db;
  index: CatalogReplica;
  embedder: Embedder;
  /** RRF constant (default 60). */
  rrfK?: number;
  /** Candidates taken from each retriever before fusion (default 100). */
  candidates?: number;
  /** Semantic hits below this cosine are not candidates (default 0.35): they would only pad the shortlist. */
  minSimilarity?: number;
  /** Which retrievers run (default hybrid); the relevance benchmark compares all three. */
  mode?: SearchMode;
  /** Called when the semantic half fails and search falls back to keywords. */
  onSemanticError?: (err: unknown) => void;
  /** Called with each stage's wall time in ms (the latency bench's breakdown). */
  onStage?: (stage: string, ms: number) => void;
  /**
   * Runs each ranking (the process's admission gate, admission.ts). A job search its shortlist cache answers
   * skips it: a cached answer costs no ranking, so it never waits behind those that do, nor is refused.
   */
  admit?: <T>(rank: () => Promise<T>) => Promise<T>;
  /** False: job scans stay on the event loop even where the index has a scan thread (default true). */
  scanThread?: boolean;
}

/** Weight of the any-word keyword list: recall for long queries, below the all-words list. */
const ANY_WORD_WEIGHT = 0.5;
/**
 * Job shortlists kept (the key, and the rows as int32 slots of the index): about the memory a quarter as many
 * would take as id arrays. A quarter as many are evicted on the catalog bench's search row before their next
 * page or repeat comes, and the row answers fewer requests a second (docs/search.md).
 */
const SHORTLIST_CACHE_SIZE = 8_192;

interface Shortlist {
  /** CatalogReplica.generation it was computed at: any change applied since makes it stale. */
  generation: number;
  /** The jobs' slots in the index's vectors (VectorIndex.slotOf): stable while the generation is. */
  slots: Int32Array;
}

export class HybridSearch implements SearchService {
  private readonly sql: KeywordSearch;
  private readonly understanding = new QueryUnderstanding();
  private readonly terms = new QueryTermParser(readLexicon().lexicon);
  private readonly queryVectors: QueryVectors;
  /**
   * Job shortlists by query, filters and size: the pages of one search (page=2, another limit) and repeats of it
   * share one computation. Exact: an entry serves only while the index is at the generation it was made at, and
   * a search whose semantic half failed is not kept (the next one may get it).
   */
  private readonly shortlists = new LRUCache<string, Shortlist>({ max: SHORTLIST_CACHE_SIZE });
  /** Query embeddings that failed so far: a shortlist ranked while one failed is keywords only, not kept. */
  private semanticFailures = 0;
  private readonly k: number;
  private readonly n: number;
  private readonly minSimilarity: number;
  private readonly mode: SearchMode;
  private readonly admit: <T>(rank: () => Promise<T>) => Promise<T>;

  constructor(private readonly opts: HybridSearchOptions) {
    this.admit = opts.admit ?? ((rank) => rank());
    this.sql = new KeywordSearch(opts.db);
    this.k = opts.rrfK ?? DEFAULT_RRF_K;
    this.n = opts.candidates ?? 100;
    this.minSimilarity = opts.minSimilarity ?? 0.35;
    this.mode = opts.mode ?? 'hybrid';
    this.queryVectors = new QueryVectors(opts.embedder, (err) => {
      this.semanticFailures++;
      opts.onSemanticError?.(err);
    });
    // Built now, so that the index's loads fill it as they go instead of the first search building it.
    if (this.mode !== 'semantic') KeywordIndex.of(opts.index);
  }

  async searchJobs(query: string, filters: JobFilters, limit: number): Promise<string[]> {
    const q = query.trim();
    if (q === '') return [];
    if (this.mode !== 'semantic' && usesOperators(q))
      return this.admit(() => this.operatorJobs(q, filters, limit));
    // Once per search: the in-process index catches up with committed writes before it is read.
    await this.stage('refresh', () => this.opts.index.refresh());
    const index = this.opts.index;
    const key = `${q}\u0000${limit}\u0000${JSON.stringify(filters)}`;
    const generation = index.generation;
    const kept = this.shortlists.get(key);
    const ids = kept?.generation === generation ? this.idsAt(kept.slots) : undefined;
    if (ids !== undefined) return ids;
    return this.admit(async () => {
      // Waiting for admission may have let the index move on: rank what it holds now.
      const at = index.generation;
      const failures = this.semanticFailures;
      const ids = (await this.rankJobs(q, filters, limit)).map((e) => e.id);
      if (index.generation === at && this.semanticFailures === failures) this.keep(key, at, ids);
      return ids;
    });
  }

  /**
   * A websearch-syntax query from PostgreSQL, its misspelled words corrected from the index vocabulary first
   * (a misspelled word matches nothing there, so the corrected query loses no exact match).
   */
  private async operatorJobs(q: string, filters: JobFilters, limit: number): Promise<string[]> {
    await this.opts.index.refresh();
    return this.sql.searchJobs(KeywordIndex.of(this.opts.index).corrected(q).text, filters, limit);
  }

  /** Keeps a shortlist computed at `generation` (the least recently used goes when the cache is full). */
  private keep(key: string, generation: number, ids: readonly string[]): void {
    const slots = new Int32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const slot = this.opts.index.jobs.slotOf(ids[i]!);
      // Not a row of the index (cannot happen at an unchanged generation): not kept rather than kept wrong.
      if (slot === undefined) return;
      slots[i] = slot;
    }
    this.shortlists.set(key, { generation, slots });
  }

  /** A kept shortlist's ids; undefined if a slot is empty (then it is ranked anew). */
  private idsAt(slots: Int32Array): string[] | undefined {
    const ids: string[] = [];
    for (const slot of slots) {
      const id = this.opts.index.jobs.idAt(slot);
      if (id === undefined) return undefined;
      ids.push(id);
    }
    return ids;
  }

  /** Marks what the query matched in a job's title and company name (its corrections included). */
  highlighter(query: string): Highlighter {
    const q = query.trim();
    const corrected = this.mode === 'semantic' ? q : KeywordIndex.of(this.opts.index).corrected(q).text;
    return highlighter(q, corrected);
  }

  /**
   * The shortlist with each job's fused score and what each list contributed (`parts`): ranked anew, never
   * from the shortlist cache, for callers who ask why a job ranks where it does.
   */
  async explainJobs(query: string, filters: JobFilters, limit: number): Promise<Scored[]> {
    const q = query.trim();
    if (q === '') return [];
    if (this.mode !== 'semantic' && usesOperators(q)) {
      const ids = await this.admit(() => this.operatorJobs(q, filters, limit));
      return ids.map((id, i) => ({
        id,
        score: 1 / (this.k + i + 1),
        parts: { keyword: 1 / (this.k + i + 1) },
      }));
    }
    await this.opts.index.refresh();
    return this.admit(() => this.rankJobs(q, filters, limit, true));
  }

  private async rankJobs(q: string, filters: JobFilters, limit: number, explain = false): Promise<Scored[]> {
    const index = this.opts.index;
    const plan =
      this.mode === 'semantic'
        ? { query: q, text: q, corrections: [], named: [] }
        : planJobQuery(KeywordIndex.of(index), q, this.mode === 'hybrid', (w) => index.places.namesPlace(w));
    const vector =
      this.mode !== 'keyword' ? await this.stage('embed', () => this.queryVector(plan.text)) : undefined;
    // A company + role query also ranks the company's jobs by what it asks of it ("solutions").
    const rest = plan.intent && vector ? await this.queryVector(plan.intent.text) : undefined;
    const vectors = vector && { query: vector, ...(rest && { rest }) };
    const generation = index.generation;
    const offload = this.opts.scanThread !== false;
    const ranked = await this.rankNow(plan, filters, { limit, explain }, vectors, offload);
    if (index.generation === generation) return ranked;
    // The index moved on while the scan ran on the scan thread: rank again, in one synchronous stretch.
    return this.rankNow(plan, filters, { limit, explain }, vectors, false);
  }

  /**
   * Every list and their fusion. Without `offload` nothing awaits: the filters' masks, every list and the scan
   * see the index in one state. With it, the scan's pass over every row runs on the scan thread (when the index
   * has one) while the keyword lists are ranked here; the caller checks that the index stayed put meanwhile.
   */
  private rankNow(
    plan: JobQueryPlan,
    filters: JobFilters,
    out: { limit: number; explain: boolean },
    vectors: { query: Float32Array; rest?: Float32Array } | undefined,
    offload: boolean,
  ): Scored[] | Promise<Scored[]> {
    const vector = vectors?.query;
    const index = this.opts.index;
    const hybrid = this.mode === 'hybrid';
    const masks = index.jobMasks(filters);
    const places = hybrid ? index.places.placesMatching(this.understanding.locationTerms(plan.text)) : [];
    const terms = this.terms.parse(plan.text, places, /[\p{L}\p{N}]$/u.test(plan.query));
    // The distinct locations naming a place, once, at first use: a set lookup per job, not a test per place.
    let atPlaces: Set<string> | undefined;
    const locations = () => (atPlaces ??= index.places.locationsWith(places));
    const remote = places.includes('remote');
    const atPlace = (a: { remote: boolean; location: string }) =>
      (remote && a.remote) || locations().has(a.location);
    const intent = plan.intent;
    const atCompany = intent ? index.jobCodes.equalTo(masks, 'company', intent.companyId) : undefined;
    const wanted: TopK<JobAttrs>[] = vector
      ? [{ k: this.n, admit: index.jobRows(masks), minScore: this.minSimilarity }]
      : [];
    const semantic = ['semantic'];
    // Jobs at the places named ("paris", "solutions engineer london"), nearest to the query first: a second list
    // filled by the same scan, from the rows at those places.
    if (vector && places.length > 0) {
      const placeMasks = index.jobCodes.narrowed(masks, 'place', locations());
      wanted.push({
        k: this.n,
        admit: index.jobRows(placeMasks),
        within: () => index.jobsAtLocations(placeMasks),
        minScore: -1,
      });
      semantic.push('place');
    }
    // Boxed so the stage times the posting, not the scan (stage() waits for a promise it is given).
    const scan =
      vector && offload
        ? this.stage('scan.post', () => ({ hits: index.jobs.searchEachOffloaded(vector, wanted) })).hits
        : undefined;
    const stage = this.stage.bind(this) as <T>(name: string, run: () => T) => T;
    const { lists, matched } =
      this.mode === 'semantic'
        ? { lists: [], matched: new Set<string>() }
        : keywordLists(KeywordIndex.of(index), plan, masks, atCompany, { n: this.n, hybrid, stage });
    if (hybrid) {
      const at = places.length > 0 ? () => index.jobCodes.narrowed(masks, 'place', locations()) : undefined;
      const ofRoles = () => index.jobCodes.narrowed(masks, 'role', terms.roles);
      lists.push(...understoodLists(KeywordIndex.of(index), plan, terms, { masks, ofRoles, at }, this.n));
    }
    // The named company's jobs nearest to what the query asks of it: a pass over that company's rows only.
    if (vectors?.rest && intent && atCompany) {
      const words = KeywordIndex.of(index);
      const slots = () => words.jobIdsOf(intent.companyId).map((id) => index.jobs.slotOf(id) ?? -1);
      const [hits] = index.jobs.searchEach(vectors.rest, [
        { k: this.n, admit: index.jobRows(atCompany), within: slots, minScore: -1 },
      ]);
      lists.push({ name: 'company', ids: hits!.map((h) => h.id) });
    }
    const fuse = (found: Hit[][]): Scored[] => {
      for (const [i, hits] of found.entries()) lists.push({ name: semantic[i]!, ids: hits.map((h) => h.id) });
      const hints = hybrid
        ? this.hints(plan, terms, places, atCompany && matched)
        : { roles: new Set<string>() };
      const boosts = jobBoosts(lists, this.k, (id) => index.jobs.attributes(id), {
        ...hints,
        ...(places.length > 0 && { atPlace }),
      });
      return this.stage('fuse', () => fuseScored(lists, { k: this.k, boosts, ...out }));
    };
    if (!vector) return fuse([]);
    if (scan) return this.stage('scan.wait', () => scan).then(fuse);
    return fuse(this.stage('scan', () => index.jobs.searchEach(vector, wanted)));
  }

  /** What the boosts read of the query; `matched`: the named company's jobs matching the rest of it. */
  private hints(plan: JobQueryPlan, terms: QueryTerms, places: string[], matched?: ReadonlySet<string>) {
    const intent = plan.intent;
    return {
      roles: new Set<string>([...this.understanding.roles(plan.text), ...describedRoles(terms)]),
      units: intent ? this.terms.parse(intent.text, places, false).units : terms.units,
      ...(intent &&
        matched && {
          intent: {
            companyId: intent.companyId,
            roles: new Set<string>(this.understanding.roles(intent.text)),
            matched,
          },
        }),
    };
  }

  async searchCompanies(query: string, filters: CompanyFilters, limit: number): Promise<string[]> {
    const q = query.trim();
    if (q === '') return [];
    return this.admit(() => this.rankCompanies(q, filters, limit));
  }

  private async rankCompanies(q: string, filters: CompanyFilters, limit: number): Promise<string[]> {
    if (this.mode !== 'semantic' && usesOperators(q)) return this.sql.searchCompanies(q, filters, limit);
    await this.opts.index.refresh();
    const index = this.opts.index;
    const pass = companyPredicate(filters);
    const lists: RankedList[] = [];
    let pinned: string[] = [];
    if (this.mode !== 'semantic') {
      lists.push({ ids: await this.sql.searchCompanies(q, filters, this.n) });
      if (this.mode === 'hybrid') {
        if (rawTokens(q).length > 1) {
          lists.push({ ids: await this.sql.anyWordCompanies(q, filters, this.n), weight: ANY_WORD_WEIGHT });
        }
        const words = KeywordIndex.of(index);
        lists.push({
          ids: words
            .similarCompanies(q, NAME_SIMILARITY, pass)
            .slice(0, this.n)
            .map((m) => m.id),
        });
        // The exact name first; else the names a typo away ("anthropc"), nearest first.
        const [exact, corrected] = [words.exactCompanies(q, pass), words.correctedCompanies(q, pass)];
        lists.push({ ids: exact.length > 0 ? corrected : [] });
        pinned = exact.length > 0 ? exact : corrected;
      }
    }
    if (this.mode !== 'keyword') {
      const vector = await this.queryVector(q);
      if (vector) {
        lists.push({
          ids: index.companies.search(vector, this.n, pass, this.minSimilarity).map((h) => h.id),
        });
      }
    }
    return fuseRankings(lists, { k: this.k, pinned, limit });
  }

  /** Runs one stage, reporting its wall time when asked to (the latency bench's breakdown). */
  private stage<T>(name: string, run: () => T): T {
    if (!this.opts.onStage) return run();
    const t0 = performance.now();
    const out = run();
    if (out instanceof Promise) {
      return out.finally(() => this.opts.onStage?.(name, performance.now() - t0)) as T;
    }
    this.opts.onStage(name, performance.now() - t0);
    return out;
  }

  private queryVector(q: string): Promise<Float32Array | undefined> {
    return this.queryVectors.of(q);
  }
}

/**
 * Websearch syntax ("quoted phrase", -exclusion, or) asks for exact keyword semantics that neither nearest
 * neighbours nor an any-word list can honour (a semantic neighbour of "engineer -kubernetes" may well be a
 * Kubernetes job), so such queries are answered by the keyword retriever alone.
 */
export function usesOperators(q: string): boolean {
  return /"|(^|\s)-[\p{L}\p{N}]|\sor\s/iu.test(q);
}
