import type { Queryable } from '../../db/port.js';
import type { BoardRef, Provider } from '../../sources/types.js';

/** Job boards per company: recorded by discovery, read by every scrape, deactivated when the vendor says 404. */

export interface StoredBoard extends BoardRef {
  id: string;
  active: boolean;
  /** Postings listed at the last successful scrape (null before the first). */
  lastPostingCount?: number | null;
  /** Scrapes in a row that listed nothing where the board had postings (see workflows/steps/scrape-board.ts). */
  emptyScrapes?: number;
}

export interface BoardInput extends BoardRef {
  evidence?: string | null;
}

/** Records boards found by discovery; a board found again is re-activated, identity is (provider, token). */
export async function upsertBoards(
  tx: Queryable,
  companyId: string,
  boards: readonly BoardInput[],
  nowMs: number,
): Promise<void> {
  const now = new Date(nowMs);
  for (const b of boards) {
    const updated = await tx.query(
      `UPDATE boards SET url = $4, evidence = $5, active = true, last_error = NULL, updated_at = $6
       WHERE company_id = $1 AND provider = $2 AND lower(token) = lower($3) RETURNING id`,
      [companyId, b.provider, b.token, b.url, b.evidence ?? null, now],
    );
    if (updated.length > 0) continue;
    await tx.query(
      `INSERT INTO boards (company_id, provider, token, url, evidence, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [companyId, b.provider, b.token, b.url, b.evidence ?? null, now],
    );
  }
}

export async function activeBoards(db: Queryable, companyId: string): Promise<StoredBoard[]> {
  const rows = await db.query<{
    id: string;
    provider: Provider;
    token: string;
    url: string;
    active: boolean;
    last_posting_count: number | null;
    empty_scrapes: number;
  }>(
    `SELECT id, provider, token, url, active, last_posting_count, empty_scrapes FROM boards
     WHERE company_id = $1 AND active ORDER BY provider, lower(token)`,
    [companyId],
  );
  return rows.map((r) => ({
    id: r.id,
    provider: r.provider,
    token: r.token,
    url: r.url,
    active: r.active,
    lastPostingCount: r.last_posting_count,
    emptyScrapes: r.empty_scrapes,
  }));
}

export async function markBoardScraped(
  tx: Queryable,
  boardId: string,
  postingCount: number,
  nowMs: number,
  outcome: 'ok' | 'emptied' = 'ok',
): Promise<void> {
  await tx.query(
    `UPDATE boards SET last_scraped_at = $2, last_posting_count = $3, last_error = NULL, updated_at = $2,
       last_success_at = $2, consecutive_failures = 0, empty_scrapes = 0, last_outcome = $4
     WHERE id = $1`,
    [boardId, new Date(nowMs), postingCount, outcome],
  );
}

/** The vendor no longer has this board: keep the row (history), stop scraping it. */
export async function deactivateBoard(
  tx: Queryable,
  boardId: string,
  reason: string,
  nowMs: number,
): Promise<void> {
  await tx.query(`UPDATE boards SET active = false, last_error = $2, updated_at = $3 WHERE id = $1`, [
    boardId,
    reason.slice(0, 500),
    new Date(nowMs),
  ]);
}
