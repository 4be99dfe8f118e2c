import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * READ_MODEL=sql switches the in-memory read model off: the same HTTP answers come from SQL alone. The catalog
 * suites also run whole with TEST_READ_MODEL=sql.
 */

describe('READ_MODEL', () => {
  it('defaults to memory, accepts sql, and names the key when the value is unknown', () => {
    expect(parseConfig({}).readModel).toBe('memory');
    expect(parseConfig({ READ_MODEL: 'sql' }).readModel).toBe('sql');
    expect(() => parseConfig({ READ_MODEL: 'redis' })).toThrow(/READ_MODEL/);
  });

  describe('sql and memory answer alike through HTTP', () => {
    let memory: TestApp;
    let sql: TestApp;
    beforeAll(async () => {
      memory = await startTestApp({ env: { SAMPLE_DATA: '1', READ_MODEL: 'memory' } });
      sql = await startTestApp({ env: { SAMPLE_DATA: '1', READ_MODEL: 'sql' } });
    });
    afterAll(async () => {
      await memory?.close();
      await sql?.close();
    });

    it('for listings, filters and details', async () => {
      for (const url of [
        '/api/v1/jobs?company=anthropic&limit=50',
        '/api/v1/jobs?client_facing=true&remote_only=true&location=us&limit=50',
        '/api/v1/jobs?location=san&department=engineering,sales&limit=50',
        '/api/v1/companies?limit=100',
        '/api/v1/companies?category=ai_native&limit=100',
      ]) {
        const a = await memory.get(url, memory.token);
        const b = await sql.get(url, sql.token);
        expect(a.statusCode, url).toBe(200);
        // Whole result sets (no page boundary between posted_at ties, which order by the per-database ids).
        expect(a.json().meta.total, url).toBeLessThanOrEqual(a.json().meta.limit);
        // Sample ids differ per database (and with them the order of posted_at ties): contents and totals must not.
        const strip = (body: string) => {
          const { data, meta } = JSON.parse(body, (k, v) => (k === 'id' ? undefined : v));
          return { data: (data as unknown[]).map((item) => JSON.stringify(item)).sort(), meta };
        };
        expect(strip(b.body), url).toEqual(strip(a.body));
      }
    });
  });
});
