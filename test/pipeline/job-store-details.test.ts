import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/port.js';
import { activeBoards, upsertBoards } from '../../src/pipeline/store/boards.js';
import {
  type ClassifiedPosting,
  DETAIL_REFRESH_DAYS,
  knownPostings,
  writeBoardPostings,
} from '../../src/pipeline/store/jobs.js';
import { addCompany } from '../catalog/fixtures.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

/**
 * The job store's columns a scrape writes besides the listing fields (structured pay, classification rule,
 * requisition id, company name), ids longer than the column, and the daily share of postings whose vendor details
 * are read again (knownPostings). Companion of job-store.test.ts, on a board of its own.
 */

const DAY = 86_400_000;
/** Midnight UTC, the start of a refresh day. */
const T0 = Date.UTC(2026, 10, 2);

let t: TestDatabase;
let db: Db;
let companyId: string;
let boardId: string;

const posting = (id: string, extra: Partial<ClassifiedPosting> = {}): ClassifiedPosting =>
  ({
    externalId: id,
    title: `Forward Deployed Engineer ${id}`,
    location: 'London, United Kingdom',
    remote: false,
    department: 'Field Engineering',
    postedAt: new Date(T0 - DAY),
    url: `https://boards.example/jobs/${id}`,
    descriptionText: `Ship ${id} with customers.`,
    roleCategory: 'fde',
    classificationRule: 'title:forward-deployed',
    ...extra,
  }) as ClassifiedPosting;

const write = (postings: ClassifiedPosting[], at: number, companyName = 'Beta') =>
  db.transaction((tx) =>
    writeBoardPostings(tx, { companyId, companyName, boardId, provider: 'greenhouse', postings }, at),
  );

const row = async (externalId: string) =>
  (
    await db.query<Record<string, unknown>>(
      `SELECT active, company_name, role_category, classification_rule, requisition_id, salary_min::float8 AS min,
              salary_max::float8 AS max, salary_currency AS currency, salary_period AS period,
              salary_source AS source, url
         FROM jobs WHERE board_id = $1 AND external_id = $2`,
      [boardId, externalId],
    )
  )[0];

beforeAll(async () => {
  t = await freshDatabase();
  db = t.db;
  await migrate(db);
  companyId = (await addCompany(db, { name: 'Beta', domain: 'beta-store.ai' }, T0)).id;
  await db.transaction((tx) =>
    upsertBoards(
      tx,
      companyId,
      [{ provider: 'greenhouse', token: 'beta', url: 'https://boards.greenhouse.io/beta' }],
      T0,
    ),
  );
  boardId = (await activeBoards(db, companyId))[0]?.id as string;
  expect(boardId).toBeTruthy();
});
afterAll(async () => t?.drop());

describe('job store columns', () => {
  it('stores structured pay, the rule, the requisition id and the company name; a pay change is a change', async () => {
    const paid = posting('p', {
      requisitionId: 'R-1042',
      salary: { currency: 'GBP', min: 80000, max: 95000, interval: 'year', text: null },
    });
    expect(await write([paid], T0)).toMatchObject({ inserted: 1 });
    expect(await row('p')).toEqual({
      active: true,
      company_name: 'Beta',
      role_category: 'fde',
      classification_rule: 'title:forward-deployed',
      requisition_id: 'R-1042',
      min: 80000,
      max: 95000,
      currency: 'GBP',
      period: 'year',
      source: 'structured',
      url: 'https://boards.example/jobs/p',
    });
    const raised = {
      ...paid,
      salary: { currency: 'GBP', min: 85000, max: 95000, interval: 'year', text: null },
    };
    expect(await write([raised as ClassifiedPosting], T0 + 1, 'Beta Labs')).toMatchObject({ updated: 1 });
    expect(await row('p')).toMatchObject({ min: 85000, company_name: 'Beta Labs' });
  });

  it('keeps a posting whose id is longer than the column active when the board lists it again', async () => {
    const long = `x${'9'.repeat(250)}`;
    await write([posting('p'), posting(long, { requisitionId: 'r'.repeat(250) })], T0 + 2);
    const again = await write([posting('p'), posting(long, { requisitionId: 'r'.repeat(250) })], T0 + 3);
    expect(again.deactivated).toBe(0);
    const stored = await db.query<{ external_id: string; requisition_id: string; active: boolean }>(
      `SELECT external_id, requisition_id, active FROM jobs WHERE board_id = $1 AND external_id LIKE 'x%'`,
      [boardId],
    );
    expect(stored).toEqual([
      { external_id: long.slice(0, 200), requisition_id: 'r'.repeat(200), active: true },
    ]);
  });
});

describe('known postings', () => {
  const ids = Array.from({ length: 40 }, (_, i) => `k${i}`);

  beforeAll(async () => {
    await write(
      [
        ...ids.map((id) => posting(id, id === 'k0' ? { location: null } : {})),
        posting('blank', { descriptionText: '' }),
      ],
      T0 + 4,
    );
  });

  const leftOut = async (at: number) => {
    const known = await knownPostings(db, boardId, at);
    return ids.filter((id) => !known.has(id));
  };

  it('leaves each posting out on exactly one day of every refresh cycle, the same share all day long', async () => {
    const shares: string[][] = [];
    for (let d = 0; d < DETAIL_REFRESH_DAYS; d++) {
      const share = await leftOut(T0 + d * DAY);
      // The whole UTC day, from midnight to its last millisecond, leaves the same share out.
      expect(await leftOut(T0 + d * DAY + DAY / 2)).toEqual(share);
      expect(await leftOut(T0 + (d + 1) * DAY - 1)).toEqual(share);
      shares.push(share);
    }
    expect(shares.flat().sort()).toEqual([...ids].sort());
    // Spread over the days (40 postings, 7 days): no day leaves out most of the board.
    for (const share of shares) expect(share.length).toBeLessThan(ids.length / 2);
    // The cycle repeats.
    expect(await leftOut(T0 + DETAIL_REFRESH_DAYS * DAY)).toEqual(shares[0]);
  });

  it('answers the stored title, URL, description and location, and never a posting without a description', async () => {
    for (let d = 0; d < DETAIL_REFRESH_DAYS; d++) {
      const known = await knownPostings(db, boardId, T0 + d * DAY);
      expect(known.has('blank')).toBe(false);
      for (const [id, k] of known) {
        expect(k).toEqual({
          title: `Forward Deployed Engineer ${id}`,
          url: `https://boards.example/jobs/${id}`,
          descriptionText: `Ship ${id} with customers.`,
          location: id === 'k0' ? null : 'London, United Kingdom',
        });
      }
    }
  });
});
