import type { CompanyFilters, JobFilters } from '../../catalog/types.js';
import type { Db } from '../../db/port.js';
import { rawTokens, readLexicon } from '../embedders/static.js';
import type { Embedder } from '../embedders/types.js';
import { DEFAULT_RRF_K, fuseRankings, fuseScored, type RankedList, type Scored } from '../fusion.js';
import { type SearchMode, usesOperators } from '../hybrid.js';
import { jobBoosts, NAME_SIMILARITY } from '../job-lists.js';
import { KeywordSearch } from '../keyword.js';
import { type Highlighter, highlighter } from '../query/highlight.js';
import { describedRoles, QueryTermParser } from '../query/query-terms.js';
import { QueryUnderstanding } from '../query/query-understanding.js';
import { QueryVectors } from '../query-vectors.js';
import type { SearchService } from '../types.js';
import { correctedCompanies, exactCompanies, similarCompanies } from './company-queries.js';
import { planSqlJobQuery, sqlJobLists } from './job-lists.js';
import { jobFacts } from './job-queries.js';
import { NearestRows } from './nearest.js';
import { SqlVocabulary } from './vocabulary.js';

/**
 * Search ranked in the database (SEARCH=sql): the lists, fusion and boosts of the in-memory hybrid search
 * (hybrid.ts), with each list one SQL statement carrying every filter, so a process holds nothing in proportion
 * to the catalog: the vocabulary and the places it keeps for typo tolerance (vocabulary.ts) grow with the
 * catalog's words, not its jobs. Full text over jobs.search_tsv and companies.search_tsv, pg_trgm for misspelled
 * names, pgvector for the semantic lists where the database has it (nearest.ts); without pgvector the keyword
 * lists alone rank. The query understanding is query/'s, called as the in-memory search calls it.
 */

export interface SqlSearchOptions {
  db: Db;
  /** Where the vector columns are made when missing (NearestRows); db when unset. */
  schemaDb?: Db;
  embedder: Embedder;
  now: () => number;
  /** RRF constant (default 60). */
  rrfK?: number;
  /** Candidates taken from each list before fusion (default 100). */
  candidates?: number;
  /** Semantic hits below this cosine are not candidates (default 0.35). */
  minSimilarity?: number;
  mode?: SearchMode;
  onSemanticError?: (err: unknown) => void;
  /** Runs each ranking (the process's admission gate). */
  admit?: <T>(rank: () => Promise<T>) => Promise<T>;
}

export class SqlSearch implements SearchService {
  readonly vocabulary: SqlVocabulary;
  private readonly keyword: KeywordSearch;
  private readonly nearest: NearestRows;
  private readonly understanding = new QueryUnderstanding();
  private readonly terms = new QueryTermParser(readLexicon().lexicon);
  private readonly vectors: QueryVectors;
  private readonly k: number;
  private readonly n: number;
  private readonly minSimilarity: number;
  private readonly mode: SearchMode;
  private readonly admit: <T>(rank: () => Promise<T>) => Promise<T>;

  constructor(private readonly opts: SqlSearchOptions) {
    this.vocabulary = new SqlVocabulary(opts.db, opts.now);
    this.keyword = new KeywordSearch(opts.db);
    this.nearest = new NearestRows(opts.db, () => opts.embedder.id, opts.schemaDb);
    this.vectors = new QueryVectors(opts.embedder, opts.onSemanticError);
    this.k = opts.rrfK ?? DEFAULT_RRF_K;
    this.n = opts.candidates ?? 100;
    this.minSimilarity = opts.minSimilarity ?? 0.35;
    this.mode = opts.mode ?? 'hybrid';
    this.admit = opts.admit ?? ((rank) => rank());
  }

  /** Whether the database offers pgvector, so that searches rank semantic lists too (else keyword lists only). */
  semantic(): Promise<boolean> {
    return this.nearest.enabled();
  }

  /** Reads the vocabulary and the embedder's data ahead of the first search. */
  async warm(): Promise<void> {
    await this.vocabulary.ready();
    await this.nearest.enabled();
  }

  async searchJobs(query: string, filters: JobFilters, limit: number): Promise<string[]> {
    return (await this.jobs(query, filters, limit, false)).map((e) => e.id);
  }

  /** The shortlist with each job's fused score and what each list contributed to it. */
  explainJobs(query: string, filters: JobFilters, limit: number): Promise<Scored[]> {
    return this.jobs(query, filters, limit, true);
  }

  private async jobs(query: string, filters: JobFilters, limit: number, explain: boolean): Promise<Scored[]> {
    const q = query.trim();
    if (q === '') return [];
    if (this.mode !== 'semantic' && usesOperators(q)) {
      const ids = await this.admit(async () => {
        await this.vocabulary.ready();
        return this.keyword.searchJobs(this.vocabulary.corrected(q).text, filters, limit);
      });
      return ids.map((id, i) => ({
        id,
        score: 1 / (this.k + i + 1),
        parts: { keyword: 1 / (this.k + i + 1) },
      }));
    }
    return this.admit(() => this.rankJobs(q, filters, limit, explain));
  }

