import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DossierSchema } from '../../src/research/dossier.js';
import { coverage } from '../../src/research/report.js';
import { addCompany, addJobs } from '../catalog/fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FakeSites, startFakeSites } from '../support/fake-site.js';
import { QUIETCO, TEAMCO } from './fixtures.js';

/** Deep research with the offline default provider (the local composer) on fixture sites, through HTTP. */

let sites: FakeSites;
let t: TestApp;
let teamco: { id: string; slug: string };
let quietco: { id: string; slug: string };

const hostMap = (map: Record<string, string>) =>
  Object.entries(map)
    .map(([h, o]) => `${h}=${o}`)
    .join(',');

const post = (body: unknown, token: string | null = t.token) =>
  t.request({ method: 'POST', url: '/api/v1/deep-research', payload: body as object, token });

beforeAll(async () => {
  sites = await startFakeSites({ 'teamco.com': TEAMCO, 'quietco.com': QUIETCO, 'downco.com': {} });
  t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMap(sites.hostMap), DEEP_RESEARCH_WAIT_S: '60' } });
  await t.deps.pipeline.start();
  const now = t.clock.now();
  teamco = await addCompany(
    t.deps.db,
    { name: 'TeamCo', domain: 'teamco.com', oneLiner: 'Warehouse robots' },
    now,
  );
  quietco = await addCompany(t.deps.db, { name: 'QuietCo', domain: 'quietco.com', oneLiner: '' }, now);
  await addCompany(t.deps.db, { name: 'DownCo', domain: 'downco.com' }, now);
  // A fact the catalog already knows: a dossier that does not know it must not erase it.
  await t.deps.db.query('UPDATE companies SET founded_year = 2015 WHERE id = $1', [quietco.id]);
  await addJobs(
    t.deps.db,
    [
      { title: 'Forward Deployed Engineer', roleCategory: 'fde' as const, location: 'Berlin', remote: false },
      {
        title: 'Solutions Engineer',
        roleCategory: 'solutions_engineer' as const,
        location: 'Berlin',
        remote: true,
      },
      { title: 'Robotics Engineer', roleCategory: 'engineering' as const, location: 'Munich', remote: false },
    ].map((j, i) => ({
      ...j,
      companyId: teamco.id,
      companyName: 'TeamCo',
      postedAt: new Date(now - i * 3_600_000),
    })),
    now,
  );
});

afterAll(async () => {
  await t?.close();
  await sites?.close();
});

describe('POST /deep-research: validation and access', () => {
  it('needs a token', async () => {
    expect((await post({ domain: 'teamco.com' }, null)).statusCode).toBe(401);
    expect((await t.get('/api/v1/deep-research/teamco.com')).statusCode).toBe(401);
    expect((await post({ domain: 'teamco.com' }, 'fl_wrong-token-entirely')).statusCode).toBe(403);
  });

  it('answers 400 naming the field for malformed bodies', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /domain/],
      [{ domain: 'teamco.com', mode: 'slow' }, /mode/],
      [{ domain: 'teamco.com', processor: 'mega' }, /processor/],
      [{ domain: 'teamco.com', extra: 1 }, /extra|additional/i],
      [{ domain: 'localhost' }, /domain/],
      [{ domain: 42 }, /domain/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.message).toMatch(message);
    }
  });

  it('refuses processors beyond base without the Parallel provider, naming the configured one', async () => {
    for (const processor of ['core', 'core2x', 'pro', 'ultra']) {
      const res = await post({ domain: 'teamco.com', processor });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/processor/);
      expect(res.json().error.message).toMatch(/'local'/);
    }
  });

  it('answers 404 for untracked domains and for companies without research', async () => {
    const untracked = await post({ domain: 'https://www.nobody-here.com/x' });
    expect(untracked.statusCode).toBe(404);
    expect(untracked.json().error.code).toBe('NOT_FOUND');
    expect(untracked.json().error.message).toMatch(/nobody-here\.com/);
    expect((await t.get('/api/v1/deep-research/nobody-here.com', t.token)).statusCode).toBe(404);
    const none = await t.get('/api/v1/deep-research/quietco.com', t.token);
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toMatch(/No research/);
  });
});

