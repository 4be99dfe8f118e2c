import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCompanyByDomain } from '../../src/catalog/company-writes.js';
import { migrate } from '../../src/db/migrate.js';
import { PgliteDb } from '../../src/db/pglite.js';
import type { Db } from '../../src/db/port.js';
import { activeBoards, markBoardScraped, upsertBoards } from '../../src/pipeline/store/boards.js';
import { type ClassifiedPosting, writeBoardPostings } from '../../src/pipeline/store/jobs.js';
import { freshDatabase, freshDataDir, serverUrl, type TestDatabase } from '../support/db.js';
import { runCli } from '../support/fleet.js';

/**
 * `frontline reclassify` as an operator runs it: a real process on a catalog an older classifier wrote, on
 * whichever database this pass uses. It re-derives each stored job's category from the stored title and
 * department, records a `reclassified` event per open job whose category moved, and prints the moves per category.
 */
const T0 = Date.UTC(2026, 10, 2, 9);

function posting(id: string, title: string, department: string | null, stored: string, rule: string) {
  return {
    externalId: id,
    title,
    location: 'Remote',
    remote: true,
    department,
    postedAt: null,
    url: `https://jobs.example.com/${id}`,
    descriptionText: 'A posting.',
    roleCategory: stored as ClassifiedPosting['roleCategory'],
    classificationRule: rule,
  } satisfies ClassifiedPosting;
}

/** As an older classifier stored them: three wrong categories, one right category under an old rule, one right. */
const POSTINGS = [
  posting('partner', 'Partner Success Manager', null, 'other', 'default:other'),
  posting('deployed', 'AI/ML Engineer, Deployed', null, 'engineering', 'title:engineering'),
  posting('retention', 'Retention Manager', 'Customer Success', 'other', 'default:other'),
  posting('se', 'Solutions Engineer', null, 'solutions_engineer', 'title:old-solutions'),
  posting('ae', 'Account Executive', null, 'sales', 'title:sales'),
];

async function seed(db: Db): Promise<void> {
  const { id: companyId } = await db.transaction((tx) =>
    upsertCompanyByDomain(tx, 'acme.example', { name: 'Acme' }, T0),
  );
  await db.transaction((tx) =>
    upsertBoards(tx, companyId, [{ provider: 'greenhouse', token: 'acme', url: 'https://x/acme' }], T0),
  );
  const boardId = (await activeBoards(db, companyId))[0]?.id as string;
  await db.transaction(async (tx) => {
    await writeBoardPostings(
      tx,
      { companyId, companyName: 'Acme', boardId, provider: 'greenhouse', postings: POSTINGS },
      T0,
    );
    await markBoardScraped(tx, boardId, POSTINGS.length, T0);
  });
}

describe('frontline reclassify (the command)', () => {
  let dataDir: string;
  let database: TestDatabase | undefined;
  let env: Record<string, string>;

  /** The catalog as the command left it, read in this process (the embedded database is closed again after). */
  async function read<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    if (database) return fn(database.db);
    const db = await PgliteDb.open(dataDir);
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  beforeAll(async () => {
    if (serverUrl()) {
      database = await freshDatabase();
      await migrate(database.db);
      dataDir = mkdtempSync(join(tmpdir(), 'frontline-reclassify-'));
    } else {
      dataDir = await freshDataDir();
    }
    env = { DATA_DIR: dataDir, ...(database?.url ? { DATABASE_URL: database.url } : {}) };
    await read(seed);
  });

  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('rewrites what the current classifier decides differently and prints the moves per category', async () => {
    const out = (await runCli(['reclassify'], env)).trim().split('\n');
    expect(out[0]).toBe('reclassified 5 jobs: 3 changed category, 1 kept it under another rule');
    expect(out.slice(1).map((l) => l.trim().split(/\s+/))).toEqual([
      ['fde', '+1', '-0'],
      ['csm', '+2', '-0'],
      ['engineering', '+0', '-1'],
      ['other', '+0', '-2'],
    ]);
    const jobs = await read((db) =>
      db.query<{ external_id: string; role_category: string; classification_rule: string }>(
        'SELECT external_id, role_category, classification_rule FROM jobs ORDER BY external_id',
      ),
    );
    expect(Object.fromEntries(jobs.map((j) => [j.external_id, j.role_category]))).toEqual({
      ae: 'sales',
      deployed: 'fde',
      partner: 'csm',
      retention: 'csm',
      se: 'solutions_engineer',
    });
    expect(jobs.find((j) => j.external_id === 'se')?.classification_rule).toBe('title:solutions-keyword');
  });

  it('records one reclassified event per job whose category moved, naming where it came from', async () => {
    const events = await read((db) =>
      db.query<{ role_category: string; from_category: string | null }>(
        "SELECT role_category, from_category FROM job_events WHERE kind = 'reclassified' ORDER BY role_category",
      ),
    );
    expect(events).toEqual([
      { role_category: 'csm', from_category: 'other' },
      { role_category: 'csm', from_category: 'other' },
      { role_category: 'fde', from_category: 'engineering' },
    ]);
  });

  it('changes nothing on a second run, and says so as JSON when asked', async () => {
    const out = JSON.parse(await runCli(['reclassify', '--json'], env)) as Record<string, unknown>;
    expect(out).toEqual({ jobs: 5, recategorized: 0, ruleOnly: 0, moves: [] });
  });
});
