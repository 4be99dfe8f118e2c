import type { Queryable } from '../../db/port.js';
import { postingUrl, webUrlOr } from '../../net/web-url.js';
import { jobPlaces } from '../../sources/normalize/job-places.js';
import { parseLocations } from '../../sources/normalize/locations.js';
import type { Workplace } from '../../sources/normalize/workplace.js';
import { jobChangedAt } from '../fields/job-filters.js';
import { type JobOrder, jobOrderSql } from '../fields/job-order.js';
import { isDelta, jobCountSql, jobFilterSql, type SqlFragment } from '../filters.js';
import { isoFromMicros, micros } from '../micros.js';
import {
  type JobDetail,
  type JobFilters,
  type JobListItem,
  type RoleCategory,
  type SalaryRange,
  UUID_RE,
} from '../types.js';

/** Read queries over jobs. Lists touch only the page's rows: the order is served by the partial indexes. */

const LIST_COLUMNS = `j.id, j.title, c.name AS company_name, c.slug AS company_slug, c.domain AS company_domain,
  j.location, j.remote, j.role_category, j.url, j.posted_at`;

interface JobListRow {
  id: string;
  title: string;
  company_name: string;
  company_slug: string;
  company_domain: string;
  location: string;
  remote: boolean;
  role_category: RoleCategory;
  url: string;
  posted_at: Date;
}

const toListItem = (r: JobListRow): JobListItem => ({
  id: r.id,
  title: r.title,
  company: { name: r.company_name, slug: r.company_slug },
  location: r.location,
  remote: r.remote,
  roleCategory: r.role_category,
  url: postingUrl(r.url, r.company_domain),
  postedAt: r.posted_at.toISOString(),
});

/**
 * One page of active jobs, most recently posted first (or in `order`); id descending breaks ties so pages never
 * overlap.
 */
export async function listJobs(
  db: Queryable,
  filters: JobFilters,
  page: { limit: number; offset: number },
  order: JobOrder = { by: 'newest' },
): Promise<{ items: JobListItem[]; total: number }> {
  if (isDelta(filters)) return listChanges(db, filters, page);
  const where = jobFilterSql(filters, 1);
  const n = where.params.length;
  const params: unknown[] = [...where.params, page.limit, page.offset];
  const orderBy = jobOrderSql(order, (v) => `$${params.push(v)}`);
  // Deferred join: the offset walks ids in an index (index-only where it can) and only the page's rows are then
  // read and joined; joining before the offset costs ~100x on the deepest token page (offset 950 of 100k rows).
  const rows = await db.query<JobListRow>(
    `SELECT ${LIST_COLUMNS}
     FROM (SELECT j.id FROM jobs j WHERE ${where.sql}
           ORDER BY ${orderBy} LIMIT $${n + 1} OFFSET $${n + 2}) p
     JOIN jobs j ON j.id = p.id JOIN companies c ON c.id = j.company_id
     ORDER BY ${orderBy}`,
    params,
  );
  return { items: rows.map(toListItem), total: await countJobs(db, filters, where, rows.length, page) };
}

/** The active jobs of `ids` (a search shortlist) in `order` instead of their rank; others are skipped. */
export async function orderJobIds(db: Queryable, ids: readonly string[], order: JobOrder): Promise<string[]> {
  if (ids.length === 0) return [];
  const params: unknown[] = [ids];
  const orderBy = jobOrderSql(order, (v) => `$${params.push(v)}`);
  const rows = await db.query<{ id: string }>(
    `SELECT j.id FROM jobs j WHERE j.id = ANY($1::uuid[]) AND j.active ORDER BY ${orderBy}`,
    params,
  );
  return rows.map((r) => r.id);
}

/**
 * Delta sync (updated_since): jobs changed after the instant, closed ones included, oldest change first, then id
 * ascending, so a client pages by keyset (the last item's updatedAt and id) and never skips a job changed meanwhile:
 * a job that changes again moves behind the cursor's end and is read again.
 */
async function listChanges(
  db: Queryable,
  filters: JobFilters,
  page: { limit: number; offset: number },
): Promise<{ items: JobListItem[]; total: number }> {
  const where = jobFilterSql(filters, 1);
  const n = where.params.length;
  // Deferred join, as listJobs: the page is chosen over the changed rows alone, then only its rows are joined to
  // companies (joining first hashed all 20k companies for a 50-row page at a million jobs).
  const rows = await db.query<JobListRow & { active: boolean; changed_at: Date }>(
    `SELECT ${LIST_COLUMNS}, j.active, p.changed_at
     FROM (SELECT j.id, ${jobChangedAt('j')} AS changed_at FROM jobs j WHERE ${where.sql}
           ORDER BY changed_at, j.id LIMIT $${n + 1} OFFSET $${n + 2}) p
     JOIN jobs j ON j.id = p.id JOIN companies c ON c.id = j.company_id
     ORDER BY p.changed_at, j.id`,
    [...where.params, page.limit, page.offset],
  );
  const items = rows.map((r) => ({
    ...toListItem(r),
    active: r.active,
    updatedAt: r.changed_at.toISOString(),
  }));
  return { items, total: await countJobs(db, filters, where, rows.length, page) };
}

