import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCompanyByDomain } from '../../src/catalog/company-writes.js';
import {
  CLIENT_FACING_CATEGORIES,
  ROLE_CATEGORIES,
  type RoleCategory,
} from '../../src/catalog/vocabulary.js';
import { activeBoards, markBoardScraped, upsertBoards } from '../../src/pipeline/store/boards.js';
import { type ClassifiedPosting, writeBoardPostings } from '../../src/pipeline/store/jobs.js';
import { seededRandom as rng } from '../../src/signals/history.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';

/**
 * The two signal reports (GET /signals/newly-hiring, GET /signals/time-to-close) equal their definitions, read
 * straight from the rollup and the events, on a generated history: fourteen companies whose boards are first
 * scraped on different days (what a first scrape finds is coverage, not an opening), scraped daily for 90 days
 * through the pipeline's own job writes, postings opening, closing and being reclassified, new ones in random
 * categories, one company delisted. Newly hiring by definition: per listed company, the first day with a
 * hiring_daily row in the categories, kept when that day's rows in them hold openings and no initial ones.
 */

const DAY = 86_400_000;
const START = Date.UTC(2026, 6, 1, 9);
const DAYS = 90;
/** The day Twin Co's second board is first scraped. */
const TWIN_DAY = 50;

const clock = new TestClock(START);
let t: TestApp;

interface Board {
  companyId: string;
  name: string;
  boardId: string;
  startDay: number;
  pool: { id: string; category: RoleCategory; open: boolean }[];
  /** A board the random scrapes leave alone. */
  fixed?: boolean;
}

const category = (random: () => number) =>
  ROLE_CATEGORIES[Math.floor(random() * ROLE_CATEGORIES.length)] as RoleCategory;

