import type { CompanyFilters, JobFilters, TagDimension } from './types.js';
import { TAG_DIMENSIONS } from './types.js';

/**
 * The one definition of what the catalog filters mean in SQL. The list queries, keyword search and any other
 * candidate retrieval (hybrid search) append these fragments, so a filter means the same thing everywhere and is
 * applied inside retrieval, never after it.
 */
export interface SqlFragment {
  /** A boolean SQL expression (never empty: at least the active-row condition). */
  sql: string;
  /** Values for the placeholders, numbered from the firstParamIndex given. */
  params: unknown[];
}

/** Escapes LIKE wildcards so user input is matched literally (backslash is PostgreSQL's default escape). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

class Builder {
  readonly conditions: string[] = [];
  readonly params: unknown[] = [];
  constructor(private readonly first: number) {}

  /** Adds a value and returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.first + this.params.length - 1}`;
  }

  done(): SqlFragment {
    return { sql: this.conditions.join(' AND '), params: this.params };
  }
}

/**
 * WHERE conditions for GET /jobs over `jobs` aliased as `alias` (default `j`): active rows only, plus each given
 * filter. An empty roleCategories list matches nothing (e.g. role_category=engineering with client_facing=true).
 * The location match is `lower(location) LIKE %x%`, which the trigram index jobs_location_trgm_idx serves.
 */
export function jobFilterSql(filters: JobFilters, firstParamIndex: number, alias = 'j'): SqlFragment {
  const b = new Builder(firstParamIndex);
  b.conditions.push(`${alias}.active`);
  if (filters.roleCategories !== undefined) {
    if (filters.roleCategories.length === 1) {
      b.conditions.push(`${alias}.role_category = ${b.param(filters.roleCategories[0])}`);
    } else {
      b.conditions.push(`${alias}.role_category = ANY(${b.param(filters.roleCategories)}::text[])`);
    }
  }
  if (filters.companySlug !== undefined) {
    b.conditions.push(
      `${alias}.company_id = (SELECT fc.id FROM companies fc WHERE fc.slug = ${b.param(filters.companySlug)})`,
    );
  }
  if (filters.location !== undefined) {
    b.conditions.push(
      `lower(${alias}.location) LIKE ${b.param(`%${escapeLike(filters.location.toLowerCase())}%`)}`,
    );
  }
  if (filters.remoteOnly) b.conditions.push(`${alias}.remote`);
  return b.done();
}

/**
 * WHERE conditions for GET /companies over `companies` aliased as `alias` (default `c`): active rows only; tag
 * slugs OR within a dimension, AND across dimensions (one semi-join per dimension given); category equality.
 */
export function companyFilterSql(filters: CompanyFilters, firstParamIndex: number, alias = 'c'): SqlFragment {
  const b = new Builder(firstParamIndex);
  b.conditions.push(`${alias}.active`);
  for (const dimension of TAG_DIMENSIONS) {
    const slugs = filters.tags?.[dimension as TagDimension];
    if (slugs === undefined) continue;
    b.conditions.push(
      `${alias}.id IN (SELECT ft.company_id FROM company_tags ft JOIN tags t ON t.id = ft.tag_id ` +
        `WHERE t.dimension = ${b.param(dimension)} AND t.slug = ANY(${b.param(slugs)}::text[]))`,
    );
  }
  if (filters.category !== undefined) b.conditions.push(`${alias}.category = ${b.param(filters.category)}`);
  return b.done();
}