  private async rankJobs(q: string, filters: JobFilters, limit: number, explain: boolean): Promise<Scored[]> {
    await this.vocabulary.ready();
    const hybrid = this.mode === 'hybrid';
    const plan =
      this.mode === 'semantic'
        ? { query: q, text: q, corrections: [], named: [] }
        : await planSqlJobQuery(this.opts.db, this.vocabulary, q, hybrid);
    const nearest = this.mode !== 'keyword' && (await this.nearest.enabled()) ? this.nearest : undefined;
    const vector = nearest ? await this.vectors.of(plan.text) : undefined;
    const rest = plan.intent && vector ? await this.vectors.of(plan.intent.text) : undefined;
    const places = hybrid
      ? this.vocabulary.places.placesMatching(this.understanding.locationTerms(plan.text))
      : [];
    const terms = this.terms.parse(plan.text, places, /[\p{L}\p{N}]$/u.test(plan.query));
    const locations = places.length > 0 ? [...this.vocabulary.places.locationsWith(places)] : [];
    const { lists, matched } = await sqlJobLists(this.opts.db, nearest, {
      plan,
      terms,
      filters,
      hybrid,
      keyword: this.mode !== 'semantic',
      n: this.n,
      locations,
      minSimilarity: this.minSimilarity,
      dense: this.vocabulary.dense,
      sparse: this.vocabulary.sparse,
      ...(vector && { vectors: { query: vector, ...(rest && { rest }) } }),
    });
    if (!hybrid) return fuseScored(lists, { k: this.k, limit, explain });
    const facts = await jobFacts(this.opts.db, [...new Set(lists.flatMap((l) => l.ids))]);
    const atLocation = new Set(locations);
    const remote = places.includes('remote');
    const intent = plan.intent;
    const boosts = jobBoosts(lists, this.k, (id) => facts.get(id), {
      roles: new Set<string>([...this.understanding.roles(plan.text), ...describedRoles(terms)]),
      units: intent ? this.terms.parse(intent.text, places, false).units : terms.units,
      ...(places.length > 0 && { atPlace: (a) => (remote && a.remote) || atLocation.has(a.location) }),
      ...(intent && {
        intent: {
          companyId: intent.companyId,
          roles: new Set(this.understanding.roles(intent.text)),
          matched,
        },
      }),
    });
    return fuseScored(lists, { k: this.k, boosts, limit, explain });
  }

  highlighter(query: string): Highlighter {
    const q = query.trim();
    return highlighter(q, this.mode === 'semantic' ? q : this.vocabulary.corrected(q).text);
  }

  async searchCompanies(query: string, filters: CompanyFilters, limit: number): Promise<string[]> {
    const q = query.trim();
    if (q === '') return [];
    if (this.mode !== 'semantic' && usesOperators(q))
      return this.admit(() => this.keyword.searchCompanies(q, filters, limit));
    return this.admit(() => this.rankCompanies(q, filters, limit));
  }

  private async rankCompanies(q: string, filters: CompanyFilters, limit: number): Promise<string[]> {
    const { db } = this.opts;
    const lists: Promise<RankedList>[] = [];
    const list = (ids: Promise<string[]>, weight?: number) =>
      lists.push(ids.then((found) => ({ ids: found, ...(weight !== undefined && { weight }) })));
    let pinned: Promise<string[]> = Promise.resolve([]);
    if (this.mode !== 'semantic') {
      list(this.keyword.searchCompanies(q, filters, this.n));
      if (this.mode === 'hybrid') {
        if (rawTokens(q).length > 1) list(this.keyword.anyWordCompanies(q, filters, this.n), 0.5);
        list(similarCompanies(db, q, NAME_SIMILARITY, filters, this.n).then((m) => m.map((c) => c.id)));
        const names = Promise.all([exactCompanies(db, q, filters), correctedCompanies(db, q, filters)]);
        // The exact name first; else the names a typo away ("anthropc"), nearest first.
        list(names.then(([exact, corrected]) => (exact.length > 0 ? corrected : [])));
        pinned = names.then(([exact, corrected]) => (exact.length > 0 ? exact : corrected));
      }
    }
    if (this.mode !== 'keyword' && (await this.nearest.enabled())) {
      const vector = await this.vectors.of(q);
      if (vector) list(this.nearest.companies(vector, filters, this.n, this.minSimilarity));
    }
    return fuseRankings(await Promise.all(lists), { k: this.k, pinned: await pinned, limit });
  }
}