/**
 * The total for a listing. A short page already tells it. When every filter given declares a condition over the
 * trigger-maintained count tables (job_counts by category and remote, job_place_counts by place too), it is a
 * sum over those; otherwise (a company filter, say) the matching jobs are counted through their indexes.
 */
async function countJobs(
  db: Queryable,
  filters: JobFilters,
  where: SqlFragment,
  returned: number,
  page: { limit: number; offset: number },
): Promise<number> {
  if (returned > 0 ? returned < page.limit : page.offset === 0) return page.offset + returned;
  const counts = jobCountSql(filters) ?? {
    sql: `SELECT count(*)::int AS n FROM jobs j WHERE ${where.sql}`,
    params: where.params,
  };
  const rows = await db.query<{ n: number }>(counts.sql, counts.params);
  return rows[0]?.n ?? 0;
}

/** Active jobs by id, in the order of `ids` (a search shortlist's rank); ids no longer active are skipped. */
export async function jobsByIds(db: Queryable, ids: readonly string[]): Promise<JobListItem[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<JobListRow>(
    `SELECT ${LIST_COLUMNS} FROM jobs j JOIN companies c ON c.id = j.company_id
     WHERE j.id = ANY($1::uuid[]) AND j.active`,
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toListItem(row)] : [];
  });
}

const DAY_US = 86_400_000_000;
/** Whole days from a posting's first date to its last sighting open (never negative). */
const openDays = (postedAtUs: number, lastSeenAtUs: number): number =>
  Math.max(0, Math.floor((lastSeenAtUs - postedAtUs) / DAY_US));

/** A job's company as its detail shows it. */
export type JobCompany = JobDetail['company'];

/** What the job detail query returns: one JSON value (parsed natively: cheaper than a dozen columns). */
export interface JobDetailDoc {
  id: string;
  title: string;
  location: string;
  remote: boolean;
  roleCategory: RoleCategory;
  url: string;
  postedAtUs: number;
  description: string;
  department: string | null;
  workplace: Workplace;
  salary: SalaryRange | null;
  source: string;
  firstSeenAtUs: number;
  lastSeenAtUs: number;
  boardPostedAtUs: number | null;
  boardUpdatedAtUs: number | null;
  reposts: number;
  repostOf: string | null;
  active: boolean;
  sample: boolean;
  classificationRule: string | null;
  companyId: string;
  company?: JobCompany;
}

const jobDetailSql = (
  withCompany: boolean,
  where: string,
) => `SELECT json_build_object('id', j.id, 'title', j.title,
    'location', j.location, 'remote', j.remote, 'roleCategory', j.role_category, 'url', j.url,
    'postedAtUs', ${micros('j.posted_at')}, 'description', j.description, 'department', j.department,
    'workplace', j.workplace,
    'salary', CASE WHEN j.salary_source IS NOT NULL THEN json_build_object('min', j.salary_min,
      'max', j.salary_max, 'currency', j.salary_currency, 'period', j.salary_period, 'source', j.salary_source)
    END, 'source', j.source, 'firstSeenAtUs', ${micros('j.first_seen_at')},
    'lastSeenAtUs', ${micros('j.last_seen_at')}, 'boardPostedAtUs', ${micros('j.board_posted_at')},
    'boardUpdatedAtUs', ${micros('j.board_updated_at')}, 'reposts', j.reposts, 'repostOf', j.reposted_from,
    'active', j.active, 'sample', j.is_sample,
    'classificationRule', j.classification_rule, 'companyId', j.company_id${
      withCompany
        ? `, 'company', json_build_object('id', c.id, 'name', c.name, 'slug', c.slug, 'domain', c.domain,
      'oneLiner', c.one_liner, 'website', c.website)`
        : ''
    }) AS doc
  FROM jobs j${withCompany ? ' JOIN companies c ON c.id = j.company_id' : ''} WHERE ${where}`;

const JOB_DETAIL = jobDetailSql(true, 'j.id = $1');
const JOB_DETAIL_ROWS = jobDetailSql(false, 'j.id = ANY($1::uuid[])');
/** The most ids one batched read asks for; more waiting go in the next query. */
const MAX_BATCH = 100;

interface Waiting {
  resolve(doc: JobDetailDoc | undefined): void;
  reject(err: unknown): void;
}

/**
 * Reads job rows by id, one query for every read asked for in the same turn of the event loop. A detail that
 * misses the response cache costs its query mostly in per-statement work, not in the row, so reading several
 * rows in one statement costs each far less (docs/performance.md).
 * Concurrent requests for different jobs (the mixed /jobs/:id load) then share a query. Each read still sees
 * everything committed before it was asked for: the query runs after it, in the next turn.
 */
export class JobRowReader {
  private waiting = new Map<string, Waiting[]>();
  private scheduled = false;

  constructor(private readonly db: Queryable) {}

