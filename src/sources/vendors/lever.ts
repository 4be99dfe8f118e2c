/**
 * Lever Postings API (docs/sources.md): a bare JSON array paged with skip/limit. The default page size
 * is undocumented, so we ask for pages of 100 and stop on a short page.
 */
import { Type } from 'typebox';
import type { HttpClient } from '../../net/types.js';
import { boardSegment, fetchVendorJson } from '../http.js';
import { descriptionFromHtml, leverList } from '../normalize/description.js';
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
import { Nullable, OptNum, OptStr } from '../schema.js';
import { type BoardRef, type NormalizedPosting, type SourceAdapter, SourceError } from '../types.js';

const PAGE_SIZE = 100;
/** 200 pages × 100 = 20,000 postings: far above any real board; stops a vendor that ignores `skip`. */
const MAX_PAGES = 200;

const Posting = Type.Object({
  id: Type.String({ minLength: 1 }),
  text: Type.String(),
  hostedUrl: Type.String(),
  categories: Nullable(
    Type.Object({
      location: OptStr,
      team: OptStr,
      department: OptStr,
      allLocations: Nullable(Type.Array(Type.String())),
    }),
  ),
  workplaceType: OptStr,
  createdAt: OptNum,
  description: OptStr,
  descriptionPlain: OptStr,
  lists: Nullable(Type.Array(Type.Object({ text: OptStr, content: OptStr }))),
  additional: OptStr,
  additionalPlain: OptStr,
  salaryRange: Nullable(Type.Object({ currency: OptStr, interval: OptStr, min: OptNum, max: OptNum })),
  salaryDescriptionPlain: OptStr,
});
const Page = Type.Array(Posting);

function host(board: BoardRef): string {
  return /\.eu\.lever\.co/i.test(board.url) ? 'api.eu.lever.co' : 'api.lever.co';
}

/** `workplaceType` as Lever sends it ("remote", "hybrid", "onsite"; documented as "on-site"), else the text. */
function remoteOf(workplaceType: string | null | undefined, location: string | null): boolean | null {
  switch ((workplaceType ?? '').toLowerCase()) {
    case 'remote':
      return true;
    case 'onsite':
    case 'on-site':
    case 'hybrid':
      return false;
    default:
      return inferRemote(location);
  }
}

export const lever: SourceAdapter = {
  provider: 'lever',
  boardUrl: (token) => `https://jobs.lever.co/${encodeURIComponent(token)}`,
  async countPostings(board, client) {
    return (await lever.fetchPostings(board, client)).length;
  },
  async fetchPostings(board: BoardRef, client: HttpClient): Promise<NormalizedPosting[]> {
    const site = boardSegment('lever', board.token);
    const out: NormalizedPosting[] = [];
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const url = `https://${host(board)}/v0/postings/${site}?mode=json&skip=${page * PAGE_SIZE}&limit=${PAGE_SIZE}`;
      const items = await fetchVendorJson('lever', client, url, Page);
      for (const p of items) {
        if (seen.has(p.id)) continue;
        seen.add(p.id);
        const location = joinDistinct([p.categories?.location, ...(p.categories?.allLocations ?? [])]);
        const lists = (p.lists ?? []).map((l) => leverList(l.text, l.content));
        const s = p.salaryRange;
        out.push({
          externalId: p.id,
          title: normalizeSpace(p.text),
          location,
          remote: remoteOf(p.workplaceType, location),
          workplace: workplaceOf(p.workplaceType),
          department: nonEmpty(p.categories?.department) ?? nonEmpty(p.categories?.team),
          postedAt: parseDate(p.createdAt),
          url: p.hostedUrl,
          descriptionText: [
            descriptionFromHtml(p.description) || cleanText(p.descriptionPlain),
            ...lists,
            descriptionFromHtml(p.additional) || cleanText(p.additionalPlain),
          ]
            .filter((t) => t.length > 0)
            .join('\n\n'),
          ...(s && (s.min != null || s.max != null)
            ? {
                salary: {
                  currency: nonEmpty(s.currency)?.toUpperCase() ?? null,
                  min: s.min ?? null,
                  max: s.max ?? null,
                  interval: normalizeInterval(s.interval),
                  text: nonEmpty(p.salaryDescriptionPlain),
                },
              }
            : {}),
        });
      }
      if (items.length < PAGE_SIZE) return out;
    }
    throw new SourceError(
      'malformed_payload',
      'lever',
      `lever board ${board.token} did not end after ${MAX_PAGES} pages`,
      false,
    );
  },
};
