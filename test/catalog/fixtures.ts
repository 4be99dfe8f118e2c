import { refreshActiveJobCounts, upsertCompanyByDomain } from '../../src/catalog/company-writes.js';
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
           url, description, posted_at, first_seen_at, last_seen_at, active)
         VALUES ($1, $2, 'test', $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12) RETURNING id`,
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
        ],
      );
      ids.push(rows[0]!.id);
    }
    await refreshActiveJobCounts(tx, [...new Set(jobs.map((j) => j.companyId))], nowMs);
    return ids;
  });
}
