import { companyFilterSql } from '../../catalog/filters.js';
import { slugify } from '../../catalog/tags.js';
import type { CompanyFilters } from '../../catalog/types.js';
import type { Db } from '../../db/port.js';
import { allowedEdits, editDistance } from '../query/spelling.js';
import type { NameMatch } from '../query/trigram.js';

/**
 * Company-name matches of search ranked in the database: misspelled names through pg_trgm (the same
 * word_similarity query/trigram.ts computes in memory), exact names and slugs, and whole names a typo away.
 */

/** Companies passing the filters whose name is word-similar to the query, best first. */
export async function similarCompanies(
  db: Db,
  q: string,
  threshold: number,
  filters: CompanyFilters,
  n: number,
): Promise<NameMatch[]> {
  const where = companyFilterSql(filters, 4);
  const rows = await db.query<{ id: string; similarity: number }>(
    `SELECT c.id, word_similarity(lower(c.name), $1)::float8 AS similarity FROM companies c
      WHERE word_similarity(lower(c.name), $1) >= $2 AND ${where.sql}
      ORDER BY similarity DESC, c.id LIMIT $3`,
    [q.toLowerCase(), threshold, n, ...where.params],
  );
  return rows;
}

/** Companies whose name equals the query case-insensitively (by id), then the one with its slug. */
export async function exactCompanies(db: Db, q: string, filters: CompanyFilters): Promise<string[]> {
  const where = companyFilterSql(filters, 3);
  const rows = await db.query<{ id: string }>(
    `SELECT c.id FROM companies c WHERE (lower(c.name) = lower($1) OR c.slug = $2) AND ${where.sql}
      ORDER BY (lower(c.name) = lower($1)) DESC, c.id`,
    [q, slugify(q), ...where.params],
  );
  return rows.map((r) => r.id);
}

/**
 * Companies whose whole name is within the typo allowance of the query (query/spelling.ts), nearest first, then
 * by name; not the exact names. Candidates share trigrams with the query (the name trigram index), and the
 * edit distance decides.
 */
export async function correctedCompanies(db: Db, q: string, filters: CompanyFilters): Promise<string[]> {
  const query = q.toLowerCase().replace(/\s+/g, ' ').trim();
  const edits = allowedEdits(query.length);
  if (edits === 0) return [];
  const where = companyFilterSql(filters, 4);
  const rows = await db.transaction(async (tx) => {
    await tx.query(`SELECT set_config('pg_trgm.similarity_threshold', '0.2', true)`);
    return tx.query<{ id: string; name: string }>(
      `SELECT c.id, lower(c.name) AS name FROM companies c
        WHERE lower(c.name) % $1 AND abs(length(c.name) - $2) <= $3 AND lower(c.name) <> $1 AND ${where.sql}`,
      [query, query.length, edits, ...where.params],
    );
  });
  return rows
    .map((r) => ({ ...r, distance: editDistance(query, r.name.replace(/\s+/g, ' ').trim(), edits) }))
    .filter((r) => r.distance <= edits)
    .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((r) => r.id);
}