describe('the local composer', () => {
  it('builds a dossier from a site with a team page, structured data and a press release', async () => {
    const res = await post({ domain: 'https://www.TeamCo.com/about' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.company).toEqual({ id: teamco.id, name: 'TeamCo', domain: 'teamco.com', slug: teamco.slug });
    expect(data.mode).toBe('full');
    expect(data.processor).toBe('base');
    const d = data.research;
    expect(Value.Check(DossierSchema, d)).toBe(true);
    expect(d.provider).toBe('local');
    expect(d.founders.map((f: { name: string; role: string }) => `${f.name}: ${f.role}`)).toEqual([
      'Ada Lovelace: Co-founder & CEO',
      'Charles Babbage: Co-founder & CTO',
    ]);
    expect(d.founders[0].links).toEqual(['https://www.linkedin.com/in/ada-lovelace']);
    expect(d.founders[0].background).toMatch(/robotics lab/);
    expect(d.leadership).toContainEqual({ name: 'Grace Hopper', title: 'VP Engineering' });
    expect(d.leadership.map((l: { name: string }) => l.name)).not.toContain('Careers');
    expect(d.foundedYear).toBe(2019);
    expect(d.headquarters).toBe('Berlin, Germany');
    expect(d.employeeCount).toBe(45);
    expect(d.fundingRounds).toEqual([
      { date: '2024-03', round: 'Series A', amountUsd: 20_000_000, investors: ['Example Ventures'] },
    ]);
    expect(d.competitors).toEqual([]);
    expect(d.marketAnalysis.market).toBeNull();
    expect(d.hiring).toMatchObject({ activeJobs: 3, clientFacingJobs: 2, remoteShare: 0.33 });
    expect(d.hiring.locations[0]).toBe('Berlin');
    expect(d.sources.map((s: { url: string }) => s.url)).toEqual(
      expect.arrayContaining([
        'https://teamco.com/',
        'https://teamco.com/team',
        'https://teamco.com/press/series-a',
      ]),
    );
    // Only the company's own site is read: the sitemap's foreign URL is ignored.
    expect(sites.requests.some((r) => r.host === 'elsewhere.com')).toBe(false);
    expect(d.markdownReport).toMatch(/\| Founded \| 2019 \|/);
    expect(d.markdownReport).toMatch(/Unknown: a local run does not research competitors/);
    expect(data.run).toMatchObject({ provider: 'local', mode: 'full', processor: 'base', costUsd: 0 });
    console.info('local composer coverage, teamco.com (team page):', coverage(d));
  });

  it('says what it does not know on a site without a team page', async () => {
    const res = await post({ domain: 'quietco.com', mode: 'fast', processor: 'lite' });
    expect(res.statusCode).toBe(200);
    const d = res.json().data.research;
    expect(res.json().data).toMatchObject({ mode: 'fast', processor: 'lite' });
    expect(d.founders).toEqual([]);
    expect(d.leadership).toEqual([]);
    expect(d.foundedYear).toBeNull();
    expect(d.employeeCount).toBeNull();
    expect(d.fundingRounds).toEqual([]);
    expect(d.headquarters).toBe('Austin, Texas');
    expect(d.summary).toBe('QuietCo reads supplier invoices and books them.');
    expect(d.hiring).toEqual({
      activeJobs: 0,
      clientFacingJobs: 0,
      topCategories: [],
      locations: [],
      remoteShare: null,
    });
    expect(d.markdownReport).toMatch(/Unknown: no founders are named/);
    expect(d.markdownReport).toMatch(/\| Founded \| unknown \|/);
    console.info('local composer coverage, quietco.com (no team page):', coverage(d));
    // The known founding year survives a dossier that does not know it.
    const company = (await t.get(`/api/v1/companies/${quietco.slug}`)).json().data;
    expect(company.foundedYear).toBe(2015);
    expect(company.headquarters).toBe('Austin, Texas');
  });

  it('fails with 502 naming the cause when the company site cannot be read, storing nothing', async () => {
    const res = await post({ domain: 'downco.com' });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toMatch(/could not read https:\/\/downco\.com\/: HTTP 404/);
    expect((await t.get('/api/v1/deep-research/downco.com', t.token)).statusCode).toBe(404);
  });
});

describe('the dossier feeds the company and search', () => {
  it('shows summary and facts on GET /companies/:id', async () => {
    const res = await t.get(`/api/v1/companies/${teamco.id}`);
    const c = res.json().data;
    expect(c.researchSummary).toMatch(/^TeamCo builds autonomous picking robots/);
    expect(c.researchSummary).toMatch(/Founders: Ada Lovelace, Charles Babbage/);
    expect(c.foundedYear).toBe(2019);
    expect(c.employeeCount).toBe(45);
    expect(c.headquarters).toBe('Berlin, Germany');
    expect(c.funding).toEqual({ summary: 'Series A (2024-03), $20M total', totalUsd: 20_000_000 });
  });

  it('makes research terms searchable and recomputes the embedding', async () => {
    const res = await t.get('/api/v1/companies?search=Lovelace');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((c: { slug: string }) => c.slug)[0]).toBe(teamco.slug);
    const rows = await t.deps.db.query<{ fresh: boolean }>(
      `SELECT e.text_hash = md5(s.text) AS fresh FROM company_embeddings e JOIN search_company_texts s ON s.id = e.company_id
        WHERE e.company_id = $1`,
      [teamco.id],
    );
    expect(rows).toEqual([{ fresh: true }]);
  });
});

