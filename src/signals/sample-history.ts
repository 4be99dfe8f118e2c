import type { Queryable } from '../db/port.js';
import { type HistoryCompany, planHistory, seededRandom, seedOf, writeHistory } from './history.js';
import { DAY_MS, dayOf } from './periods.js';

/**
 * A year of generated hiring history for the sample catalog, so the hiring series, trends and charts show
 * something on a fresh start. Seeded by each company's domain: the same history (relative to the day it is
 * loaded) every time. Every job it adds is inactive, marked is_sample, source 'sample', and says "generated
 * history" in its description. The sample's current postings become openings on their posting day; most
 * companies are tracked for a year, every fifth for 90 to 240 days (so the series show where tracking began). A
 * company the sample marks newly hiring has no client-facing role in its history: its current ones, all posted in
 * the last 30 days, make it newly hiring for them (GET /api/v1/signals/newly-hiring).
 */

export const SAMPLE_HISTORY_DAYS = 365;

export interface SampleHistoryCompany {
  id: string;
  name: string;
  slug: string;
  domain: string;
  /** Its history has no client-facing role, so its current ones make it newly hiring for them. */
  newlyHiring?: boolean;
}

export async function loadSampleHistory(
  tx: Queryable,
  companies: readonly SampleHistoryCompany[],
  nowMs: number,
): Promise<number> {
  const ids = companies.map((c) => c.id);
  // The postings just loaded were recorded as coverage; in the sample's story they opened on their posting day.
  await tx.query(`DELETE FROM job_events WHERE company_id = ANY($1::uuid[])`, [ids]);
  await tx.query(
    `INSERT INTO job_events (job_id, company_id, kind, role_category, at)
     SELECT id, company_id, 'opened', role_category, first_seen_at FROM jobs
     WHERE company_id = ANY($1::uuid[]) AND active ORDER BY first_seen_at`,
    [ids],
  );
  const today = dayOf(nowMs);
  const plans: HistoryCompany[] = companies.map((c, i) => {
    const random = seededRandom(seedOf(c.domain));
    const trackedDays = i % 5 === 4 ? 90 + Math.floor(random() * 150) : SAMPLE_HISTORY_DAYS;
    return {
      companyId: c.id,
      companyName: c.name,
      externalPrefix: `sample-${c.slug}-h`,
      urlBase: `https://${c.domain}/careers`,
      jobs: planHistory(
        {
          trackedFromMs: today - trackedDays * DAY_MS + 9 * 3_600_000,
          nowMs,
          initialJobs: 3 + Math.floor(random() * 8),
          weeklyOpenings: 0.4 + random() * 1.6,
          clientFacingShare: c.newlyHiring ? [0, 0] : [0.3, 0.65],
        },
        random,
      ),
    };
  });
  return writeHistory(tx, plans);
}
