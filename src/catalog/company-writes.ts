import type { Queryable } from '../db/port.js';
import { slugify } from './tags.js';
import type { CompanyCategory } from './types.js';
import { bumpCatalogVersion } from './version.js';

/** Company writes the pipeline composes inside its own transactions. Each bumps catalog_version first. */

export interface CompanyFields {
  name: string;
  website?: string | null;
  oneLiner?: string;
  description?: string | null;
  category?: CompanyCategory;
  foundedYear?: number | null;
  employeeCount?: number | null;
  headquarters?: string | null;
  fundingSummary?: string | null;
  totalFundingUsd?: number | null;
  socialLinks?: Record<string, string>;
  logoUrl?: string | null;
  researchSummary?: string | null;
  isSample?: boolean;
  active?: boolean;
}

const COLUMNS: Record<Exclude<keyof CompanyFields, 'name'>, string> = {
  website: 'website',
  oneLiner: 'one_liner',
  description: 'description',
  category: 'category',
  foundedYear: 'founded_year',
  employeeCount: 'employee_count',
  headquarters: 'headquarters',
  fundingSummary: 'funding_summary',
  totalFundingUsd: 'total_funding_usd',
  socialLinks: 'social_links',
  logoUrl: 'logo_url',
  researchSummary: 'research_summary',
  isSample: 'is_sample',
  active: 'active',
};

export interface UpsertedCompany {
  id: string;
  slug: string;
  created: boolean;
}

/** A slug free for a new company: the name's slug, else the domain's, with -2, -3... on collision. */
async function freeSlug(tx: Queryable, name: string, domain: string): Promise<string> {
  const base = slugify(name) || slugify(domain) || 'company';
  const rows = await tx.query<{ slug: string }>(
    `SELECT slug FROM companies WHERE slug = $1 OR slug LIKE $2`,
    [base, `${base}-%`],
  );
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Creates the company with this domain, or updates it: fields left undefined keep their stored values, the slug of
 * an existing company never changes (it is in bookmarked URLs). The domain must already be normalized (lower
 * case, registrable domain); it is the identity. A concurrent insert of the same domain is absorbed by
 * ON CONFLICT and turned into an update; two different domains racing for one slug make one transaction fail
 * with a unique violation, which a retried step resolves.
 */
export async function upsertCompanyByDomain(
  tx: Queryable,
  domain: string,
  fields: CompanyFields,
  nowMs: number,
): Promise<UpsertedCompany> {
  const normalized = domain.trim().toLowerCase();
  if (!/^[a-z0-9.-]+\.[a-z0-9-]+$/.test(normalized)) throw new Error(`'${domain}' is not a domain`);
  await bumpCatalogVersion(tx, nowMs);
  const now = new Date(nowMs);
  const provided = (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).filter((k) => fields[k] !== undefined);
  const values = provided.map((k) => (k === 'socialLinks' ? JSON.stringify(fields[k]) : fields[k]));
  let existing = await tx.query<{ id: string; slug: string }>(
    'SELECT id, slug FROM companies WHERE domain = $1',
    [normalized],
  );
  let created = false;
  if (!existing[0]) {
    const slug = await freeSlug(tx, fields.name, normalized);
    const cols = ['name', 'domain', 'slug', 'created_at', 'updated_at', ...provided.map((k) => COLUMNS[k])];
    existing = await tx.query<{ id: string; slug: string }>(
      `INSERT INTO companies (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT (domain) DO NOTHING RETURNING id, slug`,
      [fields.name, normalized, slug, now, now, ...values],
    );
    created = existing.length > 0;
    if (!created) {
      existing = await tx.query('SELECT id, slug FROM companies WHERE domain = $1', [normalized]);
    }
  }
  const row = existing[0];
  if (!row) throw new Error(`company ${normalized} vanished during upsert`);
  if (!created) {
    const sets = ['name = $2', 'updated_at = $3', ...provided.map((k, i) => `${COLUMNS[k]} = $${i + 4}`)];
    await tx.query(`UPDATE companies SET ${sets.join(', ')} WHERE id = $1`, [
      row.id,
      fields.name,
      now,
      ...values,
    ]);
  }
  return { id: row.id, slug: row.slug, created };
}

/**
 * Recounts active jobs for the given companies (call it after writing their jobs, in the same transaction).
 * Only rows whose count changed are updated; updated_at is left alone because no company fact changed.
 */
export async function refreshActiveJobCounts(
  tx: Queryable,
  companyIds: readonly string[],
  nowMs: number,
): Promise<void> {
  if (companyIds.length === 0) return;
  await bumpCatalogVersion(tx, nowMs);
  await tx.query(
    `UPDATE companies c SET active_job_count = n.count
     FROM (SELECT ids.id, (SELECT count(*)::int FROM jobs j WHERE j.company_id = ids.id AND j.active) AS count
           FROM unnest($1::uuid[]) AS ids(id)) n
     WHERE c.id = n.id AND c.active_job_count IS DISTINCT FROM n.count`,
    [[...new Set(companyIds)]],
  );
}
