/**
 * Workday career sites through their public CXS API (the JSON the career site's own pages call):
 * `POST https://{tenant}.wd{N}.myworkdayjobs.com/wday/cxs/{tenant}/{site}/jobs` with
 * `{appliedFacets: {}, limit: 20, offset, searchText: ''}` answers `{total, jobPostings: [...]}` (20 is the most a
 * page holds), and `GET .../wday/cxs/{tenant}/{site}{externalPath}` answers `{jobPostingInfo}` with the description.
 * The listing is a read-only search, so its POST is retried like a GET. Like SmartRecruiters, the listing has no
 * description, so details cost one request per posting: they are fetched only for new or changed postings (the
 * caller leaves a rotating share out of `known`, store/jobs.ts knownPostings), a few at a time.
 */
import { type Static, Type } from 'typebox';
import type { HttpClient } from '../../net/types.js';
import { fetchVendorJson, mapLimit } from '../http.js';
import { htmlToText, inferRemote, joinDistinct, nonEmpty, parseDate } from '../normalize/text.js';
import { workplaceOf } from '../normalize/workplace.js';
import { OptStr } from '../schema.js';
import {
  type BoardRef,
  type KnownPostings,
  type NormalizedPosting,
  type SourceAdapter,
  SourceError,
} from '../types.js';

/** Workday refuses pages above 20 postings. */
const PAGE_SIZE = 20;
/** 500 pages × 20 = 10,000 postings, above the largest real tenants' public sites; guards an endless listing. */
const MAX_PAGES = 500;
/** Detail requests in flight: the client still spaces requests per host; 4 keeps a tenant's load modest. */
const DETAIL_CONCURRENCY = 4;

const ListPosting = Type.Object({
  title: Type.String(),
  externalPath: Type.String({ minLength: 1 }),
  locationsText: OptStr,
  postedOn: OptStr,
  remoteType: OptStr,
  bulletFields: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
});
const Page = Type.Object({
  total: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  jobPostings: Type.Array(ListPosting),
});
const Detail = Type.Object({
  jobPostingInfo: Type.Object({
    title: OptStr,
    jobDescription: OptStr,
    location: OptStr,
    additionalLocations: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
    startDate: OptStr,
    timeType: OptStr,
    jobReqId: OptStr,
    remoteType: OptStr,
    externalUrl: OptStr,
  }),
});
type ListPosting = Static<typeof ListPosting>;

interface Site {
  host: string;
  tenant: string;
  site: string;
}

/** `{tenant}.wd{N}/{site}` (the form detection records) → the career site's parts. */
export function workdaySite(token: string): Site {
  const m = /^([A-Za-z0-9-]{1,63})\.(wd\d{1,3})\/([A-Za-z0-9_-]{1,100})$/.exec(token);
  if (!m) {
    throw new SourceError(
      'http_error',
      'workday',
      `Invalid Workday board ${JSON.stringify(token)} (expected tenant.wdN/site)`,
      false,
    );
  }
  const [, tenant = '', dc = '', site = ''] = m;
  return { host: `${tenant.toLowerCase()}.${dc.toLowerCase()}.myworkdayjobs.com`, tenant, site };
}

const DAY_MS = 86_400_000;

/**
 * Workday's relative `postedOn` ("Posted Today", "Posted Yesterday", "Posted 3 Days Ago", "Posted 30+ Days Ago")
 * → the UTC day it names, counted back from `nowMs`; null for text it does not recognise. "30+" gives the
 * 30-day bound: the true date is older, and no better one is stated.
 */
export function parsePostedOn(text: string | null | undefined, nowMs: number): Date | null {
  const t = (text ?? '').toLowerCase();
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  if (/\btoday\b/.test(t)) return new Date(today);
  if (/\byesterday\b/.test(t)) return new Date(today - DAY_MS);
  const m = /(\d{1,4})\+?\s*(day|week|month)s?\b/.exec(t);
  if (!m) return null;
  const unit = m[2] === 'week' ? 7 : m[2] === 'month' ? 30 : 1;
  return new Date(today - Number(m[1]) * unit * DAY_MS);
}

