import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCompanyByDomain } from '../../src/catalog/company-writes.js';
import { setCompanyTags, type TagInput } from '../../src/catalog/tags.js';
import {
  CLIENT_FACING_CATEGORIES,
  ROLE_CATEGORIES,
  type RoleCategory,
} from '../../src/catalog/vocabulary.js';
import { rebuildSignals } from '../../src/cli/signals.js';
import { activeBoards, markBoardScraped, upsertBoards } from '../../src/pipeline/store/boards.js';
import {
  type ClassifiedPosting,
  deactivateBoardJobs,
  writeBoardPostings,
} from '../../src/pipeline/store/jobs.js';
import { seededRandom as rng } from '../../src/signals/history.js';
import { dailyFrom, type Interval, periodStart } from '../../src/signals/periods.js';
import { activeBefore, type DayRow, daysInRange, type Scope } from '../../src/signals/store.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

/**
 * The rollups kept by the trigger as the pipeline writes equal the rollups a rebuild computes from the events, on
 * a generated history: eight companies with one or two boards each, scraped every other day for 120 days through
 * the pipeline's own job writes, with postings opening, closing, coming back and being reclassified, a board that
 * vanishes, a company deleted, and companies whose boards are added late (coverage, not openings). Companies carry
 * tags (one stage, one to three industries, so some share two industries or three) that change along the way:
 * re-tagged, delisted and listed again, tags deleted.
 */

const DAY = 86_400_000;
const START = Date.UTC(2026, 4, 1, 9);
const DAYS = 120;
/**
 * Days between scrapes. Each scrape's chances of a change are twice a daily scrape's, so the history holds as many
 * events of each kind as daily scrapes would give (about 780 closes, 610 reopens, 245 reclassifications), over the
 * same weeks and months, for half the writes.
 */
const SCRAPE_EVERY = 2;

const clock = new TestClock(START);
let t: TestApp;

interface BoardState {
  companyId: string;
  name: string;
  boardId: string;
  /** Day index on which the board is first scraped. */
  startDay: number;
  pool: { id: string; category: RoleCategory; open: boolean }[];
}

function posting(p: BoardState['pool'][number]): ClassifiedPosting {
  return {
    externalId: p.id,
    title: `Role ${p.id}`,
    location: 'Remote',
    remote: true,
    department: null,
    postedAt: null,
    url: `https://jobs.example.com/${p.id}`,
    descriptionText: 'A generated posting.',
    roleCategory: p.category,
    classificationRule: 'test',
  };
}

const STAGES = ['seed', 'growth', 'public'];
const INDUSTRIES = ['legal', 'insurance', 'healthcare'];
/** Drawn as well, and deleted late: its pairs with the industries above go with it. */
const RETIRED = 'retail';
/** The sums of a day's (or period's) row as the reads answer it. */
const COUNTS = ['opened', 'reopened', 'closed', 'net', 'openedAll', 'openedClientFacing', 'events'] as const;
/** Every rollup, daily and its week and month twins, each read in key order. */
const ROLLUPS = ['hiring_daily', 'hiring_weekly', 'hiring_monthly'].flatMap((grain) => [
  `SELECT * FROM ${grain} ORDER BY company_id, day, role_category`,
  `SELECT * FROM ${grain}_all ORDER BY day, role_category`,
  `SELECT * FROM ${grain}_tag ORDER BY tag_id, day, role_category`,
  `SELECT * FROM ${grain}_tag_pair ORDER BY tag_id, other_tag_id, day, role_category`,
]);

let draws = 0;

/** One stage and one, two or three industries (three: the three above), so some share two industries or three. */
function drawTags(random: () => number): TagInput[] {
  const pick = (list: string[]) => list[Math.floor(random() * list.length)] as string;
  const count = 1 + (draws++ % 3);
  const pool = [...INDUSTRIES, RETIRED];
  const first = count === 3 ? 0 : Math.floor(random() * pool.length);
  const industries = Array.from({ length: count }, (_, i) => pool[(first + i) % pool.length] as string);
  return [
    { dimension: 'stage', value: pick(STAGES) },
    ...industries.map((value): TagInput => ({ dimension: 'industry', value })),
  ];
}

const tagCompany = (companyId: string, random: () => number) =>
  t.deps.db.transaction((tx) => setCompanyTags(tx, companyId, drawTags(random), clock.now()));

