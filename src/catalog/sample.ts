import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/port.js';
import { jobWorkplace, type Workplace } from '../sources/normalize/workplace.js';
import { refreshActiveJobCounts, upsertCompanyByDomain } from './company-writes.js';
import sampleData from './sample-catalog.json' with { type: 'json' };
import { placesParams } from './sql/job-places.js';
import { startOfUtcDay } from './sql/stats.js';
import { setCompanyTags, type TagInput } from './tags.js';
import type { CompanyCategory, RoleCategory, TagDimension } from './types.js';

/**
 * The bundled sample catalog: real AI companies (public facts only) with invented postings that say so
 * everywhere: is_sample, source 'sample', a `#sample-N` URL on the company's own careers path, and a description
 * that starts with "Sample posting". Posting dates are relative to the clock, so "today" always has postings. A year
 * of generated hiring history comes with it (signals/sample-history.ts): closed sample jobs and their events.
 */

export interface SampleJob {
  title: string;
  roleCategory: RoleCategory;
  department: string;
  location: string;
  /** Remote only: a hybrid or on-site posting is false (its location says "(Hybrid)" where it is hybrid). */
  remote: boolean;
  /** The stated pay range, as a vendor's structured field gives it; absent where the posting states none. */
  salary?: { min: number; max: number; currency: string; period: 'year' | 'hour' | 'day' };
  /** 0 = today (between 00:00 UTC and now). */
  daysAgo: number;
  /** Time of day in minutes; for today it is scaled into the part of the day already past. */
  minuteOfDay: number;
}

export interface SampleCompany {
  name: string;
  domain: string;
  oneLiner: string;
  category: CompanyCategory;
  /** Hires for client-facing roles for the first time: its generated history has none of them. */
  newlyHiring?: boolean;
  tags: Record<TagDimension, string[]>;
  jobs: SampleJob[];
}

export const SAMPLE_CATALOG = sampleData as unknown as { companies: SampleCompany[] };

const DAY_MS = 86_400_000;
// Arbitrary constant: two processes starting on one empty database load the sample once.
const SAMPLE_LOCK_KEY = 727_311_002;

/** When a sample posting was published, relative to the clock and never in the future. */
export function samplePostedAt(job: Pick<SampleJob, 'daysAgo' | 'minuteOfDay'>, nowMs: number): Date {
  const dayStart = startOfUtcDay(nowMs);
  if (job.daysAgo === 0)
    return new Date(dayStart + Math.floor(((nowMs - dayStart) * job.minuteOfDay) / 1440));
  return new Date(dayStart - job.daysAgo * DAY_MS + job.minuteOfDay * 60_000);
}

export interface SampleLoadResult {
  loaded: boolean;
  companies: number;
  jobs: number;
}

/**
 * A sample posting's id: name-based (a UUID v5 layout over SHA-1 of its external id), so every catalog that loads
 * the sample gives a posting the same id, and the API reference can name one that answers.
 */
