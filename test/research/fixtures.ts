import type { FakeSiteSpec } from '../support/fake-site.js';

/**
 * Two company sites for the local composer and the LLM provider:
 * - teamco.com: JSON-LD Organization (founding date, address), a team page with founders and leaders in cards,
 *   an about page with the headcount, a press release with a funding round, pages also listed in the sitemap.
 * - quietco.com: a homepage and an about page that name nobody and state no facts beyond a location.
 */

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

const NAV = `<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/team">Our team</a>
  <a href="/blog">Blog</a> <a href="/careers">Careers</a> <a href="https://twitter.com/teamco">Twitter</a></nav>`;

const ORG = JSON.stringify({
  '@context': 'https://schema.org',
  '@graph': [
    { '@type': 'WebSite', name: 'TeamCo', url: 'https://teamco.com' },
    {
      '@type': 'Organization',
      name: 'TeamCo',
      url: 'https://teamco.com',
      foundingDate: '2019-04-01',
      address: { '@type': 'PostalAddress', addressLocality: 'Berlin', addressCountry: 'Germany' },
      sameAs: ['https://www.linkedin.com/company/teamco'],
    },
  ],
});

export const TEAMCO: FakeSiteSpec[string] = {
  '/': page(
    'TeamCo — robots that ship',
    `${NAV}<h1>Warehouse robots that learn on the job</h1>
     <p>TeamCo builds autonomous picking robots for mid-size warehouses.</p>`,
    `<meta name="description" content="TeamCo builds autonomous picking robots for mid-size warehouses.">
     <script type="application/ld+json">${ORG}</script>`,
  ),
  '/about': page(
    'About TeamCo',
    `${NAV}<h1>About us</h1>
     <p>TeamCo was founded in 2019 by two roboticists. Today we are a team of 45 people working from Berlin and Munich.</p>
     <p>Our customers include regional grocers and third-party logistics providers.</p>`,
  ),
  '/team': page(
    'Our team',
    `${NAV}<h1>Meet the team</h1>
     <section class="people">
       <div class="card"><h3>Ada Lovelace</h3><p class="role">Co-founder &amp; CEO</p>
         <p>Previously led the robotics lab at a Berlin university and spent eight years in industrial automation.</p>
         <a href="https://www.linkedin.com/in/ada-lovelace">LinkedIn</a></div>
       <div class="card"><h3>Charles Babbage</h3><p class="role">Co-founder &amp; CTO</p>
         <p>Built motion-planning systems for warehouse fleets before starting TeamCo.</p></div>
       <div class="card"><h3>Grace Hopper</h3><p class="role">VP Engineering</p></div>
       <div class="card"><h3>Careers</h3><p>Join us</p></div>
     </section>`,
  ),
  '/press/series-a': page(
    'TeamCo raises Series A',
    `${NAV}<h1>Press</h1><p>March 2024: TeamCo raised $20 million Series A led by Example Ventures to expand to new markets.</p>`,
  ),
  '/blog': page('Blog', `${NAV}<h1>Blog</h1><p>Notes from the warehouse floor.</p>`),
  '/sitemap.xml': `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <url><loc>https://teamco.com/</loc></url><url><loc>https://teamco.com/team</loc></url>
    <url><loc>https://teamco.com/press/series-a</loc></url><url><loc>https://teamco.com/careers</loc></url>
    <url><loc>https://elsewhere.com/about</loc></url></urlset>`,
};

export const QUIETCO: FakeSiteSpec[string] = {
  '/': page(
    'QuietCo',
    `<nav><a href="/about">About</a> <a href="/pricing">Pricing</a></nav><h1>Invoices, quietly automated</h1>
     <p>QuietCo reads supplier invoices and books them for you.</p>`,
    '<meta name="description" content="QuietCo reads supplier invoices and books them.">',
  ),
  '/about': page(
    'About QuietCo',
    `<h1>About</h1><p>We are based in Austin, Texas. We believe finance teams deserve better tools.</p>`,
  ),
};

/** Founders, leaders and facts of teamco.com, for the Parallel and LLM fakes' answers. */
export const TEAMCO_DOSSIER = {
  summary: 'TeamCo builds autonomous picking robots for mid-size warehouses.',
  founders: [
    { name: 'Ada Lovelace', role: 'Co-founder & CEO', background: 'Robotics lab lead', links: [] },
    { name: 'Charles Babbage', role: 'Co-founder & CTO', background: null, links: [] },
  ],
  leadership: [{ name: 'Grace Hopper', title: 'VP Engineering' }],
  foundedYear: 2019,
  employeeCount: 45,
  headquarters: 'Berlin, Germany',
  marketAnalysis: {
    market: 'Warehouse automation',
    positioning: 'Robots for mid-size warehouses',
    customers: 'Regional grocers and 3PLs',
    trends: 'Labour shortages in logistics',
  },
  fundingRounds: [
    { date: '2024-03', round: 'Series A', amountUsd: 20_000_000, investors: ['Example Ventures'] },
  ],
  competitors: [{ name: 'PickBot', domain: 'pickbot.com', note: 'Targets large warehouses' }],
  markdownReport: '# TeamCo\n\nAutonomous picking robots. Quasiwarehousing pioneer.',
};
