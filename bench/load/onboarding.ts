import type pg from 'pg';
import { companySite } from '../../test/pipeline/support.js';
import { generatePostings, startFakeAts } from '../../test/support/fake-ats.js';
import { startFakeSites } from '../../test/support/fake-site.js';

/**
 * The onboarding part of the load mix: fake companies (a site with a careers page and a Greenhouse board each)
 * served on loopback and reached through OUTBOUND_HOST_MAP, onboarded at a steady rate while the rest of the
 * mix runs, then followed to the end of their runs and checked in the database.
 */

export interface OnboardingRun {
  workflowId: string;
  status: string;
  /** The company's domain, from the result of a succeeded run. */
  domain: string | undefined;
  /** Enqueue to end of run, ms. */
  totalMs: number;
  /** Enqueue to the first step's start, ms: time spent waiting for a worker. */
  queuedMs: number;
}

export interface OnboardingOutcome {
  /** POSTs answered 202 (each a distinct company, so a distinct run). */
  accepted: number;
  runs: OnboardingRun[];
  /** Runs still enqueued or running when the settle budget ran out. */
  unfinished: number;
  /** Jobs stored for the companies whose run succeeded, and what their boards list. */
  jobsStored: number;
  jobsExpected: number;
  duplicateJobs: number;
}

/** The POSTs themselves, in the shape of one row of the route table. */
export interface PostStats {
  requests: number;
  p50: number;
  p99: number;
  /** status → count; 0 stands for a network error. */
  statuses: Record<string, number>;
}

export interface OnboardingLoad {
  /** host=origin pairs for the worker's OUTBOUND_HOST_MAP. */
  hostMap: Record<string, string>;
  /**
   * POSTs one new company every 1/rate s for durationS (autocannon paces no slower than 1 request/s, and a
   * realistic onboarding rate is well below that).
   */
  drive(apiUrl: string, auth: Record<string, string>, rate: number, durationS: number): Promise<PostStats>;
  /** Waits (up to timeoutMs) for every accepted run to end, then checks the stored jobs. */
  settle(
    apiUrl: string,
    auth: Record<string, string>,
    db: pg.Client,
    timeoutMs: number,
  ): Promise<OnboardingOutcome>;
  close(): Promise<void>;
}