describe('history and collapse', () => {
  it('keeps every run; GET returns the latest and /runs lists them all', async () => {
    t.clock.advance(60_000);
    const second = await post({ domain: 'teamco.com', mode: 'fast' });
    expect(second.statusCode).toBe(200);
    const latest = await t.get('/api/v1/deep-research/teamco.com', t.token);
    expect(latest.statusCode).toBe(200);
    expect(latest.json().data.company.slug).toBe(teamco.slug);
    expect(latest.json().data.run).toEqual(second.json().data.run);
    expect(latest.json().data.research).toEqual(second.json().data.research);
    const runs = (await t.get('/api/v1/deep-research/teamco.com/runs', t.token)).json().data.runs;
    expect(runs.map((r: { mode: string }) => r.mode)).toEqual(['fast', 'full']);
    for (const r of runs) {
      expect(r).toMatchObject({ provider: 'local', processor: 'base', costUsd: 0, providerProcessor: null });
      // Measured on the injected clock, which stands still while these runs execute.
      expect(r.durationMs).toBe(0);
    }
    expect(runs[0].createdAt).toBe(new Date(t.clock.now()).toISOString());
  });

  it('collapses concurrent requests for the same domain, mode and processor into one run', async () => {
    t.clock.advance(60_000);
    const before = await t.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM research_runs');
    const [a, b, c] = await Promise.all([
      post({ domain: 'teamco.com' }),
      post({ domain: 'teamco.com', mode: 'full', processor: 'base' }),
      post({ domain: 'www.teamco.com' }),
    ]);
    for (const r of [a, b, c]) expect(r?.statusCode).toBe(200);
    expect(b?.json().data.run.id).toBe(a?.json().data.run.id);
    expect(c?.json().data.run.id).toBe(a?.json().data.run.id);
    const after = await t.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM research_runs');
    expect(after[0]?.n).toBe((before[0]?.n ?? 0) + 1);
  });
});

describe('OpenAPI', () => {
  it('documents both endpoints and the dossier', async () => {
    const doc = (await t.get('/api/v1/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/deep-research',
        '/api/v1/deep-research/{domain}',
        '/api/v1/deep-research/{domain}/runs',
      ]),
    );
    const ok = doc.paths['/api/v1/deep-research'].post.responses['200'].content['application/json'].schema;
    const research = ok.properties.data.properties.research;
    expect(Object.keys(research.properties)).toEqual(
      expect.arrayContaining([
        'summary',
        'founders',
        'leadership',
        'foundedYear',
        'employeeCount',
        'fundingRounds',
        'markdownReport',
        'sources',
      ]),
    );
    expect(doc.paths['/api/v1/deep-research'].post.responses['202']).toBeDefined();
  });
});
