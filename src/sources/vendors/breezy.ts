/**
 * Breezy HR's public careers-site feed: `GET https://{company}.breezy.hr/json?verbose=true`, one unpaged JSON array
 * of published positions (`verbose` adds each position's HTML `description`). An unknown company is redirected
 * to Breezy's own site (board_moved); some answer `[]` for any name, so an empty board is weak evidence.
 */
import { Type } from 'typebox';
import { fetchVendorJson, subdomainToken } from '../http.js';
import { htmlToText, inferRemote, joinDistinct, nonEmpty, parseDate } from '../normalize/text.js';
import { Nullable, OptBool, OptStr } from '../schema.js';
import type { SourceAdapter } from '../types.js';

const Position = Type.Object({
  id: Type.String({ minLength: 1 }),
  friendly_id: OptStr,
  name: Type.String(),
  url: Type.String(),
  published_date: OptStr,
  type: Nullable(Type.Object({ name: OptStr })),
  location: Nullable(
    Type.Union([
      Type.String(),
      Type.Object({
        name: OptStr,
        city: OptStr,
        state: Nullable(Type.Object({ name: OptStr })),
        country: Nullable(Type.Object({ name: OptStr, id: OptStr })),
        is_remote: OptBool,
      }),
    ]),
  ),
  department: OptStr,
  description: OptStr,
});
const Feed = Type.Array(Position);

export const breezy: SourceAdapter = {
  provider: 'breezy',
  boardUrl: (token) => `https://${token.toLowerCase()}.breezy.hr/`,
  async countPostings(board, client) {
    return (await breezy.fetchPostings(board, client)).length;
  },
  async fetchPostings(board, client) {
    const url = `https://${subdomainToken('breezy', board.token)}.breezy.hr/json?verbose=true`;
    const feed = await fetchVendorJson('breezy', client, url, Feed);
    return feed.map((p) => {
      const loc = p.location;
      const location =
        typeof loc === 'string'
          ? nonEmpty(loc)
          : (nonEmpty(loc?.name) ??
            joinDistinct([loc?.city, loc?.state?.name, loc?.country?.name])?.replace(/; /g, ', ') ??
            null);
      const remoteFlag = typeof loc === 'object' && loc !== null ? loc.is_remote : undefined;
      return {
        externalId: p.id,
        title: p.name.trim(),
        location,
        remote: remoteFlag === true ? true : remoteFlag === false ? false : inferRemote(location),
        department: nonEmpty(p.department),
        postedAt: parseDate(p.published_date),
        url: p.url,
        descriptionText: htmlToText(p.description),
      };
    });
  },
};
