import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/port.js';
import { activeBoards, upsertBoards } from '../../src/pipeline/store/boards.js';
import {
  type ClassifiedPosting,
  deactivateBoardJobs,
  knownPostings,
  writeBoardPostings,
} from '../../src/pipeline/store/jobs.js';
import { addCompany } from '../catalog/fixtures.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

/**
 * The job store's writes on a real database: a scrape upserts on (company, source, external id), counts what it
 * inserted, changed and deactivated, re-activates a posting that comes back (same row, first-seen kept), and never
 * deletes. The pipeline tests drive the same functions end to end; these pin the counts and columns.
 */

const T0 = Date.UTC(2026, 10, 1, 12);
const HOUR = 3_600_000;

let t: TestDatabase;
let db: Db;
let company: { id: string };
let boardId: string;

const posting = (id: string, extra: Partial<ClassifiedPosting> = {}): ClassifiedPosting =>
  ({
    externalId: id,
    title: `Solutions Engineer ${id}`,
    location: 'Berlin, Germany',
    remote: false,
    department: 'Customer Engineering',
    postedAt: new Date(T0 - 24 * HOUR),
    url: `https://boards.example/jobs/${id}`,
    descriptionText: `Help customers adopt ${id}.`,
    roleCategory: 'solutions_engineer',
    classificationRule: 'title:solutions-engineer',
    ...extra,
  }) as ClassifiedPosting;

const write = (postings: ClassifiedPosting[], at: number) =>
  db.transaction((tx) =>
    writeBoardPostings(
      tx,
      { companyId: company.id, companyName: 'Acme', boardId, provider: 'greenhouse', postings },
      at,
    ),
  );

interface Row {
  id: string;
  external_id: string;
  active: boolean;
  title: string;
  salary: string | null;
  first_seen_at: Date;
  last_seen_at: Date;
  updated_at: Date;
  posted_at: Date;
}
const rows = async () =>
  db.query<Row>(
    `SELECT id, external_id, active, title, salary, first_seen_at, last_seen_at, updated_at, posted_at
       FROM jobs WHERE board_id = $1 ORDER BY external_id`,
    [boardId],
  );

beforeAll(async () => {
  t = await freshDatabase();
  db = t.db;
  // Already migrated (test/support/db.ts); a second run of the migrations finds nothing to do.
  await migrate(db);
  company = await addCompany(db, { name: 'Acme', domain: 'acme-store.ai' }, T0);
  await db.transaction((tx) =>
    upsertBoards(
      tx,
      company.id,
      [{ provider: 'greenhouse', token: 'acme', url: 'https://boards.greenhouse.io/acme' }],
      T0,
    ),
  );
  const [board] = await activeBoards(db, company.id);
  boardId = board?.id as string;
  expect(boardId).toBeTruthy();
});
afterAll(async () => t?.drop());

