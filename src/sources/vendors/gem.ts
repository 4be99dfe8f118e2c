/**
 * Gem Job Board API (docs/sources.md, Gem): `GET https://api.gem.com/job_board/v0/{board}/job_posts/` answers the
 * whole board as a bare JSON array, descriptions included, with no key. The board is the vanity path of
 * `jobs.gem.com/{board}` and is case-sensitive; the trailing slash is part of the endpoint.
 */
import { Type } from 'typebox';
import type { HttpClient } from '../../net/types.js';
import { boardSegment, fetchVendorJson } from '../http.js';
import { descriptionFromHtml } from '../normalize/description.js';
import {
  cleanText,
  inferRemote,
  joinDistinct,
  nonEmpty,
  normalizeSpace,
  parseDate,
} from '../normalize/text.js';
import { workplaceOf } from '../normalize/workplace.js';
import { Id, Nullable, OptStr } from '../schema.js';
import type { BoardRef, NormalizedPosting, SourceAdapter } from '../types.js';

const Named = Nullable(Type.Object({ name: OptStr }));
const Post = Type.Object({
  id: Id,
  title: Type.String(),
  absolute_url: Type.String({ minLength: 1 }),
  /** HTML of the posting. */
  content: OptStr,
  /** The same text without markup. */
  content_plain: OptStr,
  first_published_at: OptStr,
  created_at: OptStr,
  updated_at: OptStr,
  location: Named,
  /** "remote" | "hybrid" | "in_office". */
  location_type: OptStr,
  departments: Nullable(Type.Array(Type.Object({ name: OptStr }))),
  offices: Nullable(Type.Array(Type.Object({ name: OptStr, location: Named }))),
  requisition_id: OptStr,
});
const Posts = Type.Array(Post);
const Listing = Type.Array(Type.Object({ id: Id }));

const postsUrl = (token: string) =>
  `https://api.gem.com/job_board/v0/${boardSegment('gem', token)}/job_posts/`;

/** The structured work arrangement, else what the location text says. */
function remoteOf(
  type: string | null | undefined,
  ...places: Array<string | null | undefined>
): boolean | null {
  if (type === 'remote') return true;
  if (type === 'hybrid' || type === 'in_office') return false;
  return inferRemote(...places);
}

export const gem: SourceAdapter = {
  provider: 'gem',
  boardUrl: (token) => `https://jobs.gem.com/${encodeURIComponent(token)}`,
  async countPostings(board, client) {
    return (await fetchVendorJson('gem', client, postsUrl(board.token), Listing)).length;
  },
  async fetchPostings(board: BoardRef, client: HttpClient): Promise<NormalizedPosting[]> {
    const posts = await fetchVendorJson('gem', client, postsUrl(board.token), Posts);
    return posts.map((p) => {
      const offices = (p.offices ?? []).map((o) => o.location?.name ?? o.name);
      const html = nonEmpty(p.content);
      return {
        externalId: String(p.id),
        title: normalizeSpace(p.title),
        location: joinDistinct(offices) ?? nonEmpty(p.location?.name),
        remote: remoteOf(p.location_type, p.location?.name, ...offices),
        workplace: workplaceOf(p.location_type),
        department: joinDistinct((p.departments ?? []).map((d) => d.name)),
        postedAt: parseDate(p.first_published_at) ?? parseDate(p.created_at),
        url: p.absolute_url,
        descriptionText: html ? descriptionFromHtml(html) : cleanText(p.content_plain),
        requisitionId: nonEmpty(p.requisition_id),
      };
    });
  },
};