export function sampleJobId(externalId: string): string {
  const h = createHash('sha1').update(`frontline-sample:${externalId}`).digest();
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x50;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** The id of the sample's first Anthropic posting (a forward deployed engineer), the API reference's example. */
export const SAMPLE_JOB_EXAMPLE_ID = sampleJobId('sample-anthropic-1');

/** The sample postings as parallel columns, the shape of the single unnest() insert. */
interface SampleJobColumns {
  id: string[];
  company: string[];
  name: string[];
  externalId: string[];
  title: string[];
  location: string[];
  remote: boolean[];
  workplace: Workplace[];
  department: string[];
  category: string[];
  payMin: (number | null)[];
  payMax: (number | null)[];
  payCurrency: (string | null)[];
  payPeriod: (string | null)[];
  url: string[];
  description: string[];
  postedAt: string[];
}

function emptySampleJobColumns(): SampleJobColumns {
  return {
    id: [],
    company: [],
    name: [],
    externalId: [],
    title: [],
    location: [],
    remote: [],
    workplace: [],
    department: [],
    category: [],
    payMin: [],
    payMax: [],
    payCurrency: [],
    payPeriod: [],
    url: [],
    description: [],
    postedAt: [],
  };
}

/** Appends one company's sample postings to the columns. */
function pushSampleJobs(
  job: SampleJobColumns,
  company: SampleCompany,
  id: string,
  slug: string,
  nowMs: number,
): void {
  company.jobs.forEach((j, i) => {
    const n = i + 1;
    job.id.push(sampleJobId(`sample-${slug}-${n}`));
    job.company.push(id);
    job.name.push(company.name);
    job.externalId.push(`sample-${slug}-${n}`);
    job.title.push(j.title);
    job.location.push(j.location);
    // Remote means remote only: a "(Hybrid)" posting flagged remote is hybrid.
    const workplace = jobWorkplace(null, j.location, j.remote);
    job.remote.push(workplace === 'remote');
    job.workplace.push(workplace);
    job.department.push(j.department);
    job.category.push(j.roleCategory);
    job.payMin.push(j.salary?.min ?? null);
    job.payMax.push(j.salary?.max ?? null);
    job.payCurrency.push(j.salary?.currency ?? null);
    job.payPeriod.push(j.salary?.period ?? null);
    job.url.push(`https://${company.domain}/careers#sample-${n}`);
    job.description.push(
      `Sample posting: this is not a real opening at ${company.name}. It illustrates a ${j.title} role ` +
        `(${j.department}, ${j.location}${j.remote ? ', remote' : ''}) in the Frontline sample ` +
        `catalog. See ${company.domain} for the company's actual openings.`,
    );
    job.postedAt.push(samplePostedAt(j, nowMs).toISOString());
  });
}

/** Creates (or finds) one sample company with its tags; returns its id and slug. */
async function upsertSampleCompany(
  tx: Queryable,
  company: SampleCompany,
  nowMs: number,
): Promise<{ id: string; slug: string }> {
  const { id, slug } = await upsertCompanyByDomain(
    tx,
    company.domain,
    {
      name: company.name,
      website: `https://${company.domain}`,
      oneLiner: company.oneLiner,
      category: company.category,
      isSample: true,
    },
    nowMs,
  );
  const tags: TagInput[] = Object.entries(company.tags).flatMap(([dimension, values]) =>
    values.map((value) => ({ dimension: dimension as TagDimension, value })),
  );
  await setCompanyTags(tx, id, tags, nowMs);
  return { id, slug };
}

/** Inserts every sample posting in one statement; postings already present are left alone. */
async function insertSampleJobs(tx: Queryable, job: SampleJobColumns, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO jobs (id, company_id, company_name, source, external_id, title, location, remote, department,
       role_category, url, description, workplace, is_sample, posted_at, first_seen_at, last_seen_at, created_at,
       updated_at, salary_min, salary_max, salary_currency, salary_period, salary_source, countries, regions,
       remote_scopes)
     SELECT w.id, w.company_id, w.company_name, 'sample', w.external_id, w.title, w.location, w.remote,
       w.department, w.role_category, w.url, w.description, w.workplace, true, w.posted_at, w.posted_at, $12, $12,
       $12, w.pay_min, w.pay_max, w.pay_currency, w.pay_period,
       CASE WHEN w.pay_min IS NOT NULL THEN 'structured' END, string_to_array(w.countries, ','),
       string_to_array(w.regions, ','), string_to_array(w.remote_scopes, ',')
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[],
       $8::text[], $9::text[], $10::text[], $11::timestamptz[], $13::uuid[], $14::numeric[], $15::numeric[],
       $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[])
       AS w(company_id, company_name, external_id, title, location, remote, department, role_category, url,
            description, posted_at, id, pay_min, pay_max, pay_currency, pay_period, workplace, countries, regions,
            remote_scopes)
     ON CONFLICT DO NOTHING`,
    [
      job.company,
      job.name,
      job.externalId,
      job.title,
      job.location,
      job.remote,
      job.department,
      job.category,
      job.url,
      job.description,
      job.postedAt,
      now,
      job.id,
      job.payMin,
      job.payMax,
      job.payCurrency,
      job.payPeriod,
      job.workplace,
      ...placesParams(job.location),
    ],
  );
}

/** A sample company as loaded, for what fills in beside it. */
export interface LoadedSampleCompany {
  id: string;
  slug: string;
  name: string;
  domain: string;
  newlyHiring: boolean;
}

/** What fills in with the sample in its transaction (the composition root passes the signals' history). */
export type SampleCompanion = (
  tx: Queryable,
  companies: readonly LoadedSampleCompany[],
  nowMs: number,
) => Promise<unknown>;

/**
 * Loads the sample catalog in one transaction when the catalog has no company yet; otherwise does nothing.
 * Safe to call on every start and from two processes at once (advisory lock, then the emptiness check).
 */
export async function loadSampleCatalog(
  db: Db,
  nowMs: number,
  companion?: SampleCompanion,
): Promise<SampleLoadResult> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SAMPLE_LOCK_KEY]);
    const [existing] = await tx.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM companies) AS any');
    if (existing?.any) return { loaded: false, companies: 0, jobs: 0 };

    const ids: string[] = [];
    const loaded: LoadedSampleCompany[] = [];
    const job = emptySampleJobColumns();
    for (const company of SAMPLE_CATALOG.companies) {
      const { id, slug } = await upsertSampleCompany(tx, company, nowMs);
      ids.push(id);
      loaded.push({
        id,
        slug,
        name: company.name,
        domain: company.domain,
        newlyHiring: company.newlyHiring === true,
      });
      pushSampleJobs(job, company, id, slug, nowMs);
    }
    await insertSampleJobs(tx, job, new Date(nowMs));
    await companion?.(tx, loaded, nowMs);
    await refreshActiveJobCounts(tx, ids, nowMs);
    return { loaded: true, companies: ids.length, jobs: job.title.length };
  });
}
