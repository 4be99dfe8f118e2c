/**
 * Fake Breezy HR careers feeds on `{company}.breezy.hr` (structure from public clients' typed models of the live
 * feed; see docs/sources.md): `GET /json?verbose=true` answers a bare array of positions with `description` HTML.
 * An unknown company is redirected to breezy.hr, as the vendor does.
 */
import type { FakePosting } from './fake-ats-render.js';
import { cityOf, MARKETING_PAGE, postedOf, slugOf, type VendorFake } from './fake-vendors.js';

export function breezyPosition(company: string, p: FakePosting) {
  const [, state = '', country = ''] = (p.location ?? '').split(',').map((x) => x.trim());
  return {
    id: `${p.id}b7e2`,
    friendly_id: `${p.id}b7e2-${slugOf(p.title)}`,
    name: p.title,
    url: `https://${company}.breezy.hr/p/${p.id}b7e2-${slugOf(p.title)}`,
    published_date: postedOf(p).replace('Z', '.000Z'),
    type: { id: 'fullTime', name: 'Full-Time' },
    location: {
      country: { name: country || 'United States', id: 'US' },
      state: { id: 'CA', name: state },
      city: cityOf(p),
      is_remote: p.remote ?? false,
      name: p.remote ? 'Remote' : [cityOf(p), state].filter(Boolean).join(', '),
    },
    department: p.department ?? null,
    salary: '',
    company: { name: 'Acme', logo_url: null, friendly_id: company },
    description: p.descriptionHtml ?? '',
  };
}

export const breezyFake: VendorFake = {
  provider: 'breezy',
  hosts: ['.breezy.hr', 'breezy.hr'],
  owns: (host) => host.endsWith('.breezy.hr') || host === 'breezy.hr',
  handle(req, io) {
    const sub = req.host.split('.')[0] ?? '';
    if (req.host === 'breezy.hr' || sub === 'www') {
      return io.send(200, MARKETING_PAGE, { 'content-type': 'text/html' });
    }
    if (req.url.pathname !== '/json') return io.notFound();
    if (!io.known(sub))
      return io.send(302, '', { location: 'https://breezy.hr/', 'content-type': 'text/html' });
    return io.serve(sub, (ps) => JSON.stringify(ps.map((p) => breezyPosition(sub, p))));
  },
};
