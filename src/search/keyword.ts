import { companyFilterSql, jobFilterSql } from '../catalog/filters.js';
import { COMPANY_ORDER } from '../catalog/sql/companies.js';
import type { CompanyFilters, JobFilters } from '../catalog/types.js';
import type { Queryable } from '../db/port.js';
import { joinWordForms } from './query/word-forms.js';
import type { SearchService } from './types.js';

/**
 * Keyword-only search over the generated tsvector columns (jobs: title A, company name B; companies: name A,
 * one-liner B, description C, research summary D). The query is websearch syntax ("quoted phrases", or, -not)
 * and its last bare word also matches as a prefix, so "kube" finds Kubernetes while the user is still typing.
 * Every catalog filter is part of the same WHERE, so a filter never empties a shortlist that had matches.
 */

export interface TsQueryParts {
  /** websearch_to_tsquery input: the query without the prefix word. */
  web: string;
  /** to_tsquery input for the last word as a prefix (`word:*`), or null when the query ends otherwise. */
  prefix: string | null;
}

/**
 * Splits off the last word for prefix matching when it is a plain word: not quoted, not negated, and not the
 * right side of "or" (prefixing it there would turn the OR into an AND).
 */
export function tsQueryParts(query: string): TsQueryParts {
  const trimmed = query.trim();
  const match = /^(.*?)([\p{L}\p{N}]+)$/u.exec(trimmed);
  if (!match) return { web: trimmed, prefix: null };
  const rest = match[1] ?? '';
  const word = (match[2] ?? '').toLowerCase();
  const quotes = (rest.match(/"/g) ?? []).length;
  const joinedToPrevious = rest !== '' && !/\s$/.test(rest);
  if (quotes % 2 === 1 || joinedToPrevious || /(^|\s)or\s+$/i.test(rest))
    return { web: trimmed, prefix: null };
  return { web: rest.trim(), prefix: `${word}:*` };
}

/** A one-row derived table `s(q)` holding the tsquery built from $a (web text) and $b (prefix text or NULL). */
const tsQuerySql = (a: number, b: number) =>
  `(SELECT websearch_to_tsquery('english', $${a}::text) && coalesce(to_tsquery('english', $${b}::text), ''::tsquery) AS q) s`;

/**
 * Ranking reads every matching row's tsvector, so a word in half the catalog ("engineer") would make one search
 * rank tens of thousands of rows, blocking the embedded database's event loop. Candidates are therefore the
 * most recent matches, at most this many (found through the posted_at index), and only they are ranked.
 */
export const JOB_MATCH_WINDOW = 2000;

/** Ranked job ids for a tsquery built by `tsq` ($1, $2), filters from $4, limit $3, window $N. */
export function rankedJobsSql(tsq: string, filterSql: string, windowParam: number): string {
  return `WITH m AS (
      SELECT j.id, j.posted_at FROM jobs j CROSS JOIN ${tsq}
       WHERE j.search_tsv @@ s.q AND ${filterSql}
       ORDER BY j.posted_at DESC, j.id DESC LIMIT $${windowParam})
    SELECT j.id FROM m JOIN jobs j ON j.id = m.id CROSS JOIN ${tsq}
     ORDER BY ts_rank(j.search_tsv, s.q) DESC, m.posted_at DESC, m.id DESC LIMIT $3`;
}

export class KeywordSearch implements SearchService {
  constructor(private readonly db: Queryable) {}

  async searchJobs(query: string, filters: JobFilters, limit: number): Promise<string[]> {
    // Compounds joined as job titles are stored (search_words, migration 0173): "pre-sales" finds "Presales".
    const parts = tsQueryParts(joinWordForms(query));
    const where = jobFilterSql(filters, 5);
    // Ties in rank fall back to the /jobs order, then id, so equal scores page deterministically.
    const rows = await this.db.query<{ id: string }>(rankedJobsSql(tsQuerySql(1, 2), where.sql, 4), [
      parts.web,
      parts.prefix,
      limit,
      JOB_MATCH_WINDOW,
      ...where.params,
    ]);
    return rows.map((r) => r.id);
  }

  async searchCompanies(query: string, filters: CompanyFilters, limit: number): Promise<string[]> {
    const parts = tsQueryParts(query);
    const where = companyFilterSql(filters, 4);
    const rows = await this.db.query<{ id: string }>(
      `SELECT c.id FROM companies c CROSS JOIN ${tsQuerySql(1, 2)}
       WHERE c.search_tsv @@ s.q AND ${where.sql}
       ORDER BY ts_rank(c.search_tsv, s.q) DESC, ${COMPANY_ORDER} LIMIT $3`,
      [parts.web, parts.prefix, limit, ...where.params],
    );
    return rows.map((r) => r.id);
  }

  /** Any query word (OR of the stemmed lexemes), ranked by ts_rank: recall for paraphrases and long queries. */
  async anyWordCompanies(q: string, filters: CompanyFilters, n: number): Promise<string[]> {
    const where = companyFilterSql(filters, 3);
    const rows = await this.db.query<{ id: string }>(
      `SELECT c.id FROM companies c, ${ANY_WORD_TSQUERY} AS w
        WHERE w.q IS NOT NULL AND c.search_tsv @@ w.q AND ${where.sql}
        ORDER BY ts_rank(c.search_tsv, w.q) DESC, c.id LIMIT $2`,
      [q, n, ...where.params],
    );
    return rows.map((r) => r.id);
  }
}

/** The query's lexemes joined with OR; NULL when it has none (only stop words). */
const ANY_WORD_TSQUERY = `(SELECT nullif(replace(plainto_tsquery('english', $1)::text, ' & ', ' | '), '')::tsquery AS q)`;