function posting(p: Board['pool'][number]): ClassifiedPosting {
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

async function makeBoards(random: () => number): Promise<Board[]> {
  const boards: Board[] = [];
  for (let c = 0; c < 14; c++) {
    const name = `Company ${c}`;
    const { id } = await t.deps.db.transaction((tx) =>
      upsertCompanyByDomain(tx, `company${c}.example`, { name }, clock.now()),
    );
    const token = `r${c}`;
    await t.deps.db.transaction((tx) =>
      upsertBoards(tx, id, [{ provider: 'greenhouse', token, url: `https://x/${token}` }], clock.now()),
    );
    const [b] = await activeBoards(t.deps.db, id);
    // Small pools, so many a category first appears after the first scrape (an opening) rather than in it.
    const pool = Array.from({ length: 2 + Math.floor(random() * 5) }, (_, k) => ({
      id: `${token}-${k}`,
      category: category(random),
      open: random() < 0.6,
    }));
    boards.push({ companyId: id, name, boardId: b?.id as string, startDay: (c % 7) * 9, pool });
  }
  boards.push(...(await twinBoards()));
  return boards;
}

/**
 * Twin Co: a board of engineers from day 0, and a second board first scraped on day 50 listing a TAM, the day the
 * first board opens a TAM too. Its first day in `tam` holds an initial and an opening: not newly hiring.
 */
async function twinBoards(): Promise<Board[]> {
  const { id } = await t.deps.db.transaction((tx) =>
    upsertCompanyByDomain(tx, 'twin.example', { name: 'Twin Co' }, clock.now()),
  );
  const boards = [
    { token: 'twin-a', startDay: 0 },
    { token: 'twin-b', startDay: TWIN_DAY },
  ];
  await t.deps.db.transaction((tx) =>
    upsertBoards(
      tx,
      id,
      boards.map(({ token }) => ({ provider: 'greenhouse', token, url: `https://x/${token}` })),
      clock.now(),
    ),
  );
  const ids = new Map((await activeBoards(t.deps.db, id)).map((b) => [b.token, b.id]));
  return boards.map(({ token, startDay }) => ({
    companyId: id,
    name: 'Twin Co',
    boardId: ids.get(token) as string,
    startDay,
    fixed: true,
    pool: [
      { id: `${token}-0`, category: (startDay === 0 ? 'engineering' : 'tam') as RoleCategory, open: true },
    ],
  }));
}

/** A day's random changes to a board: postings open and close, some are reclassified, new ones come. */
function drift(b: Board, day: number, random: () => number): void {
  for (const p of b.pool) {
    const r = random();
    if (r < 0.08) p.open = !p.open;
    else if (r < 0.1 && p.open) p.category = category(random);
  }
  if (random() < 0.08)
    b.pool.push({ id: `${b.boardId.slice(0, 8)}-${day}`, category: category(random), open: true });
}

async function scrapeDay(boards: Board[], day: number, random: () => number): Promise<void> {
  for (const b of boards) {
    if (day < b.startDay) continue;
    if (b.fixed) {
      if (day === TWIN_DAY && b.startDay === 0)
        b.pool.push({ id: 'twin-a-tam', category: 'tam', open: true });
    } else drift(b, day, random);
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

beforeAll(async () => {
  t = await startTestApp({ clock });
  const random = rng(20261129);
  const boards = await makeBoards(random);
  for (let day = 0; day < DAYS; day++) {
    clock.ms = START + day * DAY + Math.floor(random() * 8) * 3_600_000;
    await scrapeDay(boards, day, random);
  }
  await t.deps.db.query('UPDATE companies SET active = false WHERE id = $1', [boards[3]?.companyId]);
}, 600_000);

afterAll(async () => {
  await t?.close();
});

const json = async (url: string) => {
  const res = await t.get(url);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

/** Newly hiring by its definition: each listed company's first day in the categories, summed over them. */
async function newlyHiringByDefinition(categories: readonly string[], since: string) {
  const rows = await t.deps.db.query<{ slug: string; day: string; initial: number; opened: number }>(
    `SELECT c.slug, h.day::text AS day, h.initial, h.opened FROM hiring_daily h JOIN companies c ON c.id = h.company_id
     WHERE c.active AND h.role_category = ANY($1::text[]) ORDER BY c.slug, h.day`,
    [categories],
  );
  const firsts = new Map<string, { day: string; initial: number; opened: number }>();
  for (const r of rows) {
    const f = firsts.get(r.slug) ?? { day: r.day, initial: 0, opened: 0 };
    if (f.day !== r.day) continue;
    firsts.set(r.slug, { day: f.day, initial: f.initial + r.initial, opened: f.opened + r.opened });
  }
  return [...firsts.entries()]
    .filter(([, f]) => f.day >= since && f.initial === 0 && f.opened > 0)
    .map(([slug, f]) => ({ slug, firstOpenedOn: f.day }))
    .sort((a, b) => b.firstOpenedOn.localeCompare(a.firstOpenedOn) || a.slug.localeCompare(b.slug));
}

/** percentile_cont(0.5), rounded to a tenth as the report states it. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = (s.length - 1) / 2;
  const m = ((s[Math.floor(mid)] as number) + (s[Math.ceil(mid)] as number)) / 2;
  return Math.round(m * 10) / 10;
}

describe('signal reports', () => {
  const sets: [string, readonly string[]][] = [
    ['client_facing=true', CLIENT_FACING_CATEGORIES],
    ...(['solutions_engineer', 'fde', 'tam', 'engineering', 'sales'] as const).map(
      (c): [string, readonly string[]] => [`role_category=${c}`, [c]],
    ),
  ];

  it('newly hiring equals each listed company’s first day in the categories, when it was an opening', async () => {
    let listed = 0;
    for (const [query, categories] of sets)
      for (const days of [1, 7, 30, 60, 365]) {
        const data = await json(`/api/v1/signals/newly-hiring?${query}&days=${days}&limit=100`);
        const got = data.companies.map((c: { company: { slug: string }; firstOpenedOn: string }) => ({
          slug: c.company.slug,
          firstOpenedOn: c.firstOpenedOn,
        }));
        expect(got, `${query}&days=${days}`).toEqual(await newlyHiringByDefinition(categories, data.since));
        listed += got.length;
      }
    // The history holds both kinds: companies newly hiring, and companies whose first day was coverage.
    expect(listed).toBeGreaterThan(0);
    const all = await json('/api/v1/signals/newly-hiring?client_facing=true&days=365&limit=100');
    const listedNow = await t.deps.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM companies WHERE active',
    );
    expect(all.companies.length).toBeLessThan(listedNow[0]?.n ?? 0);
    const tams = await json('/api/v1/signals/newly-hiring?role_category=tam&days=365&limit=100');
    expect(tams.companies.map((c: { company: { slug: string } }) => c.company.slug)).not.toContain('twin-co');
  });

  it('time to close equals the median days open of the closed events in the range', async () => {
    const events = await t.deps.db.query<{
      role_category: string;
      day: string;
      open_days: number;
      slug: string;
    }>(
      `SELECT e.role_category, (e.at AT TIME ZONE 'UTC')::date::text AS day, e.open_days::float8 AS open_days, c.slug
       FROM job_events e JOIN companies c ON c.id = e.company_id
       WHERE e.kind = 'closed' AND e.open_days IS NOT NULL`,
    );
    expect(events.length).toBeGreaterThan(20);
    const from = '2026-07-20';
    const to = '2026-09-15';
    for (const [query, categories] of [['', ROLE_CATEGORIES], ...sets] as [string, readonly string[]][])
      for (const company of [undefined, 'company-1']) {
        const url = `/api/v1/signals/time-to-close?from=${from}&to=${to}${query ? `&${query}` : ''}${company ? `&company=${company}` : ''}`;
        const data = await json(url);
        const inRange = events.filter(
          (e) =>
            e.day >= from &&
            e.day <= to &&
            categories.includes(e.role_category) &&
            (!company || e.slug === company),
        );
        expect(data.overall, url).toEqual({
          medianDays: median(inRange.map((e) => e.open_days)),
          closedJobs: inRange.length,
        });
        const byCategory = [...new Set(inRange.map((e) => e.role_category))].sort().map((roleCategory) => {
          const of = inRange.filter((e) => e.role_category === roleCategory).map((e) => e.open_days);
          return { roleCategory, medianDays: median(of), closedJobs: of.length };
        });
        expect(data.byRoleCategory, url).toEqual(byCategory);
      }
  });
});
