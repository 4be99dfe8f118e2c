import type { Queryable } from '../../db/port.js';
import { norm } from './duplicates.js';

/**
 * Reposts: a posting that closes and comes back under a new id is the same opening. A job inserted by a scrape is
 * linked to a closed job of the same company (any board) when
 * - both give a requisition id and the ids are equal (case-insensitively), or
 * - neither gives a different one (either lacks one), their normalised titles and whole locations are equal, and
 *   the closed job was last seen open at most REPOST_WINDOW_DAYS days before.
 * Two different requisition ids are two openings, whatever their titles. Among several candidates the one last
 * seen open most recently is taken (the latest of a chain), and a closed job is linked to one successor at most.
 * The new job then records which job it repeats (reposted_from), counts the reposts of the chain, and keeps the
 * earlier dates: posted_at and first_seen_at are the least of both, so a repost never looks new.
 * Its 'opened' event becomes 'reopened': the hiring signals count the opening once, when it first appeared.
 */

export const REPOST_WINDOW_DAYS = 30;

const DAY_MS = 86_400_000;
const TITLE = (alias: string) => norm(`${alias}.title`);
const PLACE = (alias: string) => norm(`${alias}.location`);

const CANDIDATE = 'f.id AS new_id, o.id, o.posted_at, o.first_seen_at, o.reposts, o.last_seen_at';

const LINK_REPOSTS = `WITH fresh AS (
     SELECT f.id, lower(f.requisition_id) AS req, ${TITLE('f')} AS tkey, ${PLACE('f')} AS lkey
     FROM jobs f WHERE f.id = ANY($2::uuid[]) AND f.company_id = $1 AND f.reposted_from IS NULL
   ),
   candidates AS (
     SELECT ${CANDIDATE} FROM fresh f
       JOIN jobs o ON o.company_id = $1 AND NOT o.active AND lower(o.requisition_id) = f.req
     UNION
     SELECT ${CANDIDATE} FROM fresh f
       JOIN jobs o ON o.company_id = $1 AND NOT o.active AND o.last_seen_at >= $3
        AND (o.requisition_id IS NULL OR f.req IS NULL) AND ${TITLE('o')} = f.tkey AND ${PLACE('o')} = f.lkey
   ),
   latest AS (
     SELECT DISTINCT ON (new_id) * FROM candidates c
     WHERE NOT EXISTS (SELECT 1 FROM jobs s WHERE s.reposted_from = c.id)
     ORDER BY new_id, last_seen_at DESC, id DESC
   ),
   chosen AS (
     SELECT DISTINCT ON (id) * FROM latest ORDER BY id, new_id
   )
   UPDATE jobs j SET reposted_from = c.id, reposts = c.reposts + 1,
     posted_at = least(j.posted_at, c.posted_at), first_seen_at = least(j.first_seen_at, c.first_seen_at)
   FROM chosen c WHERE j.id = c.new_id
   RETURNING j.id`;

/**
 * The insert trigger recorded the linked jobs' arrival as 'opened'; a repost is the earlier opening back, so the
 * event is replaced by a 'reopened' one at the same time. A delete and an insert, since the hiring rollups follow
 * job_events by inserts and deletes only.
 */
const RECORD_AS_REOPENED = `WITH opened AS (
     DELETE FROM job_events WHERE job_id = ANY($1::uuid[]) AND kind = 'opened'
     RETURNING job_id, company_id, role_category, at
   )
   INSERT INTO job_events (job_id, company_id, kind, role_category, at)
   SELECT job_id, company_id, 'reopened', role_category, at FROM opened ORDER BY at, job_id`;

/** Links the jobs `insertedIds` of company `companyId` to the closed jobs they repost; returns the linked ids. */
export async function linkReposts(
  tx: Queryable,
  companyId: string,
  insertedIds: readonly string[],
  nowMs: number,
): Promise<string[]> {
  if (insertedIds.length === 0) return [];
  const since = new Date(nowMs - REPOST_WINDOW_DAYS * DAY_MS);
  const rows = await tx.query<{ id: string }>(LINK_REPOSTS, [companyId, insertedIds, since]);
  const linked = rows.map((r) => r.id);
  if (linked.length > 0) await tx.query(RECORD_AS_REOPENED, [linked]);
  return linked;
}
