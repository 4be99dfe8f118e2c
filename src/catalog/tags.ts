import type { Queryable } from '../db/port.js';
import { TAG_DIMENSIONS, type TagDimension, type TagListing } from './types.js';
import { bumpCatalogVersion } from './version.js';

/** Tags: the public listing and the write helper the pipeline uses to tag a company. */

/**
 * A URL-safe slug: lower-case ASCII letters and digits separated by single hyphens ("Series A" -> "series-a",
 * "Health & Life Sciences" -> "health-life-sciences"). Accents are stripped; returns '' when nothing is left.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/**
 * Every dimension (always present, possibly empty) with the tags at least one active company carries, sorted by
 * value: the listing offers filter values that can match, not vocabulary left behind by departed companies.
 */
export async function listTags(db: Queryable): Promise<TagListing> {
  const rows = await db.query<{ dimension: TagDimension; value: string; slug: string }>(
    `SELECT t.dimension, t.value, t.slug FROM tags t
     WHERE EXISTS (SELECT 1 FROM company_tags ct JOIN companies c ON c.id = ct.company_id
                   WHERE ct.tag_id = t.id AND c.active)
     ORDER BY lower(t.value), t.slug`,
  );
  const out = Object.fromEntries(TAG_DIMENSIONS.map((d) => [d, []])) as unknown as TagListing;
  for (const r of rows) out[r.dimension]?.push({ value: r.value, slug: r.slug });
  return out;
}

export interface TagInput {
  dimension: TagDimension;
  /** Display value; its slug identifies the tag within the dimension. */
  value: string;
}

/**
 * Replaces a company's tags with exactly `tags`, creating unknown tags on the way (an existing tag keeps its
 * display value). Values whose slug is empty are refused rather than silently dropped. Bumps catalog_version
 * first.
 */
export async function setCompanyTags(
  tx: Queryable,
  companyId: string,
  tags: readonly TagInput[],
  nowMs: number,
): Promise<void> {
  const dims: string[] = [];
  const values: string[] = [];
  const slugs: string[] = [];
  const seen = new Set<string>();
  for (const tag of tags) {
    if (!(TAG_DIMENSIONS as readonly string[]).includes(tag.dimension)) {
      throw new Error(`unknown tag dimension '${tag.dimension}'`);
    }
    const value = tag.value.trim();
    const slug = slugify(value);
    if (!slug) throw new Error(`tag value '${tag.value}' has no usable characters for a slug`);
    const key = `${tag.dimension}/${slug}`;
    if (seen.has(key)) continue;
    seen.add(key);
    dims.push(tag.dimension);
    values.push(value.slice(0, 100));
    slugs.push(slug);
  }
  await bumpCatalogVersion(tx, nowMs);
  if (dims.length > 0) {
    await tx.query(
      `INSERT INTO tags (dimension, value, slug)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT (dimension, slug) DO NOTHING`,
      [dims, values, slugs],
    );
  }
  await tx.query(
    `DELETE FROM company_tags ct USING tags t WHERE ct.company_id = $1 AND t.id = ct.tag_id
       AND (t.dimension, t.slug) NOT IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [companyId, dims, slugs],
  );
  if (dims.length > 0) {
    await tx.query(
      `INSERT INTO company_tags (company_id, tag_id)
       SELECT $1, t.id FROM tags t JOIN unnest($2::text[], $3::text[]) AS w(dimension, slug)
         ON t.dimension = w.dimension AND t.slug = w.slug
       ON CONFLICT DO NOTHING`,
      [companyId, dims, slugs],
    );
  }
}
