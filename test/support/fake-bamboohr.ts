/**
 * Fake BambooHR careers sites on `{company}.bamboohr.com` (docs/sources.md and public clients' recorded
 * responses; see docs/sources.md): `GET /careers/list` answers `{meta: {totalCount}, result: [...]}` without
 * descriptions, `GET /careers/{id}/detail` answers `{meta, result: {jobOpening}}`. An unknown company is redirected
 * to www.bamboohr.com, as the vendor does.
 */
import type { FakePosting } from './fake-ats-render.js';
import { cityOf, MARKETING_PAGE, postedOf, type VendorFake } from './fake-vendors.js';

const parts = (p: FakePosting) => (p.location ?? '').split(',').map((x) => x.trim());

export function bamboohrOpening(p: FakePosting) {
  const [, state = '', country = ''] = parts(p);
  return {
    id: p.id,
    jobOpeningName: p.title,
    departmentId: '18',
    departmentLabel: p.department ?? null,
    employmentStatusLabel: 'Full-Time',
    location: p.remote ? { city: null, state: null } : { city: cityOf(p), state },
    atsLocation: p.remote
      ? { country, state: null, province: null, city: null }
      : { country: null, state: null, province: null, city: null },
    isRemote: null,
    locationType: p.remote ? '1' : '0',
  };
}

export const bamboohrFake: VendorFake = {
  provider: 'bamboohr',
  hosts: ['.bamboohr.com'],
  owns: (host) => host.endsWith('.bamboohr.com'),
  handle(req, io) {
    const sub = req.host.split('.')[0] ?? '';
    if (sub === 'www') return io.send(200, MARKETING_PAGE, { 'content-type': 'text/html' });
    const [careers, id, detail] = req.seg;
    if (careers !== 'careers' || !id) return io.notFound();
    if (!io.known(sub))
      return io.send(302, '', { location: 'https://www.bamboohr.com/', 'content-type': 'text/html' });
    if (id === 'list' && !detail) {
      return io.serve(sub, (ps) =>
        JSON.stringify({ meta: { totalCount: ps.length }, result: ps.map(bamboohrOpening) }),
      );
    }
    const raw = io.raw(`${sub}/${id}`);
    if (raw && detail === 'detail') return io.send(raw.status, raw.body);
    const one = io.board(sub)?.find((p) => p.id === id);
    if (!one || detail !== 'detail') return io.notFound();
    return io.send(
      200,
      JSON.stringify({
        meta: { companyName: 'Acme' },
        result: {
          jobOpening: {
            ...bamboohrOpening(one),
            jobOpeningStatus: 'Open',
            description: one.descriptionHtml ?? '',
            datePosted: postedOf(one).slice(0, 10),
            jobOpeningShareUrl: `https://${sub}.bamboohr.com/careers/${one.id}`,
            compensation: null,
          },
        },
      }),
    );
  },
};
