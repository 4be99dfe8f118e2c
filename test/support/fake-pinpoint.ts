/**
 * Fake Pinpoint careers feeds on `{company}.pinpointhq.com` (structure from public clients of the live feed; see
 * docs/sources.md): `GET /postings.json` answers `{data: [...]}`, the advert in sections with optional headers.
 */
import type { FakePosting } from './fake-ats-render.js';
import { cityOf, type VendorFake } from './fake-vendors.js';

export function pinpointPosting(company: string, p: FakePosting) {
  const uuid = `0b6f${p.id.padStart(8, '0')}-1c2d-4e5f-8a9b-${p.id.padStart(12, '0')}`.slice(0, 36);
  return {
    id: Number(p.id) || p.id,
    title: p.title,
    path: `/en/postings/${uuid}`,
    url: `https://${company}.pinpointhq.com/en/postings/${uuid}`,
    description: p.descriptionHtml ?? '',
    key_responsibilities: '<ul><li>Own outcomes</li></ul>',
    key_responsibilities_header: 'What you will do',
    skills_knowledge_expertise: '<p>Experience with customers.</p>',
    skills_knowledge_expertise_header: 'What you bring',
    benefits: '',
    benefits_header: 'Benefits',
    compensation: p.salary ? `${p.salary.currency} ${p.salary.min} - ${p.salary.max}` : '',
    compensation_visible: p.salary !== undefined,
    employment_type: 'permanent_full_time',
    employment_type_text: 'Permanent - Full Time',
    workplace_type: p.remote ? 'remote' : 'onsite',
    workplace_type_text: p.remote ? 'Fully remote' : 'On-site',
    deadline_at: null,
    location: { id: '4123', city: cityOf(p), name: p.remote ? 'Remote' : cityOf(p), province: '' },
    job: {
      id: '88',
      requisition_id: `REQ-${p.id}`,
      department: { id: '9', name: p.department ?? '' },
      division: null,
    },
  };
}

export const pinpointFake: VendorFake = {
  provider: 'pinpoint',
  hosts: ['.pinpointhq.com'],
  owns: (host) => host.endsWith('.pinpointhq.com'),
  handle(req, io) {
    const sub = req.host.split('.')[0] ?? '';
    if (req.url.pathname !== '/postings.json') return io.notFound();
    return io.serve(sub, (ps) => JSON.stringify({ data: ps.map((p) => pinpointPosting(sub, p)) }));
  },
};
