import type { Queryable } from '../../src/db/port.js';
import { type HistoryCompany, planHistory, writeHistory } from '../../src/signals/history.js';
import { DAY_MS } from '../../src/signals/periods.js';
import { Rng } from './prng.js';

/**
 * Two years of hiring events for the bench catalog's companies, drawn with the bench's seeded PRNG: closed
 * history jobs and their events (src/signals/history.ts), and the catalog's own jobs as openings (or coverage when
 * first seen before tracking began). Written with the rollup trigger off, then rolled up once by
 * rebuild_hiring_daily().
 */

export const HISTORY_DAYS = 730;
const CHUNK = 250;

export interface HistoryFigures {
  historyJobs: number;
  events: number;
  rollupRows: number;
}

export async function insertHistory(
  tx: Queryable,
  companies: readonly { id: string; name: string; slug: string; domain: string }[],
  nowMs: number,
  seed: number,
): Promise<HistoryFigures> {
  const rng = new Rng(seed, 11);
  const random = () => rng.float();
  const dayStart = nowMs - (nowMs % DAY_MS);
  const full = dayStart - HISTORY_DAYS * DAY_MS + 9 * 3_600_000;
  await tx.query('ALTER TABLE job_events DISABLE TRIGGER job_events_hiring_insert');
  // Whatever events the catalog's jobs recorded (the generator loads them with the recording trigger off) are
  // re-told as a history. rebuild_hiring_daily() below rebuilds every rollup from the events, so the delete need
  // not fold each one out of them (that fold took minutes at 330,000 jobs).
  await tx.query('ALTER TABLE job_events DISABLE TRIGGER job_events_hiring_delete');
  await tx.query('DELETE FROM job_events');
  await tx.query('ALTER TABLE job_events ENABLE TRIGGER job_events_hiring_delete');
  await tx.query(
    `INSERT INTO job_events (job_id, company_id, kind, role_category, at)
     SELECT id, company_id, CASE WHEN first_seen_at < $1 THEN 'initial' ELSE 'opened' END, role_category,
            greatest(first_seen_at, $1)
     FROM jobs ORDER BY first_seen_at`,
    [new Date(full)],
  );
  await tx.query(
    `INSERT INTO job_events (job_id, company_id, kind, role_category, at, open_days)
     SELECT j.id, j.company_id, 'closed', j.role_category, greatest(j.last_seen_at, $1),
            CASE WHEN j.first_seen_at >= $1 THEN extract(epoch FROM j.last_seen_at - j.first_seen_at) / 86400 END
     FROM jobs j WHERE NOT j.active ORDER BY j.last_seen_at`,
    [new Date(full)],
  );
  let historyJobs = 0;
  for (let i = 0; i < companies.length; i += CHUNK) {
    const plans: HistoryCompany[] = companies.slice(i, i + CHUNK).map((c) => {
      // One company in five was added later than the rest: its series start there.
      const trackedFromMs = rng.chance(0.2) ? full + rng.int(HISTORY_DAYS - 30) * DAY_MS : full;
      return {
        companyId: c.id,
        companyName: c.name,
        externalPrefix: `history-${c.slug}-`,
        urlBase: `https://${c.domain}/careers`,
        jobs: planHistory(
          {
            trackedFromMs,
            nowMs,
            initialJobs: 2 + rng.int(8),
            weeklyOpenings: 0.1 + random() * 0.5,
            clientFacingShare: [0.25, 0.5],
          },
          random,
        ),
      };
    });
    historyJobs += await writeHistory(tx, plans);
  }
  const [events] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM job_events');
  const [rows] = await tx.query<{ n: number }>('SELECT rebuild_hiring_daily() AS n');
  await tx.query('ALTER TABLE job_events ENABLE TRIGGER job_events_hiring_insert');
  return { historyJobs, events: events?.n ?? 0, rollupRows: rows?.n ?? 0 };
}