export async function startOnboardingLoad(opts: {
  companies: number;
  postings: number;
  tag: string;
}): Promise<OnboardingLoad> {
  const domains = Array.from({ length: opts.companies }, (_, i) => `fake-${opts.tag}-${i}.com`);
  const token = (i: number) => `fake${opts.tag}${i}`;
  const ats = await startFakeAts({
    greenhouse: Object.fromEntries(
      domains.map((_, i) => [token(i), generatePostings(opts.postings, `${i}-`)]),
    ),
  });
  const sites = await startFakeSites(
    Object.fromEntries(
      domains.map((d, i) => [d, companySite(`Fake ${i}`, [`https://boards.greenhouse.io/${token(i)}`])]),
    ),
  );
  const accepted = new Set<string>();
  return {
    hostMap: { ...sites.hostMap, ...ats.hostMap },
    drive: async (apiUrl, auth, rate, durationS) => {
      const latencies: number[] = [];
      const statuses: Record<string, number> = {};
      const inFlight: Promise<void>[] = [];
      const post = async (i: number) => {
        const started = performance.now();
        let status = 0;
        try {
          const res = await fetch(`${apiUrl}/api/v1/onboard`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Fake ${i}`, domain: domains[i % domains.length] }),
          });
          status = res.status;
          const body = (await res.json()) as { data?: { workflowId?: string } };
          if (status === 202 && body.data?.workflowId) accepted.add(body.data.workflowId);
        } catch {
          // counted as status 0
        }
        latencies.push(performance.now() - started);
        statuses[status] = (statuses[status] ?? 0) + 1;
      };
      const end = Date.now() + durationS * 1000;
      // Open loop: a slow answer does not delay the next company.
      for (let i = 0; Date.now() < end; i++) {
        inFlight.push(post(i));
        await new Promise((r) => setTimeout(r, 1000 / rate));
      }
      await Promise.all(inFlight);
      latencies.sort((a, b) => a - b);
      return {
        requests: latencies.length,
        p50: Math.round(percentile(latencies, 50)),
        p99: Math.round(percentile(latencies, 99)),
        statuses,
      };
    },
    settle: async (apiUrl, auth, db, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      const runs: OnboardingRun[] = [];
      let unfinished = 0;
      for (const id of accepted) {
        for (;;) {
          const res = await fetch(`${apiUrl}/api/v1/workflows/${id}`, { headers: auth });
          const v = ((await res.json()) as { data: WorkflowJson }).data;
          if (v.status !== 'enqueued' && v.status !== 'running') {
            const created = Date.parse(v.createdAt);
            const firstStep = v.steps.find((s) => s.startedAt)?.startedAt;
            runs.push({
              workflowId: id,
              status: v.status,
              domain: v.result?.domain,
              totalMs: Date.parse(v.updatedAt) - created,
              queuedMs: firstStep ? Date.parse(firstStep) - created : 0,
            });
            break;
          }
          if (Date.now() > deadline) {
            unfinished++;
            break;
          }
          await new Promise((r) => setTimeout(r, 250));
        }
      }
      // Only the companies whose run was seen to succeed: a POST in flight at the deadline may have been
      // accepted without the bench hearing of it.
      const succeeded = runs
        .filter((r) => r.status === 'succeeded' && r.domain)
        .map((r) => r.domain as string);
      const { rows } = await db.query<{ jobs: number; distinct_jobs: number }>(
        `SELECT count(*)::int AS jobs, count(DISTINCT (j.source, j.external_id))::int AS distinct_jobs
         FROM jobs j JOIN companies c ON c.id = j.company_id
         WHERE c.domain = ANY($1::text[]) AND j.active`,
        [succeeded],
      );
      const stored = rows[0] ?? { jobs: 0, distinct_jobs: 0 };
      return {
        accepted: accepted.size,
        runs,
        unfinished,
        jobsStored: stored.jobs,
        jobsExpected: succeeded.length * opts.postings,
        duplicateJobs: stored.jobs - stored.distinct_jobs,
      };
    },
    close: async () => {
      await sites.close();
      await ats.close();
    },
  };
}

interface WorkflowJson {
  status: string;
  result?: { domain?: string };
  createdAt: string;
  updatedAt: string;
  steps: Array<{ startedAt: string | null }>;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);

/** The report's paragraph on onboarding. */
export function onboardingReport(o: OnboardingOutcome, rate: number): string {
  const by = (status: string) => o.runs.filter((r) => r.status === status).length;
  const total = o.runs.map((r) => r.totalMs).sort((a, b) => a - b);
  const queued = o.runs.map((r) => r.queuedMs).sort((a, b) => a - b);
  const complete =
    o.unfinished === 0 &&
    by('succeeded') === o.accepted &&
    o.jobsStored === o.jobsExpected &&
    o.duplicateJobs === 0;
  return [
    `Onboarding (${rate}/s of new fake companies, each a site + a Greenhouse board on loopback, run by the worker ` +
      `while the mix ran): ${o.accepted} accepted (202); runs ${by('succeeded')} succeeded, ${by('failed')} failed, ` +
      `${o.unfinished} unfinished at the settle deadline. Enqueue → end p50 ${percentile(total, 50)} ms, ` +
      `p99 ${percentile(total, 99)} ms; waiting for a worker p50 ${percentile(queued, 50)} ms, ` +
      `p99 ${percentile(queued, 99)} ms.`,
    `Onboarding writes: ${o.jobsStored} active jobs stored for the succeeded runs, ${o.jobsExpected} listed on ` +
      `their boards, ${o.duplicateJobs} duplicates: ${complete ? 'every accepted onboarding completed, nothing lost or doubled.' : 'INCOMPLETE OR DUPLICATED.'}`,
  ].join('\n\n');
}
