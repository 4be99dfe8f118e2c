/**
 * Fake Personio XML feeds on `{company}.jobs.personio.de` (docs/sources.md and public clients' recorded feeds;
 * see docs/sources.md): `GET /xml` answers `<workzag-jobs>` with one `<position>` per posting, its description
 * sections as CDATA HTML. An unknown company is redirected to www.personio.de, as the vendor does.
 */
import type { FakePosting } from './fake-ats-render.js';
import { cityOf, MARKETING_PAGE, postedOf, type VendorFake } from './fake-vendors.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** ISO time as Personio writes it: `2026-10-01T09:00:00+0000`. */
const personioTime = (iso: string) => `${iso.slice(0, 19)}+0000`;

export function personioPosition(p: FakePosting): string {
  const office = p.remote ? 'Remote' : cityOf(p);
  return `  <position>
    <id>${esc(p.id)}</id>
    <subcompany>Acme GmbH</subcompany>
    <office>${esc(office)}</office>
    ${p.department ? `<department>${esc(p.department)}</department>` : ''}
    <recruitingCategory>Tech</recruitingCategory>
    <name>${esc(p.title)}</name>
    <jobDescriptions>
      <jobDescription>
        <name>Your mission</name>
        <value><![CDATA[${p.descriptionHtml ?? ''}]]></value>
      </jobDescription>
      <jobDescription>
        <name>Your profile</name>
        <value><![CDATA[<ul><li>Curiosity</li></ul>]]></value>
      </jobDescription>
    </jobDescriptions>
    <employmentType>permanent</employmentType>
    <seniority>experienced</seniority>
    <schedule>full-time</schedule>
    <yearsOfExperience>3-5</yearsOfExperience>
    <keywords>AI,Customers</keywords>
    <occupation>software_and_web_development</occupation>
    <occupationCategory>it_software</occupationCategory>
    <createdAt>${personioTime(postedOf(p))}</createdAt>
  </position>`;
}

export const personioFeed = (ps: FakePosting[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<workzag-jobs>\n${ps.map(personioPosition).join('\n')}\n</workzag-jobs>\n`;

export const personioFake: VendorFake = {
  provider: 'personio',
  hosts: ['.jobs.personio.de', 'www.personio.de'],
  owns: (host) => /\.jobs\.personio\.de$/.test(host) || host === 'www.personio.de',
  handle(req, io) {
    if (req.host === 'www.personio.de') return io.send(200, MARKETING_PAGE, { 'content-type': 'text/html' });
    const sub = req.host.split('.')[0] ?? '';
    if (req.url.pathname !== '/xml') return io.notFound();
    if (!io.known(sub)) {
      return io.send(301, '', { location: 'https://www.personio.de/', 'content-type': 'text/html' });
    }
    return io.serve(sub, personioFeed, 'application/xml; charset=utf-8');
  },
};
