import { refreshActiveJobCounts, upsertCompanyByDomain } from '../../src/catalog/company-writes.js';
import { placesParams } from '../../src/catalog/sql/job-places.js';
import { setCompanyTags, type TagInput } from '../../src/catalog/tags.js';
import type { CompanyCategory, RoleCategory } from '../../src/catalog/types.js';
import type { Db } from '../../src/db/port.js';

/** Builds catalog rows through the real write helpers (and plain SQL for jobs, which have no helper yet). */

export interface CompanySpec {
  name: string;
  domain: string;
  category?: CompanyCategory;
  oneLiner?: string;
  tags?: TagInput[];
  active?: boolean;
}

export async function addCompany(
  db: Db,
  spec: CompanySpec,
  nowMs: number,
): Promise<{ id: string; slug: string }> {
  return db.transaction(async (tx) => {
    const c = await upsertCompanyByDomain(
      tx,
      spec.domain,
      {
        name: spec.name,
        oneLiner: spec.oneLiner ?? `${spec.name} builds things`,
        category: spec.category ?? 'other',
        active: spec.active ?? true,
      },
      nowMs,
    );
    if (spec.tags) await setCompanyTags(tx, c.id, spec.tags, nowMs);
    return c;
  });
}

export interface JobSpec {
  companyId: string;
  companyName: string;
  title: string;
  roleCategory: RoleCategory;
  location?: string;
  remote?: boolean;
  /** Default: remote when `remote`, else unknown. */
  workplace?: 'remote' | 'hybrid' | 'onsite' | 'unknown';
  postedAt: Date;
  firstSeenAt?: Date;
  active?: boolean;
}

let seq = 0;

export async function addJobs(db: Db, jobs: JobSpec[], nowMs: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    const ids: string[] = [];
    for (const j of jobs) {
      seq += 1;
      const rows = await tx.query<{ id: string }>(
        `INSERT INTO jobs (company_id, company_name, source, external_id, title, location, remote, role_category,
           url, description, posted_at, first_seen_at, last_seen_at, active, workplace, countries, regions,
           remote_scopes)
         VALUES ($1, $2, 'test', $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13, string_to_array($14, ','),
           string_to_array($15, ','), string_to_array($16, ',')) RETURNING id`,
        [
          j.companyId,
          j.companyName,
          `ext-${seq}`,
          j.title,
          j.location ?? 'San Francisco, CA',
          j.remote ?? false,
          j.roleCategory,
          `https://example.com/jobs/${seq}`,
          `Full description of ${j.title}`,
          j.postedAt.toISOString(),
          (j.firstSeenAt ?? j.postedAt).toISOString(),
          j.active ?? true,
          j.workplace ?? (j.remote ? 'remote' : 'unknown'),
          ...placesParams([j.location ?? 'San Francisco, CA']).map(([p]) => p),
        ],
      );
      ids.push(rows[0]!.id);
    }
    await refreshActiveJobCounts(tx, [...new Set(jobs.map((j) => j.companyId))], nowMs);
    return ids;
  });
}

/** Pay as a job states it: the range's top (and bottom), its currency and period; null when it states none. */
export type StatedPay = [max: number, currency: string, period: string] | null;

/** A job as a row: title, company key, role category, location, remote, department, stated pay. */
export type ListingRow<K extends string> = [string, K, string, string, boolean, string | null, StatedPay];

/**
 * Adds each row's job to the company its key names, posted an hour apart before `nowMs` (the first newest), with
 * its department and stated pay. Returns the job ids in row order.
 */
export async function addListingRows<K extends string>(
  db: Db,
  companies: Record<K, { id: string; name: string }>,
  rows: readonly ListingRow<K>[],
  nowMs: number,
): Promise<string[]> {
  const ids = await addJobs(
    db,
    rows.map(([title, company, roleCategory, location, remote], i) => ({
      companyId: companies[company].id,
      companyName: companies[company].name,
      title,
      roleCategory: roleCategory as RoleCategory,
      location,
      remote,
      postedAt: new Date(nowMs - (i + 1) * 3_600_000),
    })),
    nowMs,
  );
  for (const [i, [, , , , , department, pay]] of rows.entries()) {
    await db.query(
      `UPDATE jobs SET department = $2, salary_min = $3, salary_max = $3, salary_currency = $4,
         salary_period = $5, salary_source = CASE WHEN $3::numeric IS NULL THEN NULL ELSE 'structured' END
       WHERE id = $1`,
      [ids[i], department, pay?.[0] ?? null, pay?.[1] ?? null, pay?.[2] ?? null],
    );
  }
  return ids;
}
