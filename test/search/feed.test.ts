import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CatalogReplica, type CatalogReplicaOptions } from '../../src/catalog/replica/catalog-replica.js';
import type { Db } from '../../src/db/port.js';
import { startTestApp, type TestApp, TestClock } from '../support/app.js';
import { serverUrl } from '../support/db.js';
import { SEARCH_TEST_DATA_DIR } from './support.js';

/**
 * The change feed on PostgreSQL, where a sequence value can commit after a larger one: a write that drew its
 * value before a full load but commits after it must still reach the index, and the searches right after a load
 * must not re-read the whole catalog to guarantee that.
 */
let t: TestApp;
let jobIds: string[];

beforeAll(async () => {
  t = await startTestApp({ env: { DATA_DIR: SEARCH_TEST_DATA_DIR, SAMPLE_DATA: '1' } });
  await t.deps.searchParts.idle();
  jobIds = (await t.deps.db.query<{ id: string }>('SELECT id FROM jobs WHERE active ORDER BY id')).map(
    (r) => r.id,
  );
});
afterAll(async () => {
  await t?.close();
});

/** The database, counting the rows each query returns and noting the ids of each read of rows by id. */
function counting(db: Db): { db: Db; rows: number[]; byId: string[][] } {
  const rows: number[] = [];
  const byId: string[][] = [];
  const wrapped = Object.create(db) as Db;
  wrapped.query = async (sql, params) => {
    const result = await db.query(sql, params);
    rows.push(result.length);
    if (sql.includes('= ANY($2::uuid[])')) byId.push([...(params?.[1] as string[])]);
    return result as never;
  };
  return { db: wrapped, rows, byId };
}

it.skipIf(!serverUrl())(
  'picks up a write that commits after a load, without re-reading everything per search',
  async () => {
    const clock = new TestClock();
    const { db, rows, byId } = counting(t.deps.db);
    const index = new CatalogReplica(db, {
      model: t.deps.searchParts.embedder.id,
      now: clock.now,
      lagMs: 10_000,
    });
    const late = jobIds[0]!;
    const early = jobIds[1]!;
    const closedLate = jobIds[2]!;

    // A writer draws its sequence value, then the index loads while that transaction is still open.
    const writer = new pg.Client({
      connectionString: serverUrl()!.replace(/\/[^/]*$/, `/${await dbName()}`),
    });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(`UPDATE jobs SET location = 'Late, Iceland' WHERE id = $1`, [late]);
      await writer.query('UPDATE jobs SET active = false WHERE id = $1', [closedLate]);
      await index.refresh();
      expect(index.jobs.size).toBe(jobIds.length);
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    await t.deps.db.query(`UPDATE jobs SET location = 'Early, Norway' WHERE id = $1`, [early]);

    // Within the lag window: the newer write is read, cheaply; the late one is not yet.
    clock.advance(1_000);
    rows.length = 0;
    await index.refresh();
    expect(index.jobs.attributes(early)?.location).toBe('early, norway');
    expect(Math.max(...rows)).toBeLessThan(10);
    clock.advance(1_000);
    rows.length = 0;
    await index.refresh();
    expect(Math.max(...rows)).toBeLessThan(10);

    // Once the window has passed, one full re-read brings the late commits in, reading again only the rows whose
    // version differs from the one the index holds; later searches are cheap again.
    clock.advance(10_000);
    byId.length = 0;
    await rereadWhole(index);
    expect(index.jobs.attributes(late)?.location).toBe('late, iceland');
    expect(index.jobs.attributes(closedLate)).toBeUndefined();
    expect(byId.flat().sort()).toEqual([late, closedLate].sort());
    clock.advance(1_000);
    rows.length = 0;
    await index.refresh();
    expect(Math.max(...rows)).toBeLessThan(10);
  },
);

/**
 * The test database, holding the first statement whose SQL contains `marker` until released: a round of the
 * index can be stopped at a chosen point while other writes commit.
 */
function holding(marker: string): { db: Db; reached: Promise<void>; release: () => void } {
  let reach!: () => void;
  const reached = new Promise<void>((r) => {
    reach = r;
  });
  let release: (() => void) | undefined;
  const db = Object.create(t.deps.db) as Db;
  db.query = async (sql, params) => {
    if (release === undefined && sql.includes(marker)) {
      const held = new Promise<void>((r) => {
        release = r;
      });
      reach();
      await held;
    }
    return t.deps.db.query(sql, params) as never;
  };
  return { db, reached, release: () => release?.() };
}

