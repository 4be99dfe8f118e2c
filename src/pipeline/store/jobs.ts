import { placesParams } from '../../catalog/sql/job-places.js';
import type { RoleCategory } from '../../catalog/types.js';
import type { Queryable } from '../../db/port.js';
import { type PostingFields, postingFields } from '../../sources/normalize/fields.js';
import type { KnownPosting, NormalizedPosting, Provider } from '../../sources/types.js';
import { linkReposts } from './reposts.js';

/**
 * Job writes of a scrape. Idempotent by construction: postings upsert on (company, source, external id), so a
 * step re-run after a crash rewrites the same rows instead of adding new ones; postings missing from the
 * board's current listing are deactivated, never deleted (a posting that comes back is re-activated and keeps
 * its first-seen time, which is what `newToday` counts). A posting that comes back under a new id is linked to
 * its closed earlier self and keeps its first dates (reposts.ts).
 */

export interface ClassifiedPosting extends NormalizedPosting {
  roleCategory: RoleCategory;
  /** The classification rule that decided roleCategory (src/pipeline/classify). */
  classificationRule: string;
}

export interface BoardWrite {
  companyId: string;
  companyName: string;
  boardId: string;
  provider: Provider;
  postings: readonly ClassifiedPosting[];
}

export interface WriteCounts {
  inserted: number;
  updated: number;
  deactivated: number;
  /** Ids of rows inserted or changed (to re-embed). */
  changedIds: string[];
}

/** Catalog column bounds (migrations/0001): longer values are cut rather than failing the whole board. */
const cut = (s: string | null | undefined, n: number): string | null => (s == null ? null : s.slice(0, n));

function salaryText(p: NormalizedPosting): string | null {
  const s = p.salary;
  if (!s) return null;
  if (s.text) return cut(s.text, 300);
  if (s.min === null && s.max === null) return null;
  const range = [s.min, s.max].filter((v) => v !== null).join(' - ');
  return cut([s.currency, range, s.interval ? `per ${s.interval}` : null].filter(Boolean).join(' '), 300);
}

/**
 * Upserts the incoming postings; a row counts as changed when any stored field differs (updated_at moves to now).
 * Parameters: $1 company id, $2 company name, $3 provider, $4 now, $5 board id, then one array per column.
 */
const UPSERT_POSTINGS = `WITH incoming AS (
     SELECT * FROM unnest($6::text[], $7::text[], $8::text[], $9::boolean[], $10::text[], $11::text[],
                          $12::text[], $13::text[], $14::text[], $15::timestamptz[], $16::numeric[],
                          $17::numeric[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[],
                          $23::timestamptz[], $24::text[], $25::text[], $26::text[], $27::text[])
       AS x(external_id, title, location, remote, department, role_category, url, description, salary, posted_at,
            salary_min, salary_max, salary_currency, salary_period, salary_source, classification_rule,
            requisition_id, board_updated_at, workplace, countries, regions, remote_scopes)
   )
   INSERT INTO jobs AS j (company_id, company_name, source, external_id, title, location, remote, department,
                     role_category, url, description, salary, posted_at, first_seen_at, last_seen_at, active,
                     created_at, updated_at, board_id, salary_min, salary_max, salary_currency, salary_period,
                     salary_source, classification_rule, requisition_id, board_posted_at, board_updated_at, workplace,
                     countries, regions, remote_scopes)
   SELECT $1, $2, $3, external_id, title, location, remote, department, role_category, url, description, salary,
          COALESCE(posted_at, $4), $4, $4, true, $4, $4, $5, salary_min, salary_max, salary_currency,
          salary_period, salary_source, classification_rule, requisition_id, posted_at, board_updated_at, workplace,
          string_to_array(countries, ','), string_to_array(regions, ','), string_to_array(remote_scopes, ',')
   FROM incoming
   ON CONFLICT (company_id, source, external_id) DO UPDATE SET
     title = EXCLUDED.title, location = EXCLUDED.location, remote = EXCLUDED.remote, workplace = EXCLUDED.workplace,
     countries = EXCLUDED.countries, regions = EXCLUDED.regions, remote_scopes = EXCLUDED.remote_scopes,
     department = EXCLUDED.department, role_category = EXCLUDED.role_category, url = EXCLUDED.url,
     classification_rule = EXCLUDED.classification_rule,
     description = EXCLUDED.description, salary = EXCLUDED.salary, company_name = EXCLUDED.company_name,
     salary_min = EXCLUDED.salary_min, salary_max = EXCLUDED.salary_max,
     salary_currency = EXCLUDED.salary_currency, salary_period = EXCLUDED.salary_period,
     salary_source = EXCLUDED.salary_source,
     last_seen_at = EXCLUDED.last_seen_at, active = true, board_id = EXCLUDED.board_id,
     requisition_id = EXCLUDED.requisition_id,
     -- The posted date as first read: Workday's relative "Posted 3 Days Ago" would move it on every scrape.
     board_posted_at = COALESCE(j.board_posted_at, EXCLUDED.board_posted_at),
     board_updated_at = EXCLUDED.board_updated_at,
     updated_at = CASE
       WHEN (j.title, j.location, j.remote, j.department, j.role_category, j.url, j.description, j.salary, j.active,
             j.salary_min, j.salary_max, j.salary_currency, j.salary_period, j.salary_source, j.workplace)
            IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.location, EXCLUDED.remote, EXCLUDED.department,
              EXCLUDED.role_category, EXCLUDED.url, EXCLUDED.description, EXCLUDED.salary, true,
              EXCLUDED.salary_min, EXCLUDED.salary_max, EXCLUDED.salary_currency, EXCLUDED.salary_period,
              EXCLUDED.salary_source, EXCLUDED.workplace)
       THEN EXCLUDED.updated_at ELSE j.updated_at END
   RETURNING j.id, (xmax = 0) AS inserted, (j.updated_at = $4) AS changed`;

