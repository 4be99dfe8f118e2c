import type { Queryable } from '../../db/port.js';
import type { Provider } from '../../sources/types.js';

/**
 * Board health (migrations/0040): the last success, the last error and its time, failures in a row and the last
 * outcome of each board. A success is written with the postings (store/boards.ts markBoardScraped); failures here.
 */

/** How a board's scrape ended; also the `outcome` label of frontline_board_scrapes_total. */
export type BoardOutcomeKind =
  /** Listed and stored. */
  | 'ok'
  /** A vendor or transport error after the retries; the jobs stay as they were. */
  | 'error'
  /** The vendor no longer has the board and the careers page names no other: board and jobs closed. */
  | 'gone'
  /** The careers page names another board: that board was added and scraped, this one closed. */
  | 'moved'
  /** Nothing listed where there were postings: jobs kept until the emptiness is confirmed. */
  | 'empty_held'
  /** Confirmed empty: the jobs closed. */
  | 'emptied';

export async function recordBoardFailure(
  tx: Queryable,
  boardId: string,
  outcome: Exclude<BoardOutcomeKind, 'ok' | 'emptied'>,
  message: string,
  nowMs: number,
  extra: { emptyScrapes?: number } = {},
): Promise<void> {
  await tx.query(
    `UPDATE boards SET last_error = $2, last_error_at = $3, consecutive_failures = consecutive_failures + 1,
       last_outcome = $4, empty_scrapes = COALESCE($5, empty_scrapes), updated_at = $3
     WHERE id = $1`,
    [boardId, message.slice(0, 500), new Date(nowMs), outcome, extra.emptyScrapes ?? null],
  );
}

export interface BoardHealth {
  company: string;
  provider: Provider;
  token: string;
  url: string;
  active: boolean;
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
  consecutiveFailures: number;
  lastOutcome: string | null;
  lastPostingCount: number | null;
}

/** Every board (active or not) with its health, of one company (by slug) or all, failing boards first. */
export async function listBoardHealth(db: Queryable, companySlug?: string): Promise<BoardHealth[]> {
  const rows = await db.query<{
    slug: string;
    provider: Provider;
    token: string;
    url: string;
    active: boolean;
    last_success_at: Date | null;
    last_error_at: Date | null;
    last_error: string | null;
    consecutive_failures: number;
    last_outcome: string | null;
    last_posting_count: number | null;
  }>(
    `SELECT c.slug, b.provider, b.token, b.url, b.active, b.last_success_at, b.last_error_at, b.last_error,
            b.consecutive_failures, b.last_outcome, b.last_posting_count
     FROM boards b JOIN companies c ON c.id = b.company_id
     WHERE $1::text IS NULL OR c.slug = $1
     ORDER BY b.consecutive_failures DESC, c.slug, b.provider, lower(b.token)`,
    [companySlug ?? null],
  );
  return rows.map((r) => ({
    company: r.slug,
    provider: r.provider,
    token: r.token,
    url: r.url,
    active: r.active,
    lastSuccessAt: r.last_success_at,
    lastErrorAt: r.last_error_at,
    lastError: r.last_error,
    consecutiveFailures: r.consecutive_failures,
    lastOutcome: r.last_outcome,
    lastPostingCount: r.last_posting_count,
  }));
}