it('does not let a caller share a round that began before its write committed', async () => {
  // The round's last statement (tombstones) is held.
  const hold = holding('FROM search_tombstones WHERE seq');
  const index = new CatalogReplica(hold.db, { model: t.deps.searchParts.embedder.id, lagMs: 0 });
  await index.refresh();
  const [first, second] = await t.deps.db.query<{ id: string }>('SELECT id FROM jobs WHERE active LIMIT 2');
  await t.deps.db.query(`UPDATE jobs SET location = 'Round One' WHERE id = $1`, [first!.id]);
  const roundOne = index.refresh();
  await hold.reached;
  // Committed while round one is past its reads: only a later round can see it.
  await t.deps.db.query(`UPDATE jobs SET location = 'Round Two' WHERE id = $1`, [second!.id]);
  const mine = index.refresh();
  hold.release();
  await Promise.all([roundOne, mine]);
  expect(index.jobs.attributes(first!.id)?.location).toBe('round one');
  expect(index.jobs.attributes(second!.id)?.location).toBe('round two');
});

it('does not skip a write that commits between the statements of one round', async () => {
  // The round is held before its job statement; its company statement has run.
  const hold = holding('FROM job_embeddings WHERE search_seq');
  const index = new CatalogReplica(hold.db, { model: t.deps.searchParts.embedder.id, lagMs: 0 });
  await index.refresh();
  const [job] = await t.deps.db.query<{ id: string; company_id: string }>(
    'SELECT id, company_id FROM jobs WHERE active LIMIT 1',
  );
  const [other] = await t.deps.db.query<{ id: string }>('SELECT id FROM jobs WHERE active OFFSET 1 LIMIT 1');
  await t.deps.db.query(`UPDATE jobs SET location = 'Before, Round' WHERE id = $1`, [other!.id]);
  const round = index.refresh();
  await hold.reached;
  // One write, company first: its company seq is below its job seq, and the round has read companies already.
  await t.deps.db.transaction(async (tx) => {
    await tx.query(`UPDATE companies SET website = 'https://mid-round.example' WHERE id = $1`, [
      job!.company_id,
    ]);
    await tx.query(`UPDATE jobs SET location = 'Mid, Round' WHERE id = $1`, [job!.id]);
  });
  hold.release();
  await round;
  await index.refresh();
  expect(index.jobs.attributes(job!.id)?.location).toBe('mid, round');
  expect(index.companies.attributes(job!.company_id)?.detail.website).toBe('https://mid-round.example');
});

it('runs no statement while no write went through the embedded database, and reads the next write', async () => {
  const { db, rows } = counting(t.deps.db);
  const index = new CatalogReplica(db, { model: t.deps.searchParts.embedder.id, lagMs: 0 });
  await index.refresh();
  await index.refresh();
  const before = rows.length;
  await index.refresh();
  // PostgreSQL is shared with other processes, so there every round asks the feed.
  expect(rows.length - before).toBe(t.deps.db.kind === 'pglite' ? 0 : 1);
  const [job] = await t.deps.db.query<{ id: string }>('SELECT id FROM jobs WHERE active OFFSET 2 LIMIT 1');
  await t.deps.db.query(`UPDATE jobs SET location = 'Quiet, Then' WHERE id = $1`, [job!.id]);
  await index.refresh();
  expect(index.jobs.attributes(job!.id)?.location).toBe('quiet, then');
});

it.skipIf(!serverUrl())(
  're-reads everything periodically without emptying the index, and an old truncation does not reload it',
  async () => {
    const clock = new TestClock();
    // The marker an earlier TRUNCATE left (markers stay): the load below reads the tables after it.
    await t.deps.db.query(
      `INSERT INTO search_tombstones (kind, id) VALUES ('truncate', '00000000-0000-0000-0000-000000000000')`,
    );
    const index = new CatalogReplica(t.deps.db, {
      model: t.deps.searchParts.embedder.id,
      now: clock.now,
      lagMs: 10_000,
      fullReloadMs: 60_000,
      // Rounds of a few rows: the re-read walks both tables over many rounds.
      rereadChunk: 7,
    });
    await index.refresh();
    let cleared = 0;
    index.listen({ cleared: () => cleared++ });
    const size = index.jobs.size;
    const [job] = await t.deps.db.query<{ id: string }>('SELECT id FROM jobs WHERE active OFFSET 3 LIMIT 1');
    // The re-read a lag window after the load, then the periodic one: each leaves the index whole meanwhile.
    for (const [advance, place] of [
      [11_000, 'Reread, One'],
      [60_000, 'Reread, Two'],
    ] as const) {
      await t.deps.db.query(`UPDATE jobs SET location = $2 WHERE id = $1`, [job!.id, place]);
      clock.advance(advance);
      await rereadWhole(index);
      expect(index.loading).toBe(false);
      expect(index.jobs.size).toBe(size);
      expect(index.jobs.attributes(job!.id)?.location).toBe(place.toLowerCase());
    }
    expect(cleared).toBe(0);
    // With nothing written since, the next periodic re-read finds every row as the index holds it and leaves the
    // generation alone: a bump would drop every kept shortlist and cached answer keyed on it.
    const generation = index.generation;
    clock.advance(60_000);
    await rereadWhole(index);
    expect(index.generation).toBe(generation);
  },
);

