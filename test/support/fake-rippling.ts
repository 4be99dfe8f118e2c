/**
 * Fake Rippling board API on api.rippling.com (format: docs/sources.md, Rippling): the paged list
 * `GET /platform/api/ats/v2/board/{board}/jobs?page=&pageSize=` and one record per posting at `.../jobs/{id}`.
 */
import type { FakePosting } from './fake-ats-render.js';
import { cityOf, postedOf, type VendorFake } from './fake-vendors.js';

const uuid = (id: string) =>
  `5f1c2d3e-${id.padStart(4, '0').slice(-4)}-4a5b-8c9d-${id.padStart(12, '0').slice(-12)}`;

export function ripplingItem(board: string, p: FakePosting) {
  const [city = '', state = '', country = ''] = (p.location ?? '').split(',').map((x) => x.trim());
  return {
    id: uuid(p.id),
    name: p.title,
    url: `https://ats.rippling.com/${board}/jobs/${uuid(p.id)}`,
    department: p.department ? { name: p.department } : null,
    locations: [
      {
        name: p.remote ? `Remote (${country || 'US'})` : cityOf(p),
        country,
        countryCode: '',
        state,
        stateCode: '',
        city,
        workplaceType: p.remote ? 'REMOTE' : 'ON_SITE',
      },
    ],
    language: 'en-US',
  };
}

export function ripplingRecord(board: string, p: FakePosting) {
  return {
    uuid: uuid(p.id),
    name: p.title,
    companyName: board,
    url: `https://ats.rippling.com/${board}/jobs/${uuid(p.id)}`,
    description: { company: `<p>${board} builds AI.</p>`, role: p.descriptionHtml ?? '' },
    createdOn: postedOf(p),
    employmentType: { label: 'Full-time', id: 'SALARIED_FT' },
  };
}

export const ripplingFake: VendorFake = {
  provider: 'rippling',
  hosts: ['api.rippling.com'],
  owns: (host) => host === 'api.rippling.com',
  handle(req, io) {
    const [a, b, c, v, kind, board, jobs, id, ...rest] = req.seg;
    const ok = a === 'platform' && b === 'api' && c === 'ats' && v === 'v2' && kind === 'board' && board;
    if (!ok || jobs !== 'jobs' || rest.length > 0) return io.notFound();
    if (id !== undefined) {
      const raw = io.raw(`${board}/${id}`);
      if (raw) return io.send(raw.status, raw.body);
      const p = io.board(board)?.find((x) => uuid(x.id) === id);
      return p ? io.send(200, JSON.stringify(ripplingRecord(board, p))) : io.notFound();
    }
    const page = Number(req.url.searchParams.get('page') ?? 0);
    const size = Number(req.url.searchParams.get('pageSize') ?? 20);
    return io.serve(board, (ps) =>
      JSON.stringify({
        items: ps.slice(page * size, page * size + size).map((p) => ripplingItem(board, p)),
        page,
        pageSize: size,
        totalItems: ps.length,
        totalPages: Math.max(1, Math.ceil(ps.length / size)),
      }),
    );
  },
};
