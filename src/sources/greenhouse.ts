/**
 * Greenhouse Job Board API (external-apis.md §1.1): one unpaged call returns the whole board with
 * `content=true`; `content` is HTML escaped as entities, so it is unescaped once and then read as HTML.
 */
import { Type } from 'typebox';
import type { HttpClient } from '../net/types.js';
import { boardSegment, fetchVendorJson } from './http.js';
import { Id, Nullable, OptStr } from './schema.js';
import { decodeEntities, htmlToText, inferRemote, joinDistinct, nonEmpty, parseDate } from './text.js';
import type { BoardRef, NormalizedPosting, SourceAdapter } from './types.js';

const Job = Type.Object({
  id: Id,
  title: Type.String(),
  absolute_url: Type.String(),
  updated_at: OptStr,
  first_published: OptStr,
  location: Nullable(Type.Object({ name: OptStr })),
  content: OptStr,
  departments: Nullable(Type.Array(Type.Object({ name: OptStr }))),
  offices: Nullable(Type.Array(Type.Object({ name: OptStr, location: OptStr }))),
  requisition_id: OptStr,
});
const Board = Type.Object({ jobs: Type.Array(Job) });

function apiHost(board: BoardRef): string {
  // EU boards live on job-boards.eu.greenhouse.io; sources disagree whether the API host differs, so only
  // boards seen on an EU host use the EU API host (external-apis.md §1.1).
  return /\.eu\.greenhouse\.io/i.test(board.url) ? 'boards-api.eu.greenhouse.io' : 'boards-api.greenhouse.io';
}

const Listing = Type.Object({ jobs: Type.Array(Type.Object({ id: Id })) });

export const greenhouse: SourceAdapter = {
  provider: 'greenhouse',
  boardUrl: (token) => `https://boards.greenhouse.io/${encodeURIComponent(token)}`,
  async countPostings(board, client) {
    // Without content=true the list is a fraction of the size: enough to confirm the board exists.
    const url = `https://${apiHost(board)}/v1/boards/${boardSegment('greenhouse', board.token)}/jobs`;
    return (await fetchVendorJson('greenhouse', client, url, Listing)).jobs.length;
  },
  async fetchPostings(board: BoardRef, client: HttpClient): Promise<NormalizedPosting[]> {
    const url = `https://${apiHost(board)}/v1/boards/${boardSegment('greenhouse', board.token)}/jobs?content=true`;
    const data = await fetchVendorJson('greenhouse', client, url, Board);
    return data.jobs.map((j) => {
      const officeNames = (j.offices ?? []).map((o) => o.name);
      return {
        externalId: String(j.id),
        title: j.title.trim(),
        location:
          nonEmpty(j.location?.name) ?? joinDistinct((j.offices ?? []).map((o) => o.location ?? o.name)),
        remote: inferRemote(j.location?.name, ...officeNames),
        department: joinDistinct((j.departments ?? []).map((d) => d.name)),
        postedAt: parseDate(j.first_published) ?? parseDate(j.updated_at),
        url: j.absolute_url,
        descriptionText: htmlToText(decodeEntities(j.content ?? '')),
        requisitionId: nonEmpty(j.requisition_id),
      };
    });
  },
};
