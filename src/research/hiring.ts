import { CLIENT_FACING_CATEGORIES } from '../catalog/types.js';
import type { Queryable } from '../db/port.js';
import type { HiringProfile } from './dossier.js';

/** The company's hiring profile from the catalog's own active postings: facts we hold, never a provider's claim. */
export async function hiringProfile(db: Queryable, companyId: string): Promise<HiringProfile> {
  const [totals] = await db.query<{ total: number; client: number; remote: number }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE role_category = ANY($2::text[]))::int AS client,
            count(*) FILTER (WHERE remote)::int AS remote
       FROM jobs WHERE company_id = $1 AND active`,
    [companyId, [...CLIENT_FACING_CATEGORIES]],
  );
  const categories = await db.query<{ category: string; count: number }>(
    `SELECT role_category AS category, count(*)::int AS count FROM jobs WHERE company_id = $1 AND active
      GROUP BY role_category ORDER BY count(*) DESC, role_category LIMIT 5`,
    [companyId],
  );
  const locations = await db.query<{ location: string }>(
    `SELECT location FROM jobs WHERE company_id = $1 AND active AND location <> ''
      GROUP BY location ORDER BY count(*) DESC, location LIMIT 5`,
    [companyId],
  );
  const total = totals?.total ?? 0;
  return {
    activeJobs: total,
    clientFacingJobs: totals?.client ?? 0,
    topCategories: categories,
    locations: locations.map((l) => l.location),
    remoteShare: total > 0 ? Math.round(((totals?.remote ?? 0) / total) * 100) / 100 : null,
  };
}

/** Recent active job titles, for the LLM prompt and the report. */
export async function recentJobTitles(db: Queryable, companyId: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ title: string }>(
    `SELECT title FROM jobs WHERE company_id = $1 AND active ORDER BY posted_at DESC, id LIMIT $2`,
    [companyId, limit],
  );
  return rows.map((r) => r.title);
}
