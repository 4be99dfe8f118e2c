/**
 * Workable (docs/sources.md). Public code disagrees on which public API still answers, so the adapter
 * tries the v1 widget feed (one call, descriptions included with details=true) and falls back to the v3
 * careers-site API (POST pages chained by `nextPage`, one detail GET per posting for its description).
 */
import { Type } from 'typebox';
import type { HttpClient } from '../../net/types.js';
import { boardSegment, fetchVendorJson, mapLimit } from '../http.js';
import { descriptionFromHtml } from '../normalize/description.js';
import { joinDistinct, nonEmpty, normalizeSpace, parseDate } from '../normalize/text.js';
import { workplaceOf } from '../normalize/workplace.js';
import { Nullable, OptBool, OptStr } from '../schema.js';
import { type BoardRef, type NormalizedPosting, type SourceAdapter, SourceError } from '../types.js';

const Place = Type.Object({ city: OptStr, region: OptStr, state: OptStr, country: OptStr, hidden: OptBool });
const WidgetJob = Type.Object({
  shortcode: Type.String({ minLength: 1 }),
  title: Type.String(),
  url: Type.String(),
  department: OptStr,
  telecommuting: OptBool,
  published_on: OptStr,
  created_at: OptStr,
  city: OptStr,
  state: OptStr,
  country: OptStr,
  locations: Nullable(Type.Array(Place)),
  description: OptStr,
});
const Widget = Type.Object({ jobs: Type.Array(WidgetJob) });

const V3Job = Type.Object({
  shortcode: Type.String({ minLength: 1 }),
  title: Type.String(),
  remote: OptBool,
  /** "on_site" | "hybrid" | "remote". */
  workplace: OptStr,
  published: OptStr,
  department: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String()), Type.Null()])),
  location: Nullable(Place),
  locations: Nullable(Type.Array(Place)),
});
const V3Page = Type.Object({
  results: Type.Array(V3Job),
  nextPage: OptStr,
  total: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});
const Listing = Type.Object({ jobs: Type.Array(Type.Object({ shortcode: Type.String() })) });
const V3Detail = Type.Object({ description: OptStr, requirements: OptStr, benefits: OptStr });

/** 100 pages of (typically) 10 results: far above real accounts; guards against a token that never ends. */
const MAX_PAGES = 100;
/** Detail requests in flight; the client's per-host limit still applies. */
const DETAIL_CONCURRENCY = 4;

const placeText = (p: {
  city?: string | null;
  region?: string | null;
  state?: string | null;
  country?: string | null;
}) => joinDistinct([p.city, p.region ?? p.state, p.country])?.replace(/; /g, ', ') ?? null;

async function viaWidget(sub: string, client: HttpClient): Promise<NormalizedPosting[]> {
  const url = `https://apply.workable.com/api/v1/widget/accounts/${sub}?details=true`;
  const data = await fetchVendorJson('workable', client, url, Widget);
  return data.jobs.map((j) => ({
    externalId: j.shortcode,
    title: normalizeSpace(j.title),
    location: joinDistinct([
      placeText(j),
      ...(j.locations ?? []).filter((l) => l.hidden !== true).map(placeText),
    ]),
    remote: j.telecommuting ?? null,
    department: nonEmpty(j.department),
    postedAt: parseDate(j.published_on) ?? parseDate(j.created_at),
    url: j.url,
    descriptionText: descriptionFromHtml(j.description),
  }));
}

async function viaV3(sub: string, client: HttpClient): Promise<NormalizedPosting[]> {
  const base = `https://apply.workable.com/api/v3/accounts/${sub}/jobs`;
  const out: NormalizedPosting[] = [];
  let token: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const body = {
      query: '',
      location: [],
      department: [],
      worktype: [],
      remote: [],
      ...(token ? { token } : {}),
    };
    const data = await fetchVendorJson('workable', client, base, V3Page, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    const details = await mapLimit(data.results, DETAIL_CONCURRENCY, (j) =>
      fetchVendorJson('workable', client, `${base}/${encodeURIComponent(j.shortcode)}`, V3Detail),
    );
    data.results.forEach((j, i) => {
      const detail = details[i] ?? {};
      const dept = Array.isArray(j.department) ? joinDistinct(j.department) : nonEmpty(j.department);
      out.push({
        externalId: j.shortcode,
        title: normalizeSpace(j.title),
        location: joinDistinct([
          j.location ? placeText(j.location) : null,
          ...(j.locations ?? []).map(placeText),
        ]),
        remote:
          j.remote === true || j.workplace === 'remote' ? true : j.workplace ? false : (j.remote ?? null),
        workplace: j.remote === true ? 'remote' : workplaceOf(j.workplace),
        department: dept,
        postedAt: parseDate(j.published),
        url: `https://apply.workable.com/${sub}/j/${encodeURIComponent(j.shortcode)}/`,
        descriptionText: [detail.description, detail.requirements, detail.benefits]
          .map(descriptionFromHtml)
          .filter((t) => t.length > 0)
          .join('\n\n'),
      });
    });
    token = nonEmpty(data.nextPage);
    if (!token || data.results.length === 0) return out;
  }
  throw new SourceError(
    'malformed_payload',
    'workable',
    `workable account ${sub} did not end after ${MAX_PAGES} pages`,
    false,
  );
}

export const workable: SourceAdapter = {
  provider: 'workable',
  boardUrl: (token) => `https://apply.workable.com/${encodeURIComponent(token)}/`,
  async countPostings(board, client) {
    const sub = boardSegment('workable', board.token);
    try {
      const url = `https://apply.workable.com/api/v1/widget/accounts/${sub}`;
      return (await fetchVendorJson('workable', client, url, Listing)).jobs.length;
    } catch (err) {
      if (!(err instanceof SourceError && err.code === 'board_not_found')) throw err;
      const body = JSON.stringify({ query: '', location: [], department: [], worktype: [], remote: [] });
      const page = await fetchVendorJson(
        'workable',
        client,
        `https://apply.workable.com/api/v3/accounts/${sub}/jobs`,
        V3Page,
        { method: 'POST', body },
      );
      return page.total ?? page.results.length;
    }
  },
  async fetchPostings(board: BoardRef, client: HttpClient): Promise<NormalizedPosting[]> {
    const sub = boardSegment('workable', board.token);
    try {
      return await viaWidget(sub, client);
    } catch (err) {
      if (err instanceof SourceError && err.code === 'board_not_found') return viaV3(sub, client);
      throw err;
    }
  },
};
