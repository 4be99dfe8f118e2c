import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

/**
 * The /jobs page reads its listing, role counts and cards (pay, first sighting) through the catalog's read model:
 * from the in-process replica with READ_MODEL=memory, from SQL with READ_MODEL=sql. Two apps over one database
 * (same rows, same ids, same clock) must send the same bytes for every page, before and after writes.
 */

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const URLS = [
  '/jobs',
  '/jobs?page=2',
  '/jobs?role_category=fde',
  '/jobs?client_facing=true&remote_only=true',
  '/jobs?location=san',
  '/jobs?company=anthropic',
  '/jobs?salary_min=100000&salary_currency=USD',
  // Another order is listed by SQL in both apps; the cards still come from each app's read model.
  '/jobs?sort=pay',
  '/jobs?search=forward%20deployed',
];

let database: TestDatabase;
let memory: TestApp;
let sql: TestApp;

beforeAll(async () => {
  database = await freshDatabase();
  memory = await startTestApp({ database, env: { SAMPLE_DATA: '1', READ_MODEL: 'memory' } });
  sql = await startTestApp({ database, env: { SAMPLE_DATA: '1', READ_MODEL: 'sql' } });
});
afterAll(async () => {
  await memory?.close();
  await sql?.close();
  await database?.drop();
});

async function expectSamePages(label: string): Promise<string[]> {
  const bodies: string[] = [];
  for (const url of URLS) {
    const a = await memory.request({ method: 'GET', url, headers: HTML });
    const b = await sql.request({ method: 'GET', url, headers: HTML });
    expect(a.statusCode, `${label} ${url}`).toBe(200);
    expect(a.body, `${label} ${url}`).toBe(b.body);
    expect(a.headers.etag, `${label} ${url}`).toBe(b.headers.etag);
    bodies.push(a.body);
  }
  return bodies;
}

describe('the /jobs page from the replica and from SQL', () => {
  it('is byte-identical, pay and "New" marks included, before and after writes', async () => {
    const before = await expectSamePages('sample');
    expect(before.some((html) => html.includes('class="pay"'))).toBe(true);
    expect(before.some((html) => html.includes('class="new"'))).toBe(true);
    const [newest] = await database.db.query<{ id: string }>(
      'SELECT id FROM jobs WHERE active ORDER BY posted_at DESC, id DESC LIMIT 1',
    );
    // Pay with cents in another currency and period, a first sighting long ago: both on the first page.
    await database.db.query(
      `UPDATE jobs SET salary_min = 12.5, salary_max = 99.75, salary_currency = 'CHF', salary_period = 'hour',
         salary_source = 'description', first_seen_at = now() - interval '400 days' WHERE id = $1`,
      [newest!.id],
    );
    const after = await expectSamePages('after a write');
    expect(after[0]).toMatch(/class="pay">CHF [^<]*hour</);
    expect(after[0]).not.toBe(before[0]);
  });
});
