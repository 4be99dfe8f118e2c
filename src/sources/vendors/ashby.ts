/**
 * Ashby public job posting API (docs/sources.md): one unpaged call; unlisted postings are dropped and
 * pay is kept only when the employer displays it on postings.
 */
import { type Static, Type } from 'typebox';
import type { HttpClient } from '../../net/types.js';
import { boardSegment, fetchVendorJson } from '../http.js';
import { descriptionFromHtml } from '../normalize/description.js';
import {
  cleanText,
  inferRemote,
  joinDistinct,
  nonEmpty,
  normalizeInterval,
  normalizeSpace,
  parseDate,
} from '../normalize/text.js';
import { workplaceOf } from '../normalize/workplace.js';
import { Nullable, OptBool, OptNum, OptStr } from '../schema.js';
import type { BoardRef, NormalizedPosting, Salary, SourceAdapter } from '../types.js';

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
      compensationTiers: Nullable(Type.Array(Type.Object({ components: Nullable(Type.Array(Component)) }))),
    }),
  ),
});
const Board = Type.Object({ jobs: Type.Array(Job) });
type AshbyJob = Static<typeof Job>;

/**
 * `workplaceType` ("Remote", "Hybrid", "OnSite") and `isRemote` describe the primary location; a remote
 * secondary location ("San Francisco; Remote") still makes the posting open to remote work.
 */
function remoteOf(j: AshbyJob): boolean | null {
  const type = (j.workplaceType ?? '').toLowerCase().replace(/[^a-z]/g, '');
  if (j.isRemote === true || type === 'remote') return true;
  const places = [j.location, ...(j.secondaryLocations ?? []).map((s) => s.location)];
  if (inferRemote(...places)) return true;
  if (type === 'onsite' || type === 'hybrid' || j.isRemote === false) return false;
  return null;
}

type Component = Static<typeof Component>;

/** The salary components of every tier in one currency and interval → the span they cover; else none. */
function tierSpan(components: Component[]): Component | undefined {
  const [first] = components;
  if (
    !first ||
    components.some((c) => c.currencyCode !== first.currencyCode || c.interval !== first.interval)
  )
    return undefined;
  const mins = components.map((c) => c.minValue).filter((v): v is number => typeof v === 'number');
  const maxes = components.map((c) => c.maxValue).filter((v): v is number => typeof v === 'number');
  return {
    ...first,
    minValue: mins.length > 0 ? Math.min(...mins) : null,
    maxValue: maxes.length > 0 ? Math.max(...maxes) : null,
  };
}

function salaryOf(j: AshbyJob): Salary | undefined {
  if (j.shouldDisplayCompensationOnJobPostings === false || !j.compensation) return undefined;
  const isSalary = (c: Component) => c.compensationType === 'Salary';
  const c =
    (j.compensation.summaryComponents ?? []).find(isSalary) ??
    tierSpan((j.compensation.compensationTiers ?? []).flatMap((t) => (t.components ?? []).filter(isSalary)));
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
          title: normalizeSpace(j.title),
          location: joinDistinct([j.location, ...(j.secondaryLocations ?? []).map((s) => s.location)]),
          remote: remoteOf(j),
          workplace: remoteOf(j) === true ? 'remote' : workplaceOf(j.workplaceType),
          department: nonEmpty(j.department) ?? nonEmpty(j.team),
          postedAt: parseDate(j.publishedAt),
          url: j.jobUrl,
          descriptionText: descriptionFromHtml(j.descriptionHtml) || cleanText(j.descriptionPlain),
          ...(salary ? { salary } : {}),
        };
      });
  },
};
