/**
 * Rippling job boards (docs/sources.md, Rippling): the public board at `ats.rippling.com/{board}/jobs` reads two
 * keyless JSON endpoints of api.rippling.com: a paged list (`items`, `page`, `totalPages`) whose rows carry the
 * title, department and locations, and one record per posting with its text and creation date. The board name
 * is case-sensitive.
 */
import { type Static, Type } from 'typebox';
import type { HttpClient } from '../../net/types.js';
import { boardSegment, fetchVendorJson, mapLimit } from '../http.js';
import { descriptionFromHtml } from '../normalize/description.js';
import { inferRemote, joinDistinct, nonEmpty, normalizeSpace, parseDate } from '../normalize/text.js';
import { type Workplace, workplaceOf } from '../normalize/workplace.js';
import { Nullable, OptNum, OptStr } from '../schema.js';
import { type BoardRef, type NormalizedPosting, type SourceAdapter, SourceError } from '../types.js';

const Place = Type.Object({
  name: OptStr,
  city: OptStr,
  state: OptStr,
  country: OptStr,
  /** "REMOTE" | "HYBRID" | "ON_SITE". */
  workplaceType: OptStr,
});
const Item = Type.Object({
  id: Type.String({ minLength: 1 }),
  name: Type.String(),
  url: Type.String({ minLength: 1 }),
  department: Nullable(Type.Object({ name: OptStr })),
  locations: Nullable(Type.Array(Place)),
});
const Page = Type.Object({ items: Type.Array(Item), page: OptNum, totalPages: OptNum, totalItems: OptNum });
const Detail = Type.Object({
  description: Nullable(Type.Object({ company: OptStr, role: OptStr })),
  createdOn: OptStr,
});

const PAGE_SIZE = 100;
/** 50 pages of 100: far above real boards; guards against a board that never ends. */
const MAX_PAGES = 50;
/** Record requests in flight; the client's per-host limit still applies. */
const DETAIL_CONCURRENCY = 2;

const boardApi = (token: string) =>
  `https://api.rippling.com/platform/api/ats/v2/board/${boardSegment('rippling', token)}/jobs`;

const placeText = (p: {
  name?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
}) => nonEmpty(p.name) ?? joinDistinct([p.city, p.state, p.country])?.replace(/; /g, ', ') ?? null;

/** Remote when every listed location is remote; not when one is on site or hybrid; else what the text says. */
function remoteOf(
  places: ReadonlyArray<{ workplaceType?: string | null; name?: string | null }>,
): boolean | null {
  const types = places.map((p) => p.workplaceType?.toUpperCase()).filter((t): t is string => Boolean(t));
  if (types.length > 0 && types.every((t) => t === 'REMOTE')) return true;
  if (types.some((t) => t === 'ON_SITE' || t === 'HYBRID')) return false;
  return inferRemote(...places.map((p) => p.name));
}

/** Remote when every place is remote; else hybrid when one is, on site when one is; null when none says. */
function workplaceOfPlaces(places: ReadonlyArray<{ workplaceType?: string | null }>): Workplace | null {
  const types = places.map((p) => workplaceOf(p.workplaceType));
  if (types.length > 0 && types.every((t) => t === 'remote')) return 'remote';
  return types.find((t) => t === 'hybrid') ?? types.find((t) => t === 'onsite') ?? null;
}

async function listAll(token: string, client: HttpClient) {
  const items: Array<Static<typeof Item>> = [];
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const data = await fetchVendorJson(
      'rippling',
      client,
      `${boardApi(token)}?page=${page}&pageSize=${PAGE_SIZE}`,
      Page,
    );
    items.push(...data.items);
    const pages = data.totalPages ?? 1;
    if (data.items.length === 0 || page + 1 >= pages) return items;
  }
  throw new SourceError(
    'malformed_payload',
    'rippling',
    `rippling board ${token} did not end after ${MAX_PAGES} pages`,
    false,
  );
}

export const rippling: SourceAdapter = {
  provider: 'rippling',
  boardUrl: (token) => `https://ats.rippling.com/${encodeURIComponent(token)}/jobs`,
  async countPostings(board, client) {
    const url = `${boardApi(board.token)}?page=0&pageSize=1`;
    const page = await fetchVendorJson('rippling', client, url, Page);
    return page.totalItems ?? page.items.length;
  },
  async fetchPostings(board: BoardRef, client: HttpClient): Promise<NormalizedPosting[]> {
    const items = await listAll(board.token, client);
    // A posting listed once per location shares its id: one posting, every location.
    const byId = new Map<string, (typeof items)[number]>();
    for (const it of items) {
      const seen = byId.get(it.id);
      byId.set(
        it.id,
        seen ? { ...seen, locations: [...(seen.locations ?? []), ...(it.locations ?? [])] } : it,
      );
    }
    const unique = [...byId.values()];
    const details = await mapLimit(unique, DETAIL_CONCURRENCY, (it) =>
      fetchVendorJson('rippling', client, `${boardApi(board.token)}/${encodeURIComponent(it.id)}`, Detail),
    );
    return unique.map((it, i) => {
      const detail = details[i] ?? {};
      const places = it.locations ?? [];
      return {
        externalId: it.id,
        title: normalizeSpace(it.name),
        location: joinDistinct(places.map(placeText)),
        remote: remoteOf(places),
        workplace: workplaceOfPlaces(places),
        department: nonEmpty(it.department?.name),
        postedAt: parseDate(detail.createdOn),
        url: it.url,
        descriptionText: [detail.description?.company, detail.description?.role]
          .map(descriptionFromHtml)
          .filter((t) => t.length > 0)
          .join('\n\n'),
      };
    });
  },
};