describe('job store', () => {
  it('inserts new postings, counting them, with first and last seen at the scrape time', async () => {
    const counts = await write([posting('a'), posting('b'), posting('a', { title: 'Last one wins' })], T0);
    expect(counts).toMatchObject({ inserted: 2, updated: 0, deactivated: 0 });
    expect(counts.changedIds).toHaveLength(2);
    const stored = await rows();
    expect(stored.map((r) => [r.external_id, r.active, r.title])).toEqual([
      ['a', true, 'Last one wins'],
      ['b', true, 'Solutions Engineer b'],
    ]);
    expect(counts.changedIds.sort()).toEqual(stored.map((r) => r.id).sort());
    for (const r of stored) {
      expect(r.first_seen_at).toEqual(new Date(T0));
      expect(r.last_seen_at).toEqual(new Date(T0));
      expect(r.posted_at).toEqual(new Date(T0 - 24 * HOUR));
    }
  });

  it('rewrites an unchanged listing without counting it as changed; counts a changed posting once', async () => {
    const before = await rows();
    const same = await write([posting('a', { title: 'Last one wins' }), posting('b')], T0 + HOUR);
    expect(same).toEqual({ inserted: 0, updated: 0, deactivated: 0, changedIds: [] });
    const after = await rows();
    expect(after.map((r) => r.updated_at)).toEqual(before.map((r) => r.updated_at));
    expect(after.map((r) => r.last_seen_at)).toEqual([new Date(T0 + HOUR), new Date(T0 + HOUR)]);

    const changed = await write([posting('a', { title: 'Renamed' }), posting('b')], T0 + 2 * HOUR);
    expect(changed).toMatchObject({ inserted: 0, updated: 1, deactivated: 0 });
    expect(changed.changedIds).toEqual([before[0]?.id]);
  });

  it('deactivates postings missing from the listing, keeps the rows, and re-activates one that comes back', async () => {
    const before = await rows();
    const gone = await write([posting('a', { title: 'Renamed' })], T0 + 3 * HOUR);
    expect(gone).toMatchObject({ inserted: 0, updated: 0, deactivated: 1 });
    expect((await rows()).map((r) => [r.external_id, r.active])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    const back = await write([posting('a', { title: 'Renamed' }), posting('b')], T0 + 4 * HOUR);
    // Coming back is a change (inactive -> active) of the same row; its first-seen time is kept.
    expect(back).toMatchObject({ inserted: 0, updated: 1, deactivated: 0 });
    const after = await rows();
    expect(after.map((r) => [r.id, r.active])).toEqual(before.map((r) => [r.id, true]));
    expect(back.changedIds).toEqual([before[1]?.id]);
    expect(after[1]?.first_seen_at).toEqual(new Date(T0));
    expect(after[1]?.updated_at).toEqual(new Date(T0 + 4 * HOUR));
  });

  it('writes salary text from the vendor summary or from its parts, and a missing posted date as the scrape time', async () => {
    const at = T0 + 5 * HOUR;
    await write(
      [
        posting('a', {
          title: 'Renamed',
          salary: { currency: 'EUR', min: 90000, max: 120000, interval: 'year', text: null },
        }),
        posting('b', { salary: { currency: 'USD', min: 1, max: 2, interval: null, text: '$81K - $87K' } }),
        posting('c', {
          postedAt: null,
          salary: { currency: null, min: null, max: null, interval: null, text: null },
        }),
      ],
      at,
    );
    const stored = await rows();
    expect(stored.map((r) => [r.external_id, r.salary])).toEqual([
      ['a', 'EUR 90000 - 120000 per year'],
      ['b', '$81K - $87K'],
      ['c', null],
    ]);
    expect(stored[2]?.posted_at).toEqual(new Date(at));
  });

  it('stores each column as given: trimmed and bounded text, remote flag, department, dates and salary parts', async () => {
    const at = T0 + 5 * HOUR + 1;
    const long = 'x'.repeat(600);
    await write(
      [
        posting('a', { title: 'Renamed' }),
        posting('b'),
        posting('c'),
        posting('d', {
          title: `  ${long}  `,
          location: null,
          remote: true,
          department: 'd'.repeat(250),
          postedAt: new Date(Number.NaN),
          salary: { currency: 'USD', min: 90000, max: null, interval: 'year', text: null },
        }),
        posting('e', {
          title: '   ',
          remote: null,
          department: null,
          salary: { currency: null, min: null, max: 150000, interval: null, text: null },
        }),
      ],
      at,
    );
    const stored = await db.query<Record<string, unknown>>(
      `SELECT external_id, title, location, remote, department, salary, posted_at FROM jobs
        WHERE board_id = $1 AND external_id IN ('d', 'e') ORDER BY external_id`,
      [boardId],
    );
    expect(stored).toEqual([
      {
        external_id: 'd',
        title: 'x'.repeat(500),
        location: '',
        remote: true,
        department: 'd'.repeat(200),
        salary: 'USD 90000 per year',
        posted_at: new Date(at),
      },
      {
        external_id: 'e',
        title: 'Untitled position',
        location: 'Berlin, Germany',
        remote: false,
        department: null,
        salary: '150000',
        posted_at: new Date(T0 - 24 * HOUR),
      },
    ]);
    await write([posting('a', { title: 'Renamed' }), posting('b'), posting('c')], at + 1);
  });

  it('deactivates every job of a vanished board, counting them, and knows only active postings', async () => {
    const known = await knownPostings(db, boardId, T0);
    expect(known.size).toBeGreaterThan(0);
    for (const [id, k] of known) expect(k.descriptionText).toBe(`Help customers adopt ${id}.`);
    expect(await db.transaction((tx) => deactivateBoardJobs(tx, boardId, T0 + 6 * HOUR))).toBe(3);
    expect((await rows()).map((r) => r.active)).toEqual([false, false, false, false, false]);
    expect(await db.transaction((tx) => deactivateBoardJobs(tx, boardId, T0 + 7 * HOUR))).toBe(0);
    expect((await knownPostings(db, boardId, T0)).size).toBe(0);
  });
});
