import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';

/**
 * Named statements (QueryOptions.name): prepared once, then executed. On PGlite values travel as SQL literals,
 * so these hold them to the same answers as bind parameters, hostile text included, on both databases.
 */
let t: TestDatabase;

beforeAll(async () => {
  t = await freshDatabase();
  await t.db.query('CREATE TABLE named_t (id uuid PRIMARY KEY, v text, n int, b boolean)');
  await t.db.query(
    `INSERT INTO named_t VALUES ('2e924745-c2e9-4c6a-a685-827ff6a0120b', $1, 7, true),
       ('3e924745-c2e9-4c6a-a685-827ff6a0120b', NULL, NULL, false)`,
    ["it's a \\ back'slash; DROP TABLE named_t; --"],
  );
});
afterAll(async () => {
  await t?.drop();
});

const SQL = `SELECT id, v, n, b FROM named_t
  WHERE (v = $1 OR ($1 IS NULL AND v IS NULL)) AND (n = $2 OR $2 IS NULL) AND b = $3 ORDER BY id`;

describe('named statements', () => {
  it('answers as an unnamed statement does, for quotes, backslashes, nulls, numbers and booleans', async () => {
    const cases: unknown[][] = [
      ["it's a \\ back'slash; DROP TABLE named_t; --", 7, true],
      ["it's a \\ back'slash; DROP TABLE named_t; --", null, true],
      [null, null, false],
      ["it''s", 7, true],
    ];
    for (const params of cases) {
      const plain = await t.db.query(SQL, params);
      expect(await t.db.query(SQL, params, { name: 'named_case' }), JSON.stringify(params)).toEqual(plain);
    }
    expect(await t.db.query(SQL, cases[0], { name: 'named_case' })).toHaveLength(1);
    expect(await t.db.query('SELECT count(*)::int AS n FROM named_t')).toEqual([{ n: 2 }]);
  });

  it('prepares once when first used by concurrent callers', async () => {
    const runs = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM named_t WHERE b = $1', [true], {
          name: 'named_concurrent',
        }),
      ),
    );
    expect(runs).toEqual(Array.from({ length: 5 }, () => [{ n: 1 }]));
  });

  it('takes values with no literal form (arrays) as bind parameters', async () => {
    const ids = ['2e924745-c2e9-4c6a-a685-827ff6a0120b', '3e924745-c2e9-4c6a-a685-827ff6a0120b'];
    const rows = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM named_t WHERE id = ANY($1::uuid[])',
      [ids],
      { name: 'named_array' },
    );
    expect(rows).toEqual([{ n: 2 }]);
  });

  it('never runs a statement name as SQL (PGlite refuses a name that is not a plain identifier)', async () => {
    const bad = t.db.query('SELECT 1 AS one', [], { name: 'x; DROP TABLE named_t' });
    // PGlite builds PREPARE statements, so it refuses the name; node-postgres sends the name in the protocol's
    // Parse message, where it is data, never SQL: the statement runs and nothing else does.
    if (t.db.kind === 'pglite') await expect(bad).rejects.toThrow(/invalid prepared statement name/);
    else expect(await bad).toEqual([{ one: 1 }]);
    expect(await t.db.query('SELECT count(*)::int AS n FROM named_t')).toEqual([{ n: 2 }]);
  });
});
