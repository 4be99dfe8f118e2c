import type { Queryable } from '../../db/port.js';
import type { CatalogStats } from '../types.js';

const DAY_MS = 86_400_000;

/** 00:00 UTC of the day containing nowMs. */
export const startOfUtcDay = (nowMs: number): number => Math.floor(nowMs / DAY_MS) * DAY_MS;

/**
 * Site-wide counts. Total jobs come from job_counts (trigger-maintained) rather than a count over every job.
 * "New today" is active jobs first seen since 00:00 UTC of the injected clock's day (not SQL now(), so tests and
 * replicas agree); jobs_first_seen_idx serves it.
 */
export async function getStats(db: Queryable, nowMs: number): Promise<CatalogStats> {
  const rows = await db.query<CatalogStats>(
    `SELECT (SELECT coalesce(sum(n), 0)::int FROM job_counts) AS "totalJobs",
       (SELECT count(*)::int FROM companies WHERE active) AS "totalCompanies",
       (SELECT count(*)::int FROM jobs WHERE active AND first_seen_at >= $1) AS "newToday"`,
    [new Date(startOfUtcDay(nowMs))],
  );
  return rows[0] ?? { totalJobs: 0, totalCompanies: 0, newToday: 0 };
}
