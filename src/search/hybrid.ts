import { companyFilterSql, jobFilterSql } from '../catalog/filters.js';
import { slugify } from '../catalog/tags.js';
import type { CompanyFilters, JobFilters } from '../catalog/types.js';
import type { Db } from '../db/port.js';
import type { CatalogIndex, JobAttrs } from './catalog-index.js';
import { rawTokens } from './embedders/static.js';
import type { Embedder } from './embedders/types.js';
import { DEFAULT_RRF_K, fuseRankings, type RankedList } from './fusion.js';
import { JOB_MATCH_WINDOW, KeywordSearch } from './keyword.js';
import { QueryUnderstanding } from './query-understanding.js';
import type { SearchService } from './types.js';

/**
 * Hybrid search: keyword candidates (full text, weighted fields, prefix on the last word; an any-word variant;
 * trigram similarity on company names for misspellings) and semantic candidates (nearest neighbours of the
 * query embedding) are retrieved with every filter applied inside each retrieval, then fused with Reciprocal
 * Rank Fusion. Role words in the query boost jobs of that role category; an exact company name or slug pins
 * that company first. If the embedder fails, search degrades to the keyword lists instead of failing. Queries
 * written with websearch operators get keyword semantics only (see usesOperators).
 */

export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface HybridSearchOptions {
  db: Db;
  index: CatalogIndex;
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
}

/** pg_trgm word_similarity above which a company name counts as a (misspelled) match. */
const NAME_SIMILARITY = 0.5;
/** Weight of the any-word keyword list: recall for long queries, below the all-words list. */
const ANY_WORD_WEIGHT = 0.5;
const QUERY_CACHE_SIZE = 512;

export class HybridSearch implements SearchService {
  private readonly keyword: KeywordSearch;
  private readonly understanding = new QueryUnderstanding();
  private readonly queryVectors = new Map<string, Float32Array>();
  private readonly k: number;
  private readonly n: number;
  private readonly minSimilarity: number;
  private readonly mode: SearchMode;

  constructor(private readonly opts: HybridSearchOptions) {
    this.keyword = new KeywordSearch(opts.db);
    this.k = opts.rrfK ?? DEFAULT_RRF_K;
    this.n = opts.candidates ?? 100;
    this.minSimilarity = opts.minSimilarity ?? 0.35;
    this.mode = opts.mode ?? 'hybrid';
  }

  async searchJobs(query: string, filters: JobFilters, limit: number): Promise<string[]> {
    const q = query.trim();
    if (q === '') return [];
    if (this.mode === 'hybrid' && usesOperators(q)) return this.keyword.searchJobs(q, filters, limit);
    // Once per search: the in-process index catches up with committed writes before it is read.
    if (this.mode !== 'keyword') await this.opts.index.refresh();
    const lists: RankedList[] = [];
    if (this.mode !== 'semantic') {
      lists.push({ ids: await this.keyword.searchJobs(q, filters, this.n) });
      if (this.mode === 'hybrid') {
        if (rawTokens(q).length > 1)
          lists.push({ ids: await this.anyWordJobs(q, filters), weight: ANY_WORD_WEIGHT });
        lists.push({ ids: await this.jobsOfSimilarCompanies(q, filters) });
      }
    }
    if (this.mode !== 'keyword') {
      const vector = await this.queryVector(q);
      if (vector) {
        const hits = this.opts.index.searchJobs(vector, filters, this.n, this.minSimilarity);
        lists.push({ ids: hits.map((h) => h.id) });
      }
    }
    const boosts = new Map<string, number>();
    if (this.mode === 'hybrid') {
      const places = this.opts.index.placesMatching(this.understanding.locationTerms(q));
      const atPlace = (a: JobAttrs) => places.some((p) => a.location.includes(p));
      if (places.length > 0) {
        // Jobs at the places named ("paris", "solutions engineer london"), nearest to the query first.
        const vector = await this.queryVector(q);
        if (vector)
          lists.push({
            ids: this.opts.index.searchJobs(vector, filters, this.n, -1, atPlace).map((h) => h.id),
          });
      }
      const roles = new Set<string>(this.understanding.roles(q));
      if (roles.size > 0 || places.length > 0) {
        // Each worth half a first place in one list: enough to reorder near-ties, not to outrank strong matches.
        const boost = 0.5 / (this.k + 1);
        for (const list of lists) {
          for (const id of list.ids) {
            const attrs = this.opts.index.jobs.attributes(id);
            if (!attrs) continue;
            const score =
              (roles.has(attrs.role) ? boost : 0) + (places.length > 0 && atPlace(attrs) ? boost : 0);
            if (score > 0) boosts.set(id, score);
          }
        }
      }
    }
    return fuseRankings(lists, { k: this.k, boosts, limit });
  }

