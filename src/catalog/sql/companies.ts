import type { Queryable } from '../../db/port.js';
import { isWebUrl, webUrlOr } from '../../net/web-url.js';
import { COMPANY_RECORD_COLUMNS, type CompanyRecord, companyColumns } from '../fields/company-record.js';
import { companyFilterSql } from '../filters.js';
import { isoFromMicros } from '../micros.js';
import type {
  CompanyCategory,
  CompanyDetail,
  CompanyFilters,
  CompanyListItem,
  CompanyTag,
  TagDimension,
} from '../types.js';
import { TAG_DIMENSIONS, UUID_RE } from '../types.js';

/** Read queries over companies. Tags for a page come from one query over the page's ids, not one per row. */

/** The /companies order; companies_order_idx serves it. Search uses it as the tie-break after rank. */
export const COMPANY_ORDER = 'c.active_job_count DESC, lower(c.name) ASC, c.id ASC';

/** The record's fields a list item shows, and their select list. */
type CompanyListFields = Pick<CompanyRecord, 'name' | 'slug' | 'domain' | 'oneLiner'>;
type CompanyListRow = CompanyListFields & { id: string };
const LIST_COLUMNS = `c.id, ${companyColumns(['name', 'slug', 'domain', 'oneLiner'])}`;

/** A company's list item: SQL and the replica build it alike. */
export function companyListItem(id: string, r: CompanyListFields, tags: CompanyTag[]): CompanyListItem {
  return { id, name: r.name, slug: r.slug, domain: r.domain, oneLiner: r.oneLiner, tags };
}

const DIMENSION_ORDER = new Map<string, number>(TAG_DIMENSIONS.map((d, i) => [d, i]));

/** Tags of the given companies, each list ordered by dimension (TAG_DIMENSIONS order) then value. */
export async function tagsOf(
  db: Queryable,
  companyIds: readonly string[],
): Promise<Map<string, CompanyTag[]>> {
  const out = new Map<string, CompanyTag[]>(companyIds.map((id) => [id, []]));
  if (companyIds.length === 0) return out;
  const rows = await db.query<{ company_id: string; dimension: TagDimension; value: string; slug: string }>(
    `SELECT ct.company_id, t.dimension, t.value, t.slug FROM company_tags ct JOIN tags t ON t.id = ct.tag_id
     WHERE ct.company_id = ANY($1::uuid[]) ORDER BY lower(t.value), t.slug`,
    [companyIds],
  );
  for (const r of rows) out.get(r.company_id)?.push({ dimension: r.dimension, value: r.value, slug: r.slug });
  for (const tags of out.values()) sortTagsByDimension(tags);
  return out;
}

/** Orders tags by dimension (TAG_DIMENSIONS order), in place and stably: within one, the order given (lower(value), slug). */
export function sortTagsByDimension(tags: CompanyTag[]): CompanyTag[] {
  return tags.sort(
    (a, b) => (DIMENSION_ORDER.get(a.dimension) ?? 0) - (DIMENSION_ORDER.get(b.dimension) ?? 0),
  );
}

async function withTags(db: Queryable, rows: CompanyListRow[]): Promise<CompanyListItem[]> {
  const tags = await tagsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => companyListItem(r.id, r, tags.get(r.id) ?? []));
}

/** One page of active companies: most active jobs first, then name (case-insensitive), then id. */
export async function listCompanies(
  db: Queryable,
  filters: CompanyFilters,
  page: { limit: number; offset: number },
): Promise<{ items: CompanyListItem[]; total: number }> {
  const where = companyFilterSql(filters, 1);
  const n = where.params.length;
  const rows = await db.query<CompanyListRow>(
    `SELECT ${LIST_COLUMNS} FROM companies c
     WHERE ${where.sql} ORDER BY ${COMPANY_ORDER} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...where.params, page.limit, page.offset],
  );
  let total = page.offset + rows.length;
  if (rows.length === 0 ? page.offset > 0 : rows.length === page.limit) {
    const counted = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM companies c WHERE ${where.sql}`,
      where.params,
    );
    total = counted[0]?.n ?? 0;
  }
  return { items: await withTags(db, rows), total };
}

/** Active companies by id, in the order of `ids` (a search shortlist's rank). */
export async function companiesByIds(db: Queryable, ids: readonly string[]): Promise<CompanyListItem[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<CompanyListRow>(
    `SELECT ${LIST_COLUMNS} FROM companies c WHERE c.id = ANY($1::uuid[]) AND c.active`,
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return withTags(
    db,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}

/** The links that are absolute http(s) URLs (net/web-url.ts); any other is left out. */
function webLinks(links: Record<string, string> | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, url] of Object.entries(links ?? {})) if (isWebUrl(url)) out[name] = url;
  return out;
}

/**
 * The one assembly of a company's detail from its record (fields/company-record.ts): SQL and the in-process
 * replica answer byte for byte alike.
 */
export function toCompanyDetail(id: string, c: CompanyRecord): CompanyDetail {
  const d = c.detail;
  return {
    id,
    name: c.name,
    slug: c.slug,
    domain: c.domain,
    oneLiner: c.oneLiner,
    tags: sortTagsByDimension(c.tagList.map((t) => ({ ...t }) as CompanyTag)),
    activeJobCount: c.activeJobCount,
    website: webUrlOr(d.website, null),
    category: c.category as CompanyCategory,
    description: d.description,
    foundedYear: d.foundedYear,
    employeeCount: d.employeeCount,
    headquarters: d.headquarters,
    funding: { summary: d.fundingSummary, totalUsd: d.totalFundingUsd },
    socialLinks: webLinks(d.socialLinks),
    logoUrl: webUrlOr(d.logoUrl, null),
    researchSummary: d.researchSummary,
    active: c.active,
    sample: d.sample,
    createdAt: isoFromMicros(d.createdAtUs),
    updatedAt: isoFromMicros(d.updatedAtUs),
  };
}

/** Slug-shaped: anything else cannot name a company and is not sent to the database. */
export const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/i;

/**
 * One company by UUID or slug (slugs compare case-insensitively), active or not: an inactive company answers
 * with active: false so a bookmarked page explains itself instead of vanishing. A company whose onboarding has not
 * published it yet is unknown here. One query, tags included.
 */
export async function getCompany(db: Queryable, idOrSlug: string): Promise<CompanyDetail | undefined> {
  const byId = UUID_RE.test(idOrSlug);
  if (!byId && !SLUG_RE.test(idOrSlug)) return undefined;
  const rows = await db.query<CompanyRecord & { id: string }>(
    `SELECT c.id, ${COMPANY_RECORD_COLUMNS}
     FROM companies c WHERE ${byId ? 'c.id = $1::uuid' : 'c.slug = $1'} AND c.published_at IS NOT NULL`,
    [byId ? idOrSlug : idOrSlug.toLowerCase()],
  );
  const r = rows[0];
  return r && toCompanyDetail(r.id, r);
}