/** The parameters of UPSERT_POSTINGS: one array per column, in the order of the unnest(). */
function upsertParams(w: BoardWrite, unique: readonly ClassifiedPosting[], now: Date): unknown[] {
  const fields: PostingFields[] = unique.map(postingFields);
  const pay = <K extends 'min' | 'max' | 'currency' | 'period' | 'source'>(k: K) =>
    fields.map((f) => f.salary?.[k] ?? null);
  return [
    w.companyId,
    w.companyName,
    w.provider,
    now,
    w.boardId,
    unique.map((p) => cut(p.externalId, 200)),
    fields.map((f) => cut(f.title, 500) || 'Untitled position'),
    fields.map((f) => cut(f.location, 500) ?? ''),
    fields.map((f) => f.workplace === 'remote'),
    unique.map((p) => cut(p.department, 200)),
    unique.map((p) => p.roleCategory),
    unique.map((p) => p.url),
    unique.map((p) => p.descriptionText),
    unique.map(salaryText),
    unique.map((p) => validDate(p.postedAt)),
    pay('min'),
    pay('max'),
    pay('currency'),
    pay('period'),
    pay('source'),
    unique.map((p) => p.classificationRule),
    unique.map((p) => cut(p.requisitionId, 200)),
    unique.map((p) => validDate(p.updatedAt)),
    fields.map((f) => f.workplace),
    // The places derived from the location text as stored (the backfill derives them from the same text).
    ...placesParams(fields.map((f) => cut(f.location, 500) ?? '')),
  ];
}

const validDate = (d: Date | null | undefined): Date | null => (d && !Number.isNaN(d.getTime()) ? d : null);

export async function writeBoardPostings(tx: Queryable, w: BoardWrite, nowMs: number): Promise<WriteCounts> {
  const now = new Date(nowMs);
  // A board listing the same id twice would make ON CONFLICT touch one row twice (an error): last one wins.
  const unique = [...new Map(w.postings.map((p) => [p.externalId, p])).values()];
  const counts: WriteCounts = { inserted: 0, updated: 0, deactivated: 0, changedIds: [] };
  const inserted: string[] = [];
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, an empty upsert writes nothing
  if (unique.length > 0) {
    const rows = await tx.query<{ id: string; inserted: boolean; changed: boolean }>(
      UPSERT_POSTINGS,
      upsertParams(w, unique, now),
    );
    for (const r of rows) {
      if (r.inserted) inserted.push(r.id);
      if (r.inserted) counts.inserted++;
      else if (r.changed) counts.updated++;
      if (r.inserted || r.changed) counts.changedIds.push(r.id);
    }
  }
  const gone = await tx.query<{ id: string }>(
    `UPDATE jobs SET active = false, updated_at = $3
     WHERE board_id = $1 AND active AND NOT (external_id = ANY($2::text[])) RETURNING id`,
    [w.boardId, unique.map((p) => cut(p.externalId, 200)), now],
  );
  counts.deactivated = gone.length;
  // After the closes: a posting replaced under a new id in this very listing is closed by now.
  await linkReposts(tx, w.companyId, inserted, nowMs);
  return counts;
}

/** Every job of a board that vanished at the vendor goes inactive; the rows stay. */
export async function deactivateBoardJobs(tx: Queryable, boardId: string, nowMs: number): Promise<number> {
  const rows = await tx.query<{ id: string }>(
    'UPDATE jobs SET active = false, updated_at = $2 WHERE board_id = $1 AND active RETURNING id',
    [boardId, new Date(nowMs)],
  );
  return rows.length;
}

/** Days over which every posting's vendor details are read again at least once (see knownPostings). */
export const DETAIL_REFRESH_DAYS = 7;

/**
 * The board's active postings with their stored title, URL and description, for adapters that pay one request
 * per posting for its details (SourceAdapter.usesKnown). A listing cannot show that a description was edited, so
 * each day one share of the postings (by a hash of the external id) is left out and its details are read again:
 * every posting's at least once every DETAIL_REFRESH_DAYS days, spread evenly over them.
 */
export async function knownPostings(
  db: Queryable,
  boardId: string,
  nowMs: number,
): Promise<Map<string, KnownPosting>> {
  const day = Math.floor(nowMs / 86_400_000) % DETAIL_REFRESH_DAYS;
  const rows = await db.query<{
    external_id: string;
    title: string;
    url: string;
    description: string;
    location: string;
  }>(
    `SELECT external_id, title, url, description, location FROM jobs
      WHERE board_id = $1 AND active AND description <> '' AND abs(hashtext(external_id)::bigint) % $3 <> $2`,
    [boardId, day, DETAIL_REFRESH_DAYS],
  );
  return new Map(
    rows.map((r) => [
      r.external_id,
      { title: r.title, url: r.url, descriptionText: r.description, location: r.location || null },
    ]),
  );
}