  async searchCompanies(query: string, filters: CompanyFilters, limit: number): Promise<string[]> {
    const q = query.trim();
    if (q === '') return [];
    if (this.mode === 'hybrid' && usesOperators(q)) return this.keyword.searchCompanies(q, filters, limit);
    if (this.mode !== 'keyword') await this.opts.index.refresh();
    const lists: RankedList[] = [];
    let pinned: string[] = [];
    if (this.mode !== 'semantic') {
      lists.push({ ids: await this.keyword.searchCompanies(q, filters, this.n) });
      if (this.mode === 'hybrid') {
        if (rawTokens(q).length > 1) {
          lists.push({ ids: await this.anyWordCompanies(q, filters), weight: ANY_WORD_WEIGHT });
        }
        lists.push({ ids: await this.similarCompanies(q, filters, this.n) });
      }
    }
    if (this.mode !== 'keyword') {
      const vector = await this.queryVector(q);
      if (vector) {
        lists.push({
          ids: this.opts.index.searchCompanies(vector, filters, this.n, this.minSimilarity).map((h) => h.id),
        });
      }
    }
    if (this.mode === 'hybrid') pinned = await this.exactCompanies(q, filters);
    return fuseRankings(lists, { k: this.k, pinned, limit });
  }

  private async queryVector(q: string): Promise<Float32Array | undefined> {
    const key = q.toLowerCase();
    const hit = this.queryVectors.get(key);
    if (hit) return hit;
    try {
      const [v] = await this.opts.embedder.embed([q]);
      if (!v) return undefined;
      if (this.queryVectors.size >= QUERY_CACHE_SIZE) {
        this.queryVectors.delete(this.queryVectors.keys().next().value as string);
      }
      this.queryVectors.set(key, v);
      return v;
    } catch (err) {
      this.opts.onSemanticError?.(err);
      return undefined;
    }
  }

  /** Any query word (OR of the stemmed lexemes), ranked by ts_rank: recall for paraphrases and long queries. */
  private async anyWordJobs(q: string, filters: JobFilters): Promise<string[]> {
    const where = jobFilterSql(filters, 4);
    // Bounded like the keyword list (JOB_MATCH_WINDOW): an OR of common words can match most of the catalog.
    const rows = await this.opts.db.query<{ id: string }>(
      `WITH m AS (
         SELECT j.id, j.posted_at FROM jobs j, ${ANY_WORD_TSQUERY} AS w
          WHERE w.q IS NOT NULL AND j.search_tsv @@ w.q AND ${where.sql}
          ORDER BY j.posted_at DESC, j.id DESC LIMIT $3)
       SELECT j.id FROM m JOIN jobs j ON j.id = m.id, ${ANY_WORD_TSQUERY} AS w
        ORDER BY ts_rank(j.search_tsv, w.q) DESC, m.posted_at DESC, m.id DESC LIMIT $2`,
      [q, this.n, JOB_MATCH_WINDOW, ...where.params],
    );
    return rows.map((r) => r.id);
  }

  private async anyWordCompanies(q: string, filters: CompanyFilters): Promise<string[]> {
    const where = companyFilterSql(filters, 3);
    const rows = await this.opts.db.query<{ id: string }>(
      `SELECT c.id FROM companies c, ${ANY_WORD_TSQUERY} AS w
        WHERE w.q IS NOT NULL AND c.search_tsv @@ w.q AND ${where.sql}
        ORDER BY ts_rank(c.search_tsv, w.q) DESC, c.id LIMIT $2`,
      [q, this.n, ...where.params],
    );
    return rows.map((r) => r.id);
  }

  /** Companies whose name appears in the query, even misspelled ("antropic", "databriks"): pg_trgm. */
  private async similarCompanies(q: string, filters: CompanyFilters, limit: number): Promise<string[]> {
    const where = companyFilterSql(filters, 4);
    const rows = await this.opts.db.query<{ id: string }>(
      `SELECT c.id FROM companies c
        WHERE word_similarity(lower(c.name), lower($1)) >= $2 AND ${where.sql}
        ORDER BY word_similarity(lower(c.name), lower($1)) DESC, c.id LIMIT $3`,
      [q, NAME_SIMILARITY, limit, ...where.params],
    );
    return rows.map((r) => r.id);
  }

  /** Jobs at companies named (or misspelled) in the query, best name match first, then newest. */
  private async jobsOfSimilarCompanies(q: string, filters: JobFilters): Promise<string[]> {
    const where = jobFilterSql(filters, 4);
    const rows = await this.opts.db.query<{ id: string }>(
      `WITH m AS (
         SELECT c.id, word_similarity(lower(c.name), lower($1)) AS sim FROM companies c
          WHERE c.active AND word_similarity(lower(c.name), lower($1)) >= $2
          ORDER BY sim DESC, c.id LIMIT 5)
       SELECT j.id FROM jobs j JOIN m ON m.id = j.company_id
        WHERE ${where.sql}
        ORDER BY m.sim DESC, j.posted_at DESC, j.id DESC LIMIT $3`,
      [q, NAME_SIMILARITY, this.n, ...where.params],
    );
    return rows.map((r) => r.id);
  }

  /** A company whose name equals the query (case-insensitively) or whose slug equals its slug form. */
  private async exactCompanies(q: string, filters: CompanyFilters): Promise<string[]> {
    const where = companyFilterSql(filters, 3);
    const rows = await this.opts.db.query<{ id: string }>(
      `SELECT c.id FROM companies c WHERE (lower(c.name) = lower($1) OR c.slug = $2) AND ${where.sql}
        ORDER BY (lower(c.name) = lower($1)) DESC, c.id`,
      [q, slugify(q), ...where.params],
    );
    return rows.map((r) => r.id);
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

/** The query's lexemes joined with OR; NULL when it has none (only stop words). */
const ANY_WORD_TSQUERY = `(SELECT nullif(replace(plainto_tsquery('english', $1)::text, ' & ', ' | '), '')::tsquery AS q)`;
