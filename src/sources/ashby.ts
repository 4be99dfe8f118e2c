/**
 * Ashby public job posting API (external-apis.md §1.3): one unpaged call; unlisted postings are dropped and
 * pay is kept only when the employer displays it on postings.
 */
import { type Static, Type } from 'typebox';
import type { HttpClient } from '../net/types.js';
import { boardSegment, fetchVendorJson } from './http.js';
import { Nullable, OptBool, OptNum, OptStr } from './schema.js';
import { cleanText, htmlToText, joinDistinct, nonEmpty, normalizeInterval, parseDate } from './text.js';
import type { BoardRef, NormalizedPosting, Salary, SourceAdapter } from './types.js';

const Component = Type.Object({
  compensationType: OptStr,
  interval: OptStr,
  currencyCode: OptStr,
  minValue: OptNum,
  maxValue: OptNum,
});
const Job = Type.Object({
  id: Type.String({ minLength: 1 }),
  title: Type.String(),
  jobUrl: Type.String(),
  department: OptStr,
  team: OptStr,
  location: OptStr,
  secondaryLocations: Nullable(Type.Array(Type.Object({ location: OptStr }))),
  isRemote: OptBool,
  workplaceType: OptStr,
  isListed: OptBool,
  publishedAt: OptStr,
  descriptionHtml: OptStr,
  descriptionPlain: OptStr,
  shouldDisplayCompensationOnJobPostings: OptBool,
  compensation: Nullable(
    Type.Object({
      scrapeableCompensationSalarySummary: OptStr,
      compensationTierSummary: OptStr,
      summaryComponents: Nullable(Type.Array(Component)),
    }),
  ),
});
const Board = Type.Object({ jobs: Type.Array(Job) });
type AshbyJob = Static<typeof Job>;

function remoteOf(j: AshbyJob): boolean | null {
  if (j.isRemote === true || j.workplaceType?.toLowerCase() === 'remote') return true;
  if (j.workplaceType && /onsite|on-site|hybrid/i.test(j.workplaceType)) return false;
  return j.isRemote === false ? false : null;
}

function salaryOf(j: AshbyJob): Salary | undefined {
  if (j.shouldDisplayCompensationOnJobPostings === false || !j.compensation) return undefined;
  const c = (j.compensation.summaryComponents ?? []).find((s) => s.compensationType === 'Salary');
  const text = nonEmpty(j.compensation.scrapeableCompensationSalarySummary);
  if (!c && !text) return undefined;
  return {
    currency: nonEmpty(c?.currencyCode)?.toUpperCase() ?? null,
    min: c?.minValue ?? null,
    max: c?.maxValue ?? null,
    interval: normalizeInterval(c?.interval),
    text,
  };
}

export const ashby: SourceAdapter = {
  provider: 'ashby',
  boardUrl: (token) => `https://jobs.ashbyhq.com/${encodeURIComponent(token)}`,
  async countPostings(board, client) {
    return (await ashby.fetchPostings(board, client)).length;
  },
  async fetchPostings(board: BoardRef, client: HttpClient): Promise<NormalizedPosting[]> {
    const url = `https://api.ashbyhq.com/posting-api/job-board/${boardSegment('ashby', board.token)}?includeCompensation=true`;
    const data = await fetchVendorJson('ashby', client, url, Board);
    return data.jobs
      .filter((j) => j.isListed !== false)
      .map((j) => {
        const salary = salaryOf(j);
        return {
          externalId: j.id,
          title: j.title.trim(),
          location: joinDistinct([j.location, ...(j.secondaryLocations ?? []).map((s) => s.location)]),
          remote: remoteOf(j),
          department: nonEmpty(j.department) ?? nonEmpty(j.team),
          postedAt: parseDate(j.publishedAt),
          url: j.jobUrl,
          descriptionText: htmlToText(j.descriptionHtml) || cleanText(j.descriptionPlain),
          ...(salary ? { salary } : {}),
        };
      });
  },
};
