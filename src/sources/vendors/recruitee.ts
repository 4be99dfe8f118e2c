/**
 * Recruitee Careers Site API (docs/sources.md): one unpaged call on the company's subdomain; a company
 * that left Recruitee leaves a subdomain answering 404.
 */
import { Type } from 'typebox';
import type { HttpClient } from '../../net/types.js';
import { fetchVendorJson } from '../http.js';
import { descriptionFromHtml } from '../normalize/description.js';
import { joinDistinct, nonEmpty, normalizeInterval, normalizeSpace, parseDate } from '../normalize/text.js';
import { Id, Nullable, OptBool, OptStr } from '../schema.js';
import { type BoardRef, type NormalizedPosting, type SourceAdapter, SourceError } from '../types.js';

const Offer = Type.Object({
  id: Id,
  title: Type.String(),
  status: OptStr,
  careers_url: Type.String(),
  department: OptStr,
  location: OptStr,
  locations: Nullable(Type.Array(Type.Object({ city: OptStr, state: OptStr, country: OptStr }))),
  remote: OptBool,
  hybrid: OptBool,
  on_site: OptBool,
  published_at: OptStr,
  created_at: OptStr,
  updated_at: OptStr,
  description: OptStr,
  requirements: OptStr,
  salary: Nullable(
    Type.Object({
      min: Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()])),
      max: Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()])),
      currency: OptStr,
      period: OptStr,
    }),
  ),
});
const Offers = Type.Object({ offers: Type.Array(Offer) });

const num = (v: number | string | null | undefined): number | null => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

export const recruitee: SourceAdapter = {
  provider: 'recruitee',
  boardUrl: (token) => `https://${token.toLowerCase()}.recruitee.com/`,
  async countPostings(board, client) {
    return (await recruitee.fetchPostings(board, client)).length;
  },
  async fetchPostings(board: BoardRef, client: HttpClient): Promise<NormalizedPosting[]> {
    // The token is a DNS label here (it becomes the host), so it is checked more strictly than path tokens.
    if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(board.token)) {
      throw new SourceError(
        'http_error',
        'recruitee',
        `Invalid Recruitee subdomain ${JSON.stringify(board.token)}`,
        false,
      );
    }
    const url = `https://${board.token.toLowerCase()}.recruitee.com/api/offers/`;
    const data = await fetchVendorJson('recruitee', client, url, Offers);
    return data.offers
      .filter((o) => !o.status || o.status === 'published')
      .map((o) => {
        const min = num(o.salary?.min);
        const max = num(o.salary?.max);
        return {
          externalId: String(o.id),
          title: normalizeSpace(o.title),
          location:
            nonEmpty(o.location) ??
            joinDistinct(
              (o.locations ?? []).map((l) =>
                joinDistinct([l.city, l.state, l.country])?.replace(/; /g, ', '),
              ),
            ),
          remote: o.remote === true ? true : o.on_site === true || o.hybrid === true ? false : null,
          workplace:
            o.remote === true
              ? 'remote'
              : o.hybrid === true
                ? 'hybrid'
                : o.on_site === true
                  ? 'onsite'
                  : null,
          department: nonEmpty(o.department),
          postedAt: parseDate(o.published_at) ?? parseDate(o.created_at),
          updatedAt: parseDate(o.updated_at),
          url: o.careers_url,
          descriptionText: [descriptionFromHtml(o.description), descriptionFromHtml(o.requirements)]
            .filter((t) => t.length > 0)
            .join('\n\n'),
          ...(min !== null || max !== null
            ? {
                salary: {
                  currency: nonEmpty(o.salary?.currency)?.toUpperCase() ?? null,
                  min,
                  max,
                  interval: normalizeInterval(o.salary?.period),
                  text: null,
                },
              }
            : {}),
        };
      });
  },
};