  read(id: string): Promise<JobDetailDoc | undefined> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(id);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(id, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.size > 0) {
      const batch = new Map<string, Waiting[]>();
      for (const [id, list] of this.waiting) {
        if (batch.size === MAX_BATCH) break;
        batch.set(id, list);
      }
      for (const id of batch.keys()) this.waiting.delete(id);
      try {
        // A text array literal: ids are checked UUIDs, and a string keeps the statement named (db/pglite.ts).
        const rows = await this.db.query<{ doc: JobDetailDoc }>(
          JOB_DETAIL_ROWS,
          [`{${[...batch.keys()].join(',')}}`],
          { name: 'job_detail_rows' },
        );
        const byId = new Map(rows.map((r) => [r.doc.id, r.doc]));
        for (const [id, list] of batch) for (const w of list) w.resolve(byId.get(id));
      } catch (err) {
        for (const list of batch.values()) for (const w of list) w.reject(err);
      }
    }
    this.scheduled = false;
  }
}

/**
 * One job, active or not (a closed posting answers with active: false rather than vanishing). `companyOf`, when
 * given, supplies the company from memory (the in-process replica) so the query reads the job's row only, through
 * `rows` (batched; without one, this call reads alone); a company it does not know is read with the job instead.
 */
export async function getJob(
  db: Queryable,
  id: string,
  companyOf?: (companyId: string) => JobCompany | undefined,
  rows?: JobRowReader,
): Promise<JobDetail | undefined> {
  // Not a UUID: no such job (PostgreSQL would reject the cast with an error, not an empty result).
  if (!UUID_RE.test(id)) return undefined;
  let row: { doc: JobDetailDoc } | undefined;
  if (companyOf) {
    const doc = await (rows ?? new JobRowReader(db)).read(id.toLowerCase());
    row = doc && { doc };
  } else {
    [row] = await db.query<{ doc: JobDetailDoc }>(JOB_DETAIL, [id], { name: 'job_detail' });
  }
  if (!row) return undefined;
  let company = row.doc.company ?? companyOf?.(row.doc.companyId);
  if (!company) {
    [row] = await db.query<{ doc: JobDetailDoc }>(JOB_DETAIL, [id], { name: 'job_detail' });
    company = row?.doc.company;
    if (!row || !company) return undefined;
  }
  const d = row.doc;
  return {
    id: d.id,
    title: d.title,
    location: d.location,
    remote: d.remote,
    roleCategory: d.roleCategory,
    url: postingUrl(d.url, company.domain),
    postedAt: isoFromMicros(d.postedAtUs),
    description: d.description,
    department: d.department,
    workplace: d.workplace,
    salary: d.salary,
    locations: parseLocations([d.location]),
    // The function the writers store them with (jobs.countries, ...), over the same text.
    places: jobPlaces(d.location),
    source: d.source,
    firstSeenAt: isoFromMicros(d.firstSeenAtUs),
    lastSeenAt: isoFromMicros(d.lastSeenAtUs),
    boardPostedAt: d.boardPostedAtUs === null ? null : isoFromMicros(d.boardPostedAtUs),
    boardUpdatedAt: d.boardUpdatedAtUs === null ? null : isoFromMicros(d.boardUpdatedAtUs),
    openDays: openDays(d.postedAtUs, d.lastSeenAtUs),
    reposts: d.reposts,
    repostOf: d.repostOf,
    active: d.active,
    sample: d.sample,
    classification: { category: d.roleCategory, rule: d.classificationRule },
    company: { ...company, website: webUrlOr(company.website, null) },
  };
}

/** What a listing page shows of a job beyond its list item: its stated pay and when the catalog first saw it. */
export interface JobCard {
  salary: SalaryRange | null;
  /** ISO 8601 UTC. */
  firstSeenAt: string;
}

/** The cards of `ids` (a page's jobs), by id; ids unknown are missing. */
export async function jobCardsByIds(db: Queryable, ids: readonly string[]): Promise<Map<string, JobCard>> {
  // Not UUIDs: no such jobs. The rest travel as one array literal, which keeps the statement named (db/pglite.ts):
  // on the embedded database a uuid[] parameter cost several times the query.
  const valid = ids.filter((id) => UUID_RE.test(id));
  if (valid.length === 0) return new Map();
  const rows = await db.query<{
    id: string;
    first_seen_at: Date;
    min: string | null;
    max: string | null;
    currency: string | null;
    period: SalaryRange['period'] | null;
    source: SalaryRange['source'] | null;
  }>(
    `SELECT id, first_seen_at, salary_min::text AS min, salary_max::text AS max, salary_currency AS currency,
       salary_period AS period, salary_source AS source
     FROM jobs WHERE id = ANY($1::uuid[])`,
    [`{${valid.join(',')}}`],
    { name: 'job_cards' },
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        firstSeenAt: r.first_seen_at.toISOString(),
        salary:
          r.min && r.max && r.currency && r.period && r.source
            ? {
                min: Number(r.min),
                max: Number(r.max),
                currency: r.currency,
                period: r.period,
                source: r.source,
              }
            : null,
      },
    ]),
  );
}
