import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardsReport, UnknownCompanyError } from '../../src/cli/boards.js';
import type { TestApp } from '../support/app.js';
import type { FakeAts, FakePosting } from '../support/fake-ats.js';
import type { FakeSites } from '../support/fake-site.js';
import { startVendorWorld, type VendorWorld } from '../support/vendor-world.js';
import { companySite, titled } from './support.js';

/**
 * Boards that die or move, through the real onboarding and scrape workflows: fake company sites whose careers
 * page changes, fake vendors whose boards vanish, empty out or are joined by another vendor's board.
 */

let t: TestApp;
let ats: FakeAts;
let sites: FakeSites;

const TITLES = [
  'Forward Deployed Engineer',
  'Solutions Architect',
  'Customer Success Manager',
  'Technical Account Manager',
  'Account Executive',
];
/** On-site postings: the same opening on two vendors has the same title and city. */
const onsite = (prefix: string): FakePosting[] =>
  titled(TITLES, prefix).map((p) => ({ ...p, remote: false, location: 'New York, NY, United States' }));

const careersLinking = (name: string, boards: string[]) => companySite(name, boards)['/careers'] as string;

async function run(name: 'onboard' | 'scrape', payload: object) {
  // Every run happens later than the one before, as on a real clock: the order in which boards were recorded is
  // what decides which copy of a posting listed by two boards stays.
  t.clock.advance(60_000);
  const { workflowId } = await t.deps.pipeline.engine.enqueue(name, payload);
  const view = await t.deps.pipeline.engine.waitFor(workflowId);
  expect(view.status, JSON.stringify(view)).toBe('succeeded');
  return view;
}

async function onboard(domain: string, name: string) {
  await run('onboard', { domain, name, force: false });
  const rows = await t.deps.db.query<{ id: string }>('SELECT id FROM companies WHERE domain = $1', [domain]);
  return rows[0]?.id as string;
}

const rescrape = (companyId: string, domain: string) => run('scrape', { companyId, domain });

async function activeJobs(companyId: string) {
  return t.deps.db.query<{ source: string; title: string; requisition_id: string | null }>(
    'SELECT source, title, requisition_id FROM jobs WHERE company_id = $1 AND active ORDER BY source, title',
    [companyId],
  );
}

async function boards(companyId: string) {
  return t.deps.db.query<{
    provider: string;
    token: string;
    active: boolean;
    last_outcome: string | null;
    consecutive_failures: number;
    last_error: string | null;
  }>(
    `SELECT provider, token, active, last_outcome, consecutive_failures, last_error FROM boards
     WHERE company_id = $1 ORDER BY created_at, provider`,
    [companyId],
  );
}

async function metric(vendor: string, outcome: string): Promise<number> {
  const res = await t.get('/metrics');
  const re = new RegExp(
    `^frontline_board_scrapes_total\\{vendor="${vendor}",outcome="${outcome}"\\} (\\d+)`,
    'm',
  );
  return Number(re.exec(res.body)?.[1] ?? 0);
}

let world: VendorWorld;

beforeAll(async () => {
  world = await startVendorWorld(
    {
      greenhouse: { movco: onsite('m'), goneco: onsite('g'), twoco: onsite('t') },
      smartrecruiters: { srco: onsite('s') },
      breezy: { redco: onsite('r') },
    },
    {
      'movco.com': ['Movco', ['https://boards.greenhouse.io/movco']],
      'goneco.com': ['Goneco', ['https://boards.greenhouse.io/goneco']],
      'twoco.com': ['Twoco', ['https://boards.greenhouse.io/twoco']],
      'srco.com': ['Srco', ['https://careers.smartrecruiters.com/srco']],
      'redco.com': ['Redco', ['https://redco.breezy.hr/']],
    },
  );
  ({ t, ats, sites } = world);
});
afterAll(async () => {
  await world?.close();
});

