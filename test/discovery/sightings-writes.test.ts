import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../src/db/port.js';
import { appendSightings } from '../../src/pipeline/discovery/sightings.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * What appendSightings sends to the database (src/pipeline/discovery/sightings.ts), on a real database: a batch
 * whose sightings are all in the log already does not ship them to the database again (only the batch row is
 * written), a batch without valid items does not even look them up, and of an item repeated inside one request the
 * first occurrence is the one stored. POST /discover's counts are covered by discover.test.ts.
 */

let t: TestApp;
let tokenId: string;
beforeAll(async () => {
  t = await startTestApp();
  tokenId = (await t.deps.tokens.verify(t.token))?.id as string;
});
afterAll(async () => t?.close());

/** The real database, recording every statement sent through it (inside transactions too). */
function recorded(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const watch = (q: Queryable): Queryable => ({
    query: (sql, params, opts) => {
      statements.push(sql.replace(/\s+/g, ' ').trim());
      return q.query(sql, params, opts);
    },
  });
  const wrapped = Object.assign(Object.create(db) as Db, {
    query: watch(db).query,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(watch(tx))),
  });
  return { db: wrapped, statements };
}

const insertsSightings = (statements: string[]) => statements.filter((s) => /INSERT INTO sightings/.test(s));
const looksUpKnown = (statements: string[]) =>
  statements.filter((s) => /^SELECT key_hash FROM sightings/.test(s));
const insertsBatch = (statements: string[]) =>
  statements.filter((s) => /INSERT INTO discovery_batches/.test(s));

const append = (db: Db, items: unknown[], label: string) =>
  appendSightings(db, { items, label }, { tokenId, at: new Date(t.clock.ms) });

describe('appendSightings', () => {
  it('ships new sightings once, and a resubmitted batch not at all', async () => {
    const items = [
      { source: 'ship', key: { domain: 'omicron.dev' } },
      { source: 'ship', key: { domain: 'pi.dev' } },
    ];
    const first = recorded(t.deps.db);
    expect(await append(first.db, items, 'ship-1')).toMatchObject({ inserted: 2, duplicates: 0 });
    expect(looksUpKnown(first.statements)).toHaveLength(1);
    expect(insertsSightings(first.statements)).toHaveLength(1);
    expect(insertsBatch(first.statements)).toHaveLength(1);

    const again = recorded(t.deps.db);
    expect(await append(again.db, items, 'ship-2')).toMatchObject({ inserted: 0, duplicates: 2 });
    expect(looksUpKnown(again.statements)).toHaveLength(1);
    expect(insertsSightings(again.statements)).toEqual([]);
    expect(insertsBatch(again.statements)).toHaveLength(1);

    // Half known: only the new one is shipped, and counted.
    const half = recorded(t.deps.db);
    const more = [...items, { source: 'ship', key: { domain: 'rho.dev' } }];
    expect(await append(half.db, more, 'ship-3')).toMatchObject({ inserted: 1, duplicates: 2 });
    expect(insertsSightings(half.statements)).toHaveLength(1);
    const rows = await t.deps.db.query<{ label: string; n: number }>(
      `SELECT label, count(*)::int AS n FROM sightings WHERE source = 'ship' GROUP BY label ORDER BY label`,
    );
    expect(rows).toEqual([
      { label: 'ship-1', n: 2 },
      { label: 'ship-3', n: 1 },
    ]);
  });

  it('writes only the batch row for a request without a valid item', async () => {
    const none = recorded(t.deps.db);
    const result = await append(none.db, [{ source: 'void' }, { key: { domain: 'sigma.dev' } }], 'void');
    expect(result).toMatchObject({ received: 2, inserted: 0, duplicates: 0, invalid: 2 });
    expect(looksUpKnown(none.statements)).toEqual([]);
    expect(insertsSightings(none.statements)).toEqual([]);
    expect(insertsBatch(none.statements)).toHaveLength(1);
    const [batch] = await t.deps.db.query<Record<string, unknown>>(
      `SELECT received, inserted, duplicates, invalid FROM discovery_batches WHERE label = 'void'`,
    );
    expect(batch).toEqual({ received: 2, inserted: 0, duplicates: 0, invalid: 2 });
  });

  it('stores the first occurrence of an item repeated in one request, with its payload', async () => {
    const result = await append(
      t.deps.db,
      [
        { source: 'first', key: { domain: 'tau.dev' }, payload: { n: 1 } },
        { source: 'first', key: { domain: 'www.tau.dev' }, payload: { n: 2 } },
        { source: 'first', key: { domain: 'tau.dev' }, payload: { n: 3 } },
      ],
      'first',
    );
    expect(result).toMatchObject({ received: 3, inserted: 1, duplicates: 2 });
    const rows = await t.deps.db.query<{ payload: unknown }>(
      `SELECT payload FROM sightings WHERE source = 'first'`,
    );
    expect(rows).toEqual([{ payload: { n: 1 } }]);
  });
});
