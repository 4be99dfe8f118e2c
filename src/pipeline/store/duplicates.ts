import type { Queryable } from '../../db/port.js';

/**
 * One listing per posting within a company while it moves between vendors: while two boards list the same
 * opening (the old board still answering, or not closed yet), the job of the board recorded later (the one the
 * careers page now names) stays and the other is closed. Two jobs are the same opening when both boards give a
 * requisition id and the ids are equal; against a board being replaced (`superseded`: it died and the careers page
 * names the new one), also when either lacks one and their normalised titles and first location segments are equal.
 * Title and place alone are not compared between two live boards: a company may list distinct openings with the
 * same title and city on two vendors at once. Jobs of one board are never compared with each other.
 * Boards recorded at the same instant are ordered by id: arbitrary, but stable from one scrape to the next.
 */

/** Title or place → lower-case words separated by single spaces (reposts.ts compares the same keys). */
export const norm = (expr: string) => `btrim(lower(regexp_replace(${expr}, '[^[:alnum:]]+', ' ', 'g')))`;
const TITLE_KEY = norm('j.title');
const PLACE_KEY = norm(`split_part(split_part(j.location, ';', 1), ',', 1)`);

/** Closes the losing side of every duplicate pair that involves a job of `boardId`; returns the closed ids. */
export async function settleDuplicates(
  tx: Queryable,
  companyId: string,
  boardId: string,
  nowMs: number,
  superseded: readonly string[] = [],
): Promise<string[]> {
  const boards = await tx.query<{ n: number }>(
    'SELECT count(DISTINCT board_id)::int AS n FROM jobs WHERE company_id = $1 AND active AND board_id IS NOT NULL',
    [companyId],
  );
  if ((boards[0]?.n ?? 0) < 2) return [];
  const rows = await tx.query<{ id: string }>(
    `WITH live AS (
       SELECT j.id, j.board_id, lower(j.requisition_id) AS req, ${TITLE_KEY} AS tkey, ${PLACE_KEY} AS lkey,
              b.created_at AS board_at
       FROM jobs j JOIN boards b ON b.id = j.board_id
       WHERE j.company_id = $1 AND j.active
     ),
     pairs AS (
       SELECT a.id AS a_id, o.id AS o_id, (a.board_at, a.board_id) > (o.board_at, o.board_id) AS a_wins
       FROM live a JOIN live o ON o.board_id <> a.board_id AND o.req = a.req
       WHERE a.board_id = $2 AND a.req IS NOT NULL
       UNION
       SELECT a.id, o.id, (a.board_at, a.board_id) > (o.board_at, o.board_id)
       FROM live a JOIN live o ON o.board_id = ANY($4::uuid[]) AND o.tkey = a.tkey AND o.lkey = a.lkey
       WHERE a.board_id = $2 AND o.board_id <> a.board_id AND (a.req IS NULL OR o.req IS NULL)
     )
     UPDATE jobs SET active = false, updated_at = $3
     WHERE active AND id IN (SELECT CASE WHEN a_wins THEN o_id ELSE a_id END FROM pairs)
     RETURNING id`,
    [companyId, boardId, new Date(nowMs), superseded],
  );
  return rows.map((r) => r.id);
}
