/**
 * Pinpoint's public careers-site feed: `GET https://{company}.pinpointhq.com/postings.json`, one unpaged
 * `{data: [...]}` of open postings. The advert comes in sections (description, key responsibilities, skills,
 * benefits), each HTML with an optional `*_header`; the department is `job.department.name`; remote is stated in
 * `workplace_type` (remote / hybrid / onsite). The feed carries no publication date.
 */
import { type Static, Type } from 'typebox';
import { fetchVendorJson, subdomainToken } from '../http.js';
import { htmlToText, inferRemote, joinDistinct, nonEmpty } from '../normalize/text.js';
import { workplaceOf } from '../normalize/workplace.js';
import { Id, Nullable, OptStr } from '../schema.js';
import type { SourceAdapter } from '../types.js';

const SECTIONS = ['description', 'key_responsibilities', 'skills_knowledge_expertise', 'benefits'] as const;

const Posting = Type.Object({
  id: Id,
  title: Type.String(),
  url: Type.String(),
  description: OptStr,
  key_responsibilities: OptStr,
  key_responsibilities_header: OptStr,
  skills_knowledge_expertise: OptStr,
  skills_knowledge_expertise_header: OptStr,
  benefits: OptStr,
  benefits_header: OptStr,
  workplace_type: OptStr,
  deadline_at: OptStr,
  location: Nullable(Type.Object({ name: OptStr, city: OptStr, province: OptStr })),
  job: Nullable(Type.Object({ requisition_id: OptStr, department: Nullable(Type.Object({ name: OptStr })) })),
});
const Feed = Type.Object({ data: Type.Array(Posting) });
type Posting = Static<typeof Posting>;

function advert(p: Posting): string {
  return SECTIONS.map((key) => {
    const body = htmlToText(p[key]);
    const heading = key === 'description' ? null : nonEmpty(p[`${key}_header`]);
    return body && heading ? `${heading}\n\n${body}` : body;
  })
    .filter((t) => t.length > 0)
    .join('\n\n');
}

function remoteOf(p: Posting, location: string | null): boolean | null {
  const w = (p.workplace_type ?? '').toLowerCase();
  if (w === 'remote') return true;
  if (w === 'hybrid' || w === 'onsite' || w === 'on_site') return false;
  return inferRemote(location);
}

export const pinpoint: SourceAdapter = {
  provider: 'pinpoint',
  boardUrl: (token) => `https://${token.toLowerCase()}.pinpointhq.com/`,
  async countPostings(board, client) {
    return (await pinpoint.fetchPostings(board, client)).length;
  },
  async fetchPostings(board, client) {
    const url = `https://${subdomainToken('pinpoint', board.token)}.pinpointhq.com/postings.json`;
    const feed = await fetchVendorJson('pinpoint', client, url, Feed);
    return feed.data.map((p) => {
      const loc = p.location;
      const location =
        nonEmpty(loc?.name) ?? joinDistinct([loc?.city, loc?.province])?.replace(/; /g, ', ') ?? null;
      return {
        externalId: String(p.id),
        title: p.title.trim(),
        location,
        remote: remoteOf(p, location),
        workplace: workplaceOf(p.workplace_type),
        department: nonEmpty(p.job?.department?.name),
        postedAt: null,
        url: p.url,
        descriptionText: advert(p),
        requisitionId: nonEmpty(p.job?.requisition_id),
      };
    });
  },
};