it.skipIf(!serverUrl())(
  'serves a caller during a re-read without waiting for its version read, which then runs in a round of its own',
  async () => {
    const clock = new TestClock();
    // The re-read's first version check of jobs is held; the company chunks before it run.
    const hold = holding('x.v::text');
    const checks: number[] = [];
    const db = Object.create(hold.db) as Db;
    db.query = async (sql, params, opts) => {
      const result = await hold.db.query(sql, params, opts);
      if (sql.includes('x.v::text')) checks.push(checks.length);
      return result as never;
    };
    const index = await loadedForReread(db, clock, { rereadPauseMs: 0 });
    await index.refresh();
    expect(index.rereading).toBe(true);
    await hold.reached;
    // A search arriving now catches up with the feed (a write committed meanwhile) while the version read is
    // still held: the read runs outside the feed's rounds, so no caller waits for it.
    const [job] = await t.deps.db.query<{ id: string }>('SELECT id FROM jobs WHERE active OFFSET 4 LIMIT 1');
    await t.deps.db.query(`UPDATE jobs SET location = 'Chunk, Wait' WHERE id = $1`, [job!.id]);
    await index.refresh();
    expect(checks.length).toBe(0);
    expect(index.jobs.attributes(job!.id)?.location).toBe('chunk, wait');
    hold.release();
    await rereadWhole(index);
    expect(checks.length).toBeGreaterThan(1);
    expect(index.jobs.attributes(job!.id)?.location).toBe('chunk, wait');
  },
);

it.skipIf(!serverUrl())(
  'pauses a re-read between its chunks, and a closed index runs no chunk that was due',
  async () => {
    const clock = new TestClock();
    const { db, rows } = counting(t.deps.db);
    // Far longer than the test: the second chunk never comes due while it runs.
    const index = await loadedForReread(db, clock, { rereadPauseMs: 600_000 });
    // The round that starts the re-read reads the tombstones; its first chunk runs in the next round.
    await index.refresh();
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    await index.refresh();
    const after = rows.length;
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setImmediate(r));
      await index.refresh();
    }
    // Only the feed's probe each round: no chunk ran in the pause, and the re-read is still under way.
    expect(rows.length - after).toBe(5);
    expect(index.rereading).toBe(true);
    index.close();
  },
);

it.skipIf(!serverUrl())('runs a chunk whose version read failed in the next round instead', async () => {
  const clock = new TestClock();
  let failures = 1;
  const errors: string[] = [];
  const checks: number[] = [];
  const db = Object.create(t.deps.db) as Db;
  db.query = async (sql, params, opts) => {
    if (sql.includes('x.v::text')) {
      checks.push(checks.length);
      if (failures-- > 0) throw new Error('connection lost');
    }
    return t.deps.db.query(sql, params, opts) as never;
  };
  const index = await loadedForReread(db, clock, {
    rereadPauseMs: 0,
    onError: (_err, msg) => errors.push(msg),
  });
  await rereadWhole(index);
  expect(errors).toEqual(['catalog replica re-read failed']);
  // The failed read, then every chunk of the walk: the one that failed was read again, not skipped.
  const active = (
    await t.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE active')
  )[0]!.n;
  expect(checks.length).toBe(1 + Math.floor(active / 7) + 1);
});

/** An index loaded through `db`, the clock past its lag window: its next round starts a re-read of 7-row chunks. */
async function loadedForReread(
  db: Db,
  clock: TestClock,
  opts: Partial<CatalogReplicaOptions>,
): Promise<CatalogReplica> {
  const index = new CatalogReplica(db, {
    model: t.deps.searchParts.embedder.id,
    now: clock.now,
    lagMs: 10_000,
    rereadChunk: 7,
    ...opts,
  });
  await index.refresh();
  clock.advance(11_000);
  return index;
}

/** Starts a due re-read, then lets its rounds run (each a round of its own, between requests) until it is done. */
async function rereadWhole(index: CatalogReplica): Promise<void> {
  await index.refresh();
  while (index.rereading) await new Promise((r) => setImmediate(r));
}

async function dbName(): Promise<string> {
  const [row] = await t.deps.db.query<{ name: string }>('SELECT current_database() AS name');
  return row!.name;
}
