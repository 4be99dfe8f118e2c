/**
 * SmartRecruiters Posting API (docs/sources.md): offset/limit pages of at most 100 partial postings;
 * the description and human URL come from one detail call per posting. As the vendor's notes advise, details
 * are fetched only for new or changed postings: a posting the store already holds with a description and the same
 * title keeps its stored URL and description. The listing carries no edit time, so the caller leaves a rotating
 * share of postings out of `known` (store/jobs.ts knownPostings): every posting's details are re-read weekly.
 */
import { Type } from 'typebox';
import type { HttpClient } from '../../net/types.js';
import { boardSegment, fetchVendorJson, mapLimit } from '../http.js';
import { descriptionFromHtml } from '../normalize/description.js';
import { inferRemote, joinDistinct, nonEmpty, normalizeSpace, parseDate } from '../normalize/text.js';
import { Id, Nullable, OptBool, OptNum, OptStr } from '../schema.js';
import {
  type BoardRef,
  type KnownPosting,
  type KnownPostings,
  type NormalizedPosting,
  type SourceAdapter,
  SourceError,
} from '../types.js';

const PAGE_SIZE = 100;
/** 100 pages × 100 = 10,000 postings, beyond any real company; guards a vendor that ignores `offset`. */
const MAX_PAGES = 100;
/** Detail requests in flight: SmartRecruiters allows 8 concurrent and ~10/s (docs/sources.md). */
const DETAIL_CONCURRENCY = 4;

const Posting = Type.Object({
  id: Id,
  name: Type.String(),
  releasedDate: OptStr,
  location: Nullable(
    Type.Object({
      city: OptStr,
      region: OptStr,
      country: OptStr,
      fullLocation: OptStr,
      remote: OptBool,
      hybrid: OptBool,
    }),
  ),
  department: Nullable(Type.Object({ label: OptStr })),
  function: Nullable(Type.Object({ label: OptStr })),
});
const Page = Type.Object({ totalFound: OptNum, content: Type.Array(Posting) });
const Section = Nullable(Type.Object({ title: OptStr, text: OptStr }));
const Detail = Type.Object({
  postingUrl: OptStr,
  jobAd: Nullable(
    Type.Object({
      sections: Nullable(
        Type.Object({
          companyDescription: Section,
          jobDescription: Section,
          qualifications: Section,
          additionalInformation: Section,
        }),
      ),
    }),
  ),
});

/** The stored posting when the listing shows it unchanged (its details need no new request). */
function unchanged(stored: KnownPosting | undefined, listed: { name: string }): KnownPosting | undefined {
  return stored && stored.descriptionText !== '' && stored.title === normalizeSpace(listed.name)
    ? stored
    : undefined;
}

export const smartrecruiters: SourceAdapter = {
  provider: 'smartrecruiters',
  boardUrl: (token) => `https://careers.smartrecruiters.com/${encodeURIComponent(token)}`,
  async countPostings(board, client) {
    const url = `https://api.smartrecruiters.com/v1/companies/${boardSegment('smartrecruiters', board.token)}/postings?limit=1&offset=0`;
    const page = await fetchVendorJson('smartrecruiters', client, url, Page);
    return page.totalFound ?? page.content.length;
  },
  usesKnown: true,
  async fetchPostings(
    board: BoardRef,
    client: HttpClient,
    known?: KnownPostings,
  ): Promise<NormalizedPosting[]> {
    const company = boardSegment('smartrecruiters', board.token);
    const base = `https://api.smartrecruiters.com/v1/companies/${company}/postings`;
    const out: NormalizedPosting[] = [];
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const offset = page * PAGE_SIZE;
      const data = await fetchVendorJson(
        'smartrecruiters',
        client,
        `${base}?limit=${PAGE_SIZE}&offset=${offset}`,
        Page,
      );
      const kept = data.content.map((p) => unchanged(known?.get(String(p.id)), p));
      const changed = data.content.filter((_, i) => kept[i] === undefined);
      // Detail calls overlap (the client still caps in-flight requests per host and spaces them).
      const fetched = await mapLimit(changed, DETAIL_CONCURRENCY, (p) =>
        fetchVendorJson('smartrecruiters', client, `${base}/${encodeURIComponent(String(p.id))}`, Detail),
      );
      const details = new Map(changed.map((p, i) => [p, fetched[i] ?? {}]));
      data.content.forEach((p, i) => {
        const id = String(p.id);
        const detail = details.get(p) ?? {};
        const s = detail.jobAd?.sections;
        const stored = kept[i];
        const loc = p.location;
        const location =
          nonEmpty(loc?.fullLocation) ??
          joinDistinct([loc?.city, loc?.region, loc?.country?.toUpperCase()])?.replace(/; /g, ', ') ??
          null;
        out.push({
          externalId: id,
          title: normalizeSpace(p.name),
          location,
          remote:
            loc?.remote === true
              ? true
              : loc?.hybrid === true || loc?.remote === false
                ? false
                : inferRemote(location),
          workplace: loc?.remote === true ? 'remote' : loc?.hybrid === true ? 'hybrid' : null,
          department: nonEmpty(p.department?.label) ?? nonEmpty(p.function?.label),
          postedAt: parseDate(p.releasedDate),
          url:
            stored?.url ??
            nonEmpty(detail.postingUrl) ??
            `https://jobs.smartrecruiters.com/${company}/${encodeURIComponent(id)}`,
          descriptionText:
            stored?.descriptionText ??
            [s?.jobDescription, s?.qualifications, s?.additionalInformation]
              .map((sec) => descriptionFromHtml(sec?.text))
              .filter((t) => t.length > 0)
              .join('\n\n'),
        });
      });
      const total = data.totalFound ?? null;
      if (data.content.length < PAGE_SIZE || (total !== null && offset + data.content.length >= total))
        return out;
    }
    throw new SourceError(
      'malformed_payload',
      'smartrecruiters',
      `smartrecruiters ${board.token} did not end after ${MAX_PAGES} pages`,
      false,
    );
  },
};