async function makeBoards(random: () => number): Promise<BoardState[]> {
  const boards: BoardState[] = [];
  for (let c = 0; c < 8; c++) {
    const name = `Company ${c}`;
    const { id } = await t.deps.db.transaction((tx) =>
      upsertCompanyByDomain(tx, `company${c}.example`, { name }, clock.now()),
    );
    await tagCompany(id, random);
    const tokens = c % 3 === 0 ? [`c${c}a`, `c${c}b`] : [`c${c}a`];
    await t.deps.db.transaction((tx) =>
      upsertBoards(
        tx,
        id,
        tokens.map((token) => ({ provider: 'greenhouse', token, url: `https://x/${token}` })),
        clock.now(),
      ),
    );
    for (const [i, b] of (await activeBoards(t.deps.db, id)).entries()) {
      const pool = Array.from({ length: 12 + Math.floor(random() * 20) }, (_, k) => ({
        id: `${b.token}-${k}`,
        category: ROLE_CATEGORIES[Math.floor(random() * ROLE_CATEGORIES.length)] as RoleCategory,
        open: random() < 0.5,
      }));
      boards.push({ companyId: id, name, boardId: b.id, startDay: i * 30 + (c % 4) * 10, pool });
    }
  }
  return boards;
}

/** One day of scrapes: postings open and close, some come back, some are reclassified. */
async function scrapeDay(boards: BoardState[], day: number, random: () => number): Promise<void> {
  for (const b of boards) {
    if (day < b.startDay) continue;
    for (const p of b.pool) {
      const r = random();
      if (r < 0.12) p.open = !p.open;
      else if (r < 0.16 && p.open)
        p.category = ROLE_CATEGORIES[Math.floor(random() * ROLE_CATEGORIES.length)] as RoleCategory;
    }
    if (random() < 0.2)
      b.pool.push({ id: `${b.boardId.slice(0, 8)}-new-${day}`, category: 'fde', open: true });
    await t.deps.db.transaction(async (tx) => {
      await writeBoardPostings(
        tx,
        {
          companyId: b.companyId,
          companyName: b.name,
          boardId: b.boardId,
          provider: 'greenhouse',
          postings: b.pool.filter((p) => p.open).map(posting),
        },
        clock.now(),
      );
      await markBoardScraped(tx, b.boardId, b.pool.length, clock.now());
    });
  }
}

type Row = Record<string, unknown>;
const table = (sql: string) => t.deps.db.query<Row>(sql);

beforeAll(async () => {
  t = await startTestApp({ clock });
  const random = rng(20261101);
  const boards = await makeBoards(random);
  for (let day = 0; day < DAYS; day += SCRAPE_EVERY) {
    clock.ms = START + day * DAY + Math.floor(random() * 8) * 3_600_000;
    await scrapeDay(boards, day, random);
    if (day === 70) {
      const gone = boards.find((b) => b.startDay === 0) as BoardState;
      await t.deps.db.transaction((tx) => deactivateBoardJobs(tx, gone.boardId, clock.now()));
      boards.splice(boards.indexOf(gone), 1);
    }
    // Re-enrichment changes tags; a company is delisted and listed again; a tag goes.
    if (day === 40 || day === 100)
      for (const id of new Set(boards.map((b) => b.companyId)))
        if (random() < 0.5) await tagCompany(id, random);
    const listed = (active: boolean) =>
      t.deps.db.query('UPDATE companies SET active = $2 WHERE id = $1', [boards[0]?.companyId, active]);
    if (day === 60) await listed(false);
    if (day === 80) await listed(true);
    if (day === 110)
      await t.deps.db.query(
        `DELETE FROM tags WHERE (dimension, slug) IN (('stage', 'public'), ('industry', '${RETIRED}'))`,
      );
    if (day === 90) {
      const victim = boards.at(-1) as BoardState;
      await t.deps.db.query('DELETE FROM companies WHERE id = $1', [victim.companyId]);
      for (let i = boards.length - 1; i >= 0; i--)
        if (boards[i]?.companyId === victim.companyId) boards.splice(i, 1);
    }
  }
}, 600_000);

afterAll(async () => {
  await t?.close();
});