describe('a board that starts answering 404', () => {
  it('is re-detected from the careers page: the new vendor board is scraped, the old one closed, each posting listed once', async () => {
    const id = await onboard('movco.com', 'Movco');
    expect((await activeJobs(id)).map((j) => j.source)).toEqual(Array(5).fill('greenhouse'));

    ats.removeBoard('greenhouse', 'movco');
    ats.setBoard('workday', 'movco.wd5/External', onsite('m'));
    sites.setRoute(
      'movco.com',
      '/careers',
      careersLinking('Movco', ['https://movco.wd5.myworkdayjobs.com/en-US/External']),
    );
    const movedBefore = await metric('greenhouse', 'moved');
    const view = await rescrape(id, 'movco.com');

    const jobs = await activeJobs(id);
    expect(jobs).toHaveLength(5);
    expect(new Set(jobs.map((j) => j.source))).toEqual(new Set(['workday']));
    expect(jobs.map((j) => j.requisition_id).sort()).toEqual(['R-m1', 'R-m2', 'R-m3', 'R-m4', 'R-m5']);
    expect(await boards(id)).toMatchObject([
      { provider: 'greenhouse', active: false, last_outcome: 'moved', consecutive_failures: 1 },
      { provider: 'workday', token: 'movco.wd5/External', active: true, last_outcome: 'ok' },
    ]);
    expect(JSON.stringify(view.result)).toContain('"outcome":"moved"');
    expect(await metric('greenhouse', 'moved')).toBe(movedBefore + 1);
    const company = await t.get('/api/v1/companies/movco', t.token);
    expect(company.json().data.activeJobCount).toBe(5);

    // The next scrape reads the new board only.
    await rescrape(id, 'movco.com');
    expect(await activeJobs(id)).toHaveLength(5);
  });

  it('is closed with its jobs when the careers page names no other board', async () => {
    const id = await onboard('goneco.com', 'Goneco');
    expect(await activeJobs(id)).toHaveLength(5);
    ats.removeBoard('greenhouse', 'goneco');
    await rescrape(id, 'goneco.com');
    expect(await activeJobs(id)).toEqual([]);
    expect(await boards(id)).toMatchObject([
      { provider: 'greenhouse', active: false, last_outcome: 'gone', consecutive_failures: 1 },
    ]);
    expect((await boards(id))[0]?.last_error).toContain('404');
  });
});

describe('a board that now redirects to the vendor own site', () => {
  it('is re-detected like a 404: the board the careers page names replaces it', async () => {
    const id = await onboard('redco.com', 'Redco');
    expect(await activeJobs(id)).toHaveLength(5);
    ats.removeBoard('breezy', 'redco');
    ats.setBoard('pinpoint', 'redco', onsite('r'));
    sites.setRoute('redco.com', '/careers', careersLinking('Redco', ['https://redco.pinpointhq.com/']));
    await rescrape(id, 'redco.com');
    const jobs = await activeJobs(id);
    expect(jobs).toHaveLength(5);
    expect(new Set(jobs.map((j) => j.source))).toEqual(new Set(['pinpoint']));
    expect(await boards(id)).toMatchObject([
      { provider: 'breezy', active: false, last_outcome: 'moved' },
      { provider: 'pinpoint', active: true, last_outcome: 'ok' },
    ]);
    expect((await boards(id))[0]?.last_error).toContain('redirects to breezy.hr');
  });
});

describe('a company listed on two vendors during a move', () => {
  it('keeps one listing per posting, matched by requisition id while both boards answer', async () => {
    const id = await onboard('twoco.com', 'Twoco');
    ats.setBoard('workday', 'twoco.wd3/Jobs', onsite('t'));
    sites.setRoute(
      'twoco.com',
      '/careers',
      careersLinking('Twoco', [
        'https://boards.greenhouse.io/twoco',
        'https://twoco.wd3.myworkdayjobs.com/Jobs',
      ]),
    );
    await run('onboard', { domain: 'twoco.com', name: 'Twoco', force: true });

    const jobs = await activeJobs(id);
    expect(jobs).toHaveLength(5);
    expect(new Set(jobs.map((j) => j.source))).toEqual(new Set(['workday']));
    expect((await boards(id)).map((b) => [b.provider, b.active])).toEqual([
      ['greenhouse', true],
      ['workday', true],
    ]);

    // Both boards keep answering: re-scrapes do not bring the old board's copies back.
    await rescrape(id, 'twoco.com');
    expect(await activeJobs(id)).toHaveLength(5);
    const company = await t.get('/api/v1/companies/twoco', t.token);
    expect(company.json().data.activeJobCount).toBe(5);
  });
});

