import type { Queryable } from '../../db/port.js';

/**
 * Completion markers of the onboarding steps, one row per company in company_pipeline. A step whose marker is
 * set is skipped unless the run is forced; the marker is written in the same transaction as the step's data,
 * so "marker set" always means "data stored".
 */

export type Marker = 'enriched_at' | 'boards_discovered_at' | 'scraped_at';

export interface Markers {
  enrichedAt: Date | null;
  boardsDiscoveredAt: Date | null;
  scrapedAt: Date | null;
  careersUrl: string | null;
  nextScrapeAt: Date | null;
}

export async function readMarkers(db: Queryable, companyId: string): Promise<Markers> {
  const rows = await db.query<{
    enriched_at: Date | null;
    boards_discovered_at: Date | null;
    scraped_at: Date | null;
    careers_url: string | null;
    next_scrape_at: Date | null;
  }>(
    `SELECT enriched_at, boards_discovered_at, scraped_at, careers_url, next_scrape_at
     FROM company_pipeline WHERE company_id = $1`,
    [companyId],
  );
  const r = rows[0];
  return {
    enrichedAt: r?.enriched_at ?? null,
    boardsDiscoveredAt: r?.boards_discovered_at ?? null,
    scrapedAt: r?.scraped_at ?? null,
    careersUrl: r?.careers_url ?? null,
    nextScrapeAt: r?.next_scrape_at ?? null,
  };
}

export async function setMarker(
  tx: Queryable,
  companyId: string,
  marker: Marker,
  nowMs: number,
  extra: { careersUrl?: string | null; nextScrapeAt?: Date } = {},
): Promise<void> {
  const now = new Date(nowMs);
  await tx.query(
    `INSERT INTO company_pipeline (company_id, ${marker}, careers_url, next_scrape_at, updated_at)
     VALUES ($1, $2, $3, $4, $2)
     ON CONFLICT (company_id) DO UPDATE SET ${marker} = $2, updated_at = $2,
       careers_url = CASE WHEN $5 THEN $3 ELSE company_pipeline.careers_url END,
       next_scrape_at = COALESCE($4, company_pipeline.next_scrape_at)`,
    [companyId, now, extra.careersUrl ?? null, extra.nextScrapeAt ?? null, extra.careersUrl !== undefined],
  );
}

/**
 * Claims companies whose boards are due for a re-scrape and pushes their next time forward in one statement, so
 * two schedulers (two workers on one PostgreSQL) never claim the same company for the same round.
 */
export async function claimDueCompanies(
  db: Queryable,
  nowMs: number,
  nextAt: (companyId: string) => Date,
  limit: number,
): Promise<Array<{ companyId: string; domain: string }>> {
  const due = await db.query<{ company_id: string }>(
    `SELECT p.company_id FROM company_pipeline p JOIN companies c ON c.id = p.company_id
     WHERE p.next_scrape_at <= $1 AND c.active
       AND EXISTS (SELECT 1 FROM boards b WHERE b.company_id = p.company_id AND b.active)
     ORDER BY p.next_scrape_at LIMIT $2`,
    [new Date(nowMs), limit],
  );
  if (due.length === 0) return [];
  const ids = due.map((d) => d.company_id);
  const claimed = await db.query<{ company_id: string; domain: string }>(
    `UPDATE company_pipeline p SET next_scrape_at = n.next_at, updated_at = $3
     FROM unnest($1::uuid[], $2::timestamptz[]) AS n(id, next_at), companies c
     WHERE p.company_id = n.id AND c.id = p.company_id AND p.next_scrape_at <= $3
     RETURNING p.company_id, c.domain`,
    [ids, ids.map(nextAt), new Date(nowMs)],
  );
  return claimed.map((r) => ({ companyId: r.company_id, domain: r.domain }));
}
