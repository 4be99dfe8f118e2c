/**
 * Fake Gem Job Board API on api.gem.com (format: docs/sources.md, Gem): `GET /job_board/v0/{board}/job_posts/`
 * answers the whole board as a bare array, HTML and plain text of each posting included.
 */
import type { FakePosting } from './fake-ats-render.js';
import { postedOf, type VendorFake } from './fake-vendors.js';

export function gemPost(board: string, p: FakePosting) {
  const html = p.descriptionHtml ?? '';
  return {
    id: `am9icG9zdD${p.id}`,
    title: p.title,
    absolute_url: `https://jobs.gem.com/${board}/am9icG9zdD${p.id}`,
    content: html,
    content_plain: html.replace(/<[^>]+>/g, ' '),
    created_at: postedOf(p),
    updated_at: postedOf(p),
    first_published_at: postedOf(p),
    location: { name: p.location ?? 'Remote' },
    location_type: p.remote ? 'remote' : 'in_office',
    employment_type: 'full_time',
    departments: p.department ? [{ id: 'ZGVwdDox', name: p.department }] : [],
    offices: [
      { id: 'b2ZmaWNlOjE', name: p.location ?? 'Remote', location: { name: p.location ?? 'Remote' } },
    ],
    requisition_id: `REQ-${p.id}`,
  };
}

export const gemFake: VendorFake = {
  provider: 'gem',
  hosts: ['api.gem.com'],
  owns: (host) => host === 'api.gem.com',
  handle(req, io) {
    const [a, b, board, posts, ...rest] = req.seg;
    const ok = a === 'job_board' && b === 'v0' && board && posts === 'job_posts' && rest.length === 0;
    if (!ok || !req.url.pathname.endsWith('/')) return io.notFound();
    return io.serve(board, (ps) => JSON.stringify(ps.map((p) => gemPost(board, p))));
  },
};