/** Workday's `remoteType` ("Remote", "Hybrid", "On-site", "Flexible") → the remote flag; null when absent. */
function remoteOf(type: string | null | undefined): boolean | null {
  const t = (type ?? '').toLowerCase();
  if (t === '') return null;
  if (t.includes('remote')) return true;
  return t.includes('hybrid') || t.includes('site') || t.includes('office') ? false : null;
}

/** The posting's id within the board: its requisition id (first bullet field) when shown, else its path. */
const idOf = (p: ListPosting): string => nonEmpty(p.bulletFields?.[0]) ?? p.externalPath;

async function listPage(client: HttpClient, base: string, offset: number, limit = PAGE_SIZE) {
  return fetchVendorJson('workday', client, `${base}/jobs`, Page, {
    method: 'POST',
    idempotent: true,
    body: JSON.stringify({ appliedFacets: {}, limit, offset, searchText: '' }),
  });
}

/** Every listed posting, page by page: the first page's `total` bounds the walk (later pages may say 0). */
async function listAll(client: HttpClient, base: string, token: string): Promise<ListPosting[]> {
  const out: ListPosting[] = [];
  let total: number | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const data = await listPage(client, base, page * PAGE_SIZE);
    if (page === 0) total = data.total ?? null;
    out.push(...data.jobPostings);
    const done = data.jobPostings.length < PAGE_SIZE || (total !== null && out.length >= total);
    if (done) return out;
  }
  throw new SourceError(
    'malformed_payload',
    'workday',
    `workday ${token} did not end after ${MAX_PAGES} pages`,
    false,
  );
}

function normalise(
  site: Site,
  p: ListPosting,
  detail: Static<typeof Detail>['jobPostingInfo'] | undefined,
  nowMs: number,
): NormalizedPosting {
  const listed = nonEmpty(p.locationsText);
  // "3 Locations" is a count, not a place: the detail names them.
  const listLocation = listed && !/^\d+ locations?$/i.test(listed) ? listed : null;
  const location =
    joinDistinct([detail?.location, ...(detail?.additionalLocations ?? [])]) ?? listLocation ?? null;
  return {
    externalId: idOf(p),
    title: (nonEmpty(detail?.title) ?? p.title).trim(),
    location,
    remote: remoteOf(detail?.remoteType ?? p.remoteType) ?? inferRemote(location),
    workplace: workplaceOf(detail?.remoteType ?? p.remoteType),
    department: null,
    postedAt: parseDate(detail?.startDate) ?? parsePostedOn(p.postedOn, nowMs),
    url: nonEmpty(detail?.externalUrl) ?? `https://${site.host}/${site.site}${p.externalPath}`,
    descriptionText: htmlToText(detail?.jobDescription),
    requisitionId: nonEmpty(detail?.jobReqId) ?? nonEmpty(p.bulletFields?.[0]),
  };
}

export const workday: SourceAdapter = {
  provider: 'workday',
  boardUrl: (token) => {
    const s = workdaySite(token);
    return `https://${s.host}/${s.site}`;
  },
  async countPostings(board, client) {
    const s = workdaySite(board.token);
    const page = await listPage(client, `https://${s.host}/wday/cxs/${s.tenant}/${s.site}`, 0, 1);
    return page.total ?? page.jobPostings.length;
  },
  usesKnown: true,
  async fetchPostings(board: BoardRef, client: HttpClient, known?: KnownPostings) {
    const site = workdaySite(board.token);
    const base = `https://${site.host}/wday/cxs/${site.tenant}/${site.site}`;
    const listed = await listAll(client, base, board.token);
    const nowMs = Date.now();
    const out = await mapLimit(listed, DETAIL_CONCURRENCY, async (p) => {
      const stored = known?.get(idOf(p));
      if (stored && stored.descriptionText !== '' && stored.title === p.title.trim()) {
        const fromList = normalise(site, p, undefined, nowMs);
        return {
          ...fromList,
          location: stored.location ?? fromList.location,
          url: stored.url,
          descriptionText: stored.descriptionText,
        };
      }
      const detail = await fetchVendorJson('workday', client, `${base}${p.externalPath}`, Detail);
      return normalise(site, p, detail.jobPostingInfo, nowMs);
    });
    return out;
  },
};
