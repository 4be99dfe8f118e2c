import { CLIENT_FACING_CATEGORIES, ROLE_CATEGORIES, type RoleCategory } from '../catalog/vocabulary.js';
import type { Queryable } from '../db/port.js';
import { DAY_MS } from './periods.js';

/**
 * Generated hiring history, for the sample catalog (a year) and the bench catalog (two years): closed jobs and
 * the job events of a company's tracked life, so the series, trends and charts have something to show. Everything
 * is drawn from the `random` given (seeded by the caller), so one seed is one history. The rows it writes are
 * ordinary inactive jobs and job events; the rollup trigger (or a rebuild) turns them into hiring_daily.
 */

/** A job of the history: found at tracking start (initial) or opened later; closed unless closedMs is null. */
export interface HistoryJob {
  roleCategory: RoleCategory;
  openedMs: number;
  initial: boolean;
  closedMs: number;
}

export interface HistoryPlan {
  /** When tracking began. */
  trackedFromMs: number;
  /** Before `nowMs`: days from tracking start to now. */
  nowMs: number;
  /** Jobs open at tracking start (coverage). */
  initialJobs: number;
  /** Openings per week over the tracked time, on average. */
  weeklyOpenings: number;
  /** Share of client-facing roles among openings at tracking start, and at now (linear in between). */
  clientFacingShare: readonly [number, number];
}

const CF: readonly RoleCategory[] = CLIENT_FACING_CATEGORIES;
const BROAD: readonly RoleCategory[] = ROLE_CATEGORIES.filter((c) => !CF.includes(c));

const pick = <T>(list: readonly T[], random: () => number): T =>
  list[Math.floor(random() * list.length)] as T;

/** Days a job stays open: 10 to ~120, most around a month. */
const openDays = (random: () => number) => 10 + Math.floor(-Math.log(1 - random()) * 30);

/** The closed jobs of one company's history; every one closes before `nowMs`. */
export function planHistory(plan: HistoryPlan, random: () => number): HistoryJob[] {
  const out: HistoryJob[] = [];
  const span = plan.nowMs - plan.trackedFromMs;
  const category = (at: number): RoleCategory => {
    const [a, b] = plan.clientFacingShare;
    const share = a + ((b - a) * (at - plan.trackedFromMs)) / Math.max(span, 1);
    return random() < share ? pick(CF, random) : pick(BROAD, random);
  };
  const push = (openedMs: number, initial: boolean) => {
    const closedMs = openedMs + openDays(random) * DAY_MS + Math.floor(random() * 8) * 3_600_000;
    if (closedMs < plan.nowMs) out.push({ roleCategory: category(openedMs), openedMs, initial, closedMs });
  };
  for (let i = 0; i < plan.initialJobs; i++) push(plan.trackedFromMs, true);
  const weeks = span / (7 * DAY_MS);
  const openings = Math.round(weeks * plan.weeklyOpenings * (0.5 + random()));
  for (let i = 0; i < openings; i++) {
    // Later openings are likelier: hiring grows over the tracked time.
    const at = plan.trackedFromMs + Math.floor(Math.sqrt(random()) * span);
    push(at - (at % 3_600_000), false);
  }
  return out;
}

export interface HistoryCompany {
  companyId: string;
  companyName: string;
  /** Prefix of the history jobs' external ids (unique per company). */
  externalPrefix: string;
  /** Where the history jobs' URLs point. */
  urlBase: string;
  jobs: readonly HistoryJob[];
}

const TITLES: Record<RoleCategory, string> = {
  fde: 'Forward Deployed Engineer',
  solutions_engineer: 'Solutions Engineer',
  csm: 'Customer Success Manager',
  tam: 'Technical Account Manager',
  sales_engineer: 'Sales Engineer',
  implementation: 'Implementation Manager',
  professional_services: 'Professional Services Consultant',
  engineering: 'Software Engineer',
  product: 'Product Manager',
  design: 'Product Designer',
  marketing: 'Product Marketing Manager',
  data: 'Data Scientist',
  operations: 'Business Operations Manager',
  sales: 'Account Executive',
  finance: 'Financial Analyst',
  hr: 'Recruiter',
  legal: 'Counsel',
  other: 'Generalist',
};

/**
 * Writes the history jobs (inactive, marked sample, source 'sample') and their events: 'initial' or 'opened' at
 * the opening, 'closed' at the closing (with days open when the opening was seen). Returns the number of jobs.
 */
export async function writeHistory(tx: Queryable, companies: readonly HistoryCompany[]): Promise<number> {
  const cols = { company: [] as string[], name: [] as string[], ext: [] as string[], title: [] as string[] };
  const more = { category: [] as string[], url: [] as string[], opened: [] as Date[], closed: [] as Date[] };
  const initial: boolean[] = [];
  for (const c of companies) {
    c.jobs.forEach((j, i) => {
      cols.company.push(c.companyId);
      cols.name.push(c.companyName);
      cols.ext.push(`${c.externalPrefix}${i + 1}`);
      cols.title.push(TITLES[j.roleCategory]);
      more.category.push(j.roleCategory);
      more.url.push(`${c.urlBase}#${c.externalPrefix}${i + 1}`);
      more.opened.push(new Date(j.openedMs));
      more.closed.push(new Date(j.closedMs));
      initial.push(j.initial);
    });
  }
  if (cols.ext.length === 0) return 0;
  // Inserted inactive, the jobs trigger records nothing: the events are written below, as they happened.
  await tx.query(
    `WITH h AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                            $7::timestamptz[], $8::timestamptz[], $9::boolean[])
         AS h(company_id, company_name, external_id, title, role_category, url, opened_at, closed_at, initial)),
     j AS (
       INSERT INTO jobs (company_id, company_name, source, external_id, title, role_category, url, description,
                         is_sample, posted_at, first_seen_at, last_seen_at, active, created_at, updated_at,
                         countries, regions, remote_scopes)
       SELECT company_id, company_name, 'sample', external_id, title, role_category, url,
              'Sample posting (generated history): not a real opening.', true, opened_at, opened_at, closed_at,
              false, opened_at, closed_at, '{}', '{}', '{}'
       FROM h
       ON CONFLICT (company_id, source, external_id) DO NOTHING
       RETURNING id, company_id, external_id)
     INSERT INTO job_events (job_id, company_id, kind, role_category, at, open_days)
       SELECT j.id, j.company_id, e.kind, h.role_category, e.at, e.open_days
       FROM j JOIN h ON h.company_id = j.company_id AND h.external_id = j.external_id
       CROSS JOIN LATERAL (VALUES
         (CASE WHEN h.initial THEN 'initial' ELSE 'opened' END, h.opened_at, NULL::real),
         ('closed', h.closed_at,
          CASE WHEN h.initial THEN NULL ELSE extract(epoch FROM h.closed_at - h.opened_at) / 86400 END))
         AS e(kind, at, open_days)
       ORDER BY e.at`,
    [
      cols.company,
      cols.name,
      cols.ext,
      cols.title,
      more.category,
      more.url,
      more.opened,
      more.closed,
      initial,
    ],
  );
  return cols.ext.length;
}

/** mulberry32: a small seeded generator (the history must be the same on every machine for one seed). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A stable 32-bit seed from a string (FNV-1a). */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