describe('hiring rollups', () => {
  it('kept incrementally equal a rebuild from the events', async () => {
    const kinds = await table('SELECT kind, count(*)::int AS n FROM job_events GROUP BY kind ORDER BY kind');
    // The history exercises every kind of event.
    expect(kinds.map((k) => k.kind)).toEqual(['closed', 'initial', 'opened', 'reclassified', 'reopened']);
    const rollups = await Promise.all(ROLLUPS.map(table));
    const [daily, , byTag, byPair, weekly, , , weeklyPairs, monthly, , , monthlyPairs] = rollups as Row[][];
    expect(daily?.length).toBeGreaterThan(500);
    expect(byTag?.length).toBeGreaterThan(500);
    expect(byPair?.length).toBeGreaterThan(100);
    // A week or month row sums days: fewer rows, none empty.
    expect(weekly?.length).toBeGreaterThan(100);
    expect(weekly?.length).toBeLessThan(daily?.length ?? 0);
    expect(monthly?.length).toBeLessThan(weekly?.length ?? 0);
    expect(monthlyPairs?.length).toBeGreaterThan(10);
    expect(weeklyPairs?.every((r) => r.events !== 0)).toBe(true);
    const trendUrls = [
      '/api/v1/trends?interval=week&from=2026-05-01&to=2026-08-28&share=client_facing&by=role_category',
      '/api/v1/trends?interval=day&from=2026-05-01&to=2026-08-28&industry=legal,insurance&client_facing=true&share=client_facing',
      '/api/v1/trends?interval=month&from=2026-05-01&to=2026-08-28&stage=seed&role_category=fde',
    ];
    const trends = await Promise.all(trendUrls.map(async (url) => (await t.get(url)).json()));
    const company = (await table('SELECT slug FROM companies ORDER BY slug LIMIT 1'))[0]?.slug as string;
    const seriesUrls = ['day', 'week', 'month'].flatMap((interval) =>
      ['2026-08-28', '2026-08-09', '2026-07-31'].map(
        (to) =>
          `/api/v1/companies/${company}/hiring?interval=${interval}&from=2026-05-01&to=${to}&by=role_category`,
      ),
    );
    const series = await Promise.all(seriesUrls.map(async (url) => (await t.get(url)).json()));

    const result = await rebuildSignals(t.deps.db);
    expect(result).toEqual({ rows: daily?.length, changed: false });
    expect(await Promise.all(ROLLUPS.map(table))).toEqual(rollups);
    expect(await Promise.all(trendUrls.map(async (url) => (await t.get(url)).json()))).toEqual(trends);
    expect(await Promise.all(seriesUrls.map(async (url) => (await t.get(url)).json()))).toEqual(series);
  });

  it('read at their grain equal the days they sum', async () => {
    const company = (
      await table('SELECT company_id FROM hiring_daily GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1')
    )[0]?.company_id as string;
    const scopes: Scope[] = [
      { kind: 'all' },
      { kind: 'company', companyId: company },
      { kind: 'tagged', dimension: 'industry', slugs: INDUSTRIES },
      { kind: 'filtered', filters: { tags: { stage: STAGES, industry: INDUSTRIES } } },
    ];
    /** Days summed per period before the daily tail, as a read at the interval's grain answers them. */
    const byPeriod = (days: DayRow[], interval: Interval, toDay: string) => {
      const cut = dailyFrom({ interval, toMs: Date.parse(toDay) });
      const out = new Map<string, DayRow>();
      for (const d of days) {
        const ms = Date.parse(d.day);
        const day = ms < cut ? new Date(periodStart(ms, interval)).toISOString().slice(0, 10) : d.day;
        const p = out.get(day) ?? ({ day, ...Object.fromEntries(COUNTS.map((k) => [k, 0])) } as DayRow);
        for (const k of COUNTS) p[k] += d[k];
        out.set(day, p);
      }
      return [...out.values()];
    };
    // To a period's end, and into a period (its days read from the daily rollup).
    for (const scope of scopes)
      for (const cats of [[...ROLE_CATEGORIES], [...CLIENT_FACING_CATEGORIES], ['fde', 'csm']])
        for (const [interval, fromDay] of [
          ['week', '2026-06-01'],
          ['month', '2026-06-01'],
        ] as const)
          for (const toDay of ['2026-07-31', '2026-08-09', '2026-08-26']) {
            const days = await daysInRange(t.deps.db, scope, cats, fromDay, toDay);
            const read = await daysInRange(t.deps.db, scope, cats, fromDay, toDay, interval);
            expect(read.length).toBeLessThan(days.length);
            expect(read).toEqual(byPeriod(days, interval, toDay));
            expect(await activeBefore(t.deps.db, scope, cats, fromDay, interval)).toEqual(
              await activeBefore(t.deps.db, scope, cats, fromDay),
            );
          }
  });

  it('end with the active jobs the catalog holds, per company and category', async () => {
    const fromRollups = await table(
      `SELECT company_id, role_category, sum(net)::int AS n FROM hiring_daily GROUP BY 1, 2 HAVING sum(net) <> 0 ORDER BY 1, 2`,
    );
    const fromJobs = await table(
      `SELECT company_id, role_category, count(*)::int AS n FROM jobs WHERE active GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(fromRollups).toEqual(fromJobs);
    const catalog = await table(
      `SELECT role_category, sum(net)::int AS n FROM hiring_daily_all WHERE role_category NOT LIKE '(%'
       GROUP BY 1 HAVING sum(net) <> 0 ORDER BY 1`,
    );
    expect(catalog).toEqual(
      await table('SELECT role_category, count(*)::int AS n FROM jobs WHERE active GROUP BY 1 ORDER BY 1'),
    );
    const groups = await table(
      `SELECT role_category, sum(net)::int AS n FROM hiring_daily_all WHERE role_category LIKE '(%'
       GROUP BY 1 ORDER BY 1`,
    );
    expect(groups).toEqual(
      await t.deps.db.query(
        `SELECT '(all)' AS role_category, count(*)::int AS n FROM jobs WHERE active
         UNION ALL SELECT '(client_facing)', count(*)::int FROM jobs WHERE active AND role_category = ANY($1::text[])`,
        [CLIENT_FACING_CATEGORIES],
      ),
    );
  });

  it('per tag equal the sum over the listed companies carrying the tags, whatever the tags did', async () => {
    const categories = [[...ROLE_CATEGORIES], [...CLIENT_FACING_CATEGORIES], ['fde'], ['fde', 'csm']];
    const filters = [
      { stage: ['seed'] },
      { industry: ['legal', 'insurance'] },
      { industry: INDUSTRIES },
      { industry: [...INDUSTRIES, RETIRED] },
    ];
    const shared = await table(
      `SELECT count(*) FILTER (WHERE n > 1)::int AS two, count(*) FILTER (WHERE n > 2)::int AS three
       FROM (SELECT ct.company_id, count(*) AS n FROM company_tags ct JOIN tags t ON t.id = ct.tag_id
             JOIN companies c ON c.id = ct.company_id AND c.active
             WHERE t.dimension = 'industry' GROUP BY 1) x`,
    );
    // Some listed companies carry two of the industries, some three: the per-tag sums overcount them, and the
    // pairs' sums overcorrect the three, unless corrected.
    expect(shared[0]?.two).toBeGreaterThan(0);
    expect(shared[0]?.three).toBeGreaterThan(0);
    for (const tags of filters) {
      const [dimension, slugs] = Object.entries(tags)[0] as ['stage' | 'industry', string[]];
      const tagged: Scope = { kind: 'tagged', dimension, slugs };
      const direct: Scope = { kind: 'filtered', filters: { tags } };
      for (const cats of categories) {
        const read = (scope: Scope) =>
          Promise.all([
            activeBefore(t.deps.db, scope, cats, '2026-07-01'),
            daysInRange(t.deps.db, scope, cats, '2026-07-01', '2026-08-28'),
          ]);
        const [before, days] = await read(tagged);
        expect(days.length).toBeGreaterThan(10);
        expect([before, days]).toEqual(await read(direct));
      }
    }
  });

  it('lose the pairs of a deleted tag with it', async () => {
    const pairsOf = (slug: string) =>
      table(
        `SELECT count(*)::int AS n FROM hiring_daily_tag_pair p JOIN tags t ON t.id IN (p.tag_id, p.other_tag_id)
         WHERE t.dimension = 'industry' AND t.slug = '${slug}'`,
      );
    expect((await pairsOf('healthcare'))[0]?.n).toBeGreaterThan(0);
    const id = (await table(`SELECT id FROM tags WHERE dimension = 'industry' AND slug = 'healthcare'`))[0]
      ?.id;
    await t.deps.db.query('DELETE FROM tags WHERE id = $1', [id]);
    expect(
      await table(
        `SELECT count(*)::int AS n FROM hiring_daily_tag_pair WHERE ${id} IN (tag_id, other_tag_id)`,
      ),
    ).toEqual([{ n: 0 }]);
    expect((await rebuildSignals(t.deps.db)).changed).toBe(false);
  });

  it('a rebuild notices rollups that drifted from the events, and repairs them', async () => {
    await t.deps.db.query(
      'UPDATE hiring_daily SET opened = opened + 1 WHERE ctid = (SELECT ctid FROM hiring_daily LIMIT 1)',
    );
    expect((await rebuildSignals(t.deps.db)).changed).toBe(true);
    expect((await rebuildSignals(t.deps.db)).changed).toBe(false);
  });

  it('are emptied with the events by a TRUNCATE, which fires no row trigger', async () => {
    await t.deps.db.query('TRUNCATE jobs CASCADE');
    for (const sql of ROLLUPS) expect(await table(sql)).toEqual([]);
  });
});