describe('a board that lists nothing where it had postings', () => {
  it('keeps its jobs until the emptiness is seen three times in a row (SmartRecruiters answers empty for any name)', async () => {
    const id = await onboard('srco.com', 'Srco');
    expect(await activeJobs(id)).toHaveLength(5);
    ats.setBoard('smartrecruiters', 'srco', []);
    // The careers page now also names an identifier that answers an empty list, as SmartRecruiters does for any
    // name: an empty replacement is no evidence of a move.
    ats.setBoard('smartrecruiters', 'srcoglobal', []);
    sites.setRoute(
      'srco.com',
      '/careers',
      careersLinking('Srco', [
        'https://careers.smartrecruiters.com/srco',
        'https://careers.smartrecruiters.com/srcoglobal',
      ]),
    );

    await rescrape(id, 'srco.com');
    expect(await activeJobs(id)).toHaveLength(5);
    expect(await boards(id)).toMatchObject([
      {
        provider: 'smartrecruiters',
        token: 'srco',
        active: true,
        last_outcome: 'empty_held',
        consecutive_failures: 1,
      },
      { provider: 'smartrecruiters', token: 'srcoglobal', active: true, last_outcome: 'ok' },
    ]);
    expect((await boards(id))[0]?.last_error).toContain('listed 0 postings where it had 5');

    await rescrape(id, 'srco.com');
    expect(await activeJobs(id)).toHaveLength(5);
    expect((await boards(id))[0]).toMatchObject({ last_outcome: 'empty_held', consecutive_failures: 2 });
    expect(await metric('smartrecruiters', 'empty_held')).toBe(2);

    await rescrape(id, 'srco.com');
    expect(await activeJobs(id)).toEqual([]);
    expect((await boards(id))[0]).toMatchObject({
      active: true,
      last_outcome: 'emptied',
      consecutive_failures: 0,
    });
  });

  it('a board that lists postings again resets its count of empty listings', async () => {
    const rows = await t.deps.db.query<{ id: string }>("SELECT id FROM companies WHERE domain = 'srco.com'");
    const id = rows[0]?.id as string;
    ats.setBoard('smartrecruiters', 'srco', onsite('s'));
    await rescrape(id, 'srco.com');
    expect(await activeJobs(id)).toHaveLength(5);
    ats.setBoard('smartrecruiters', 'srco', []);
    await rescrape(id, 'srco.com');
    expect(await activeJobs(id)).toHaveLength(5);
    expect((await boards(id))[0]).toMatchObject({ last_outcome: 'empty_held', consecutive_failures: 1 });
  });
});

describe('frontline boards', () => {
  it("lists a company's boards with their health, failing first", async () => {
    const lines = await boardsReport(t.deps.db, 'movco');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^movco {2}greenhouse\/movco {2}closed {2}outcome moved .*failures in a row 1 .*404/,
    );
    expect(lines[1]).toMatch(
      /^movco {2}workday\/movco\.wd5\/External {2}active {2}outcome ok {2}postings 5 /,
    );
    const all = await boardsReport(t.deps.db);
    expect(all.length).toBeGreaterThanOrEqual(5);
  });

  it('names an unknown company', async () => {
    await expect(boardsReport(t.deps.db, 'nosuchco')).rejects.toBeInstanceOf(UnknownCompanyError);
  });
});
