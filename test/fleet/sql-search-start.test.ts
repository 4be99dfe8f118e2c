import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteVector } from '../../src/db/pglite-vector.js';
import { freshDatabase, freshDataDir, serverUrl, type TestDatabase } from '../support/db.js';
import { type ServiceProcess, startService } from '../support/fleet.js';

/**
 * A process that ranks search in the database (SEARCH=sql) on a database without pgvector says so once in its
 * start log, and says nothing where the database offers it. A real `frontline serve` on the suite's database
 * (the embedded one, or PostgreSQL with TEST_DATABASE_URL).
 */
describe('the start log of search ranked in the database', () => {
  let service: ServiceProcess | undefined;
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('says once when searches rank keyword lists only', async () => {
    let vectors: boolean;
    let env: Record<string, string>;
    if (serverUrl()) {
      database = await freshDatabase();
      const offered = await database.db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
      vectors = offered.length > 0;
      env = { DATABASE_URL: database.url!, FRONTLINE_ROLE: 'api' };
    } else {
      dataDir = await freshDataDir();
      vectors = (await pgliteVector()) !== undefined;
      env = { DATA_DIR: dataDir };
    }
    service = await startService({ ...env, SEARCH: 'sql', READ_MODEL: 'sql', SAMPLE_DATA: '1' });
    const res = await fetch(`${service.url}/api/v1/jobs?search=solutions%20engineer`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    // Logged after the keyword-only warning is decided; the test's timeout bounds the wait.
    while (!service.output().includes('"msg":"warm"')) await new Promise((ok) => setTimeout(ok, 100));
    const warnings = service
      .output()
      .split('\n')
      .filter((l) => l.includes('SEARCH=sql without pgvector'));
    expect(warnings).toHaveLength(vectors ? 0 : 1);
  }, 600_000);
});
