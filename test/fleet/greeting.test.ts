import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { startLine } from '../../src/runtime/start-line.js';
import { freshDataDirWithVectors, serverUrl } from '../support/db.js';
import { type ServiceProcess, startService } from '../support/fleet.js';

/**
 * What a person reads when starting the server: one line saying where the site is and what was loaded (on stderr;
 * stdout stays JSON), and on the embedded database's first start a one-time token that works at once.
 */
describe.skipIf(serverUrl())('the start greeting on the embedded database (a real process)', () => {
  let dataDir: string | undefined;
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    await service?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('says where the site is and what was loaded, and prints a first token the running server accepts', async () => {
    dataDir = await freshDataDirWithVectors();
    service = await startService({ DATA_DIR: dataDir, SAMPLE_DATA: '1' });
    while (!/secret is shown this once: \S+\n/.test(service.output())) {
      if (service.child.exitCode !== null) throw new Error(service.output().slice(-4000));
      await new Promise((ok) => setTimeout(ok, 50));
    }
    const out = service.output();
    const line = out.split('\n').filter((l) => l.startsWith('Frontline up at '));
    expect(line).toEqual([
      `Frontline up at http://localhost:${service.port} — 194 jobs, 42 companies (embedded database at ${dataDir})`,
    ]);
    const secret = /secret is shown this once: (\S+)\n/.exec(out)![1]!;
    // The secret is printed once and never in a JSON log line.
    expect(out.split(secret)).toHaveLength(2);
    for (const l of out.split('\n').filter((x) => x.startsWith('{'))) expect(l).not.toContain(secret);
    const watches = await fetch(`${service.url}/api/v1/watches`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(watches.status).toBe(200);
    const anonymous = await fetch(`${service.url}/api/v1/watches`);
    expect(anonymous.status).toBe(401);
  }, 600_000);
});

describe('the start line', () => {
  const config = (env: Record<string, string>) => parseConfig({ LOG_LEVEL: 'silent', ...env });
  it('names the site, the totals and the database without credentials', () => {
    expect(startLine(config({}), 'http://0.0.0.0:3000', { jobs: 1234, companies: 42 }, process.cwd())).toBe(
      'Frontline up at http://localhost:3000 — 1,234 jobs, 42 companies (embedded database at ./data)',
    );
    const primary = 'postgres://app:s3cret@db.internal:5432/frontline';
    const cases: [Record<string, string>, string][] = [
      [
        { DATABASE_URL: primary, PUBLIC_BASE_URL: 'https://jobs.example.com/' },
        'Frontline up at https://jobs.example.com — 0 jobs, 0 companies (PostgreSQL at db.internal:5432/frontline)',
      ],
      [
        {
          DATABASE_URL: primary,
          DATABASE_READ_URL: 'postgres://app:r3ad@replica.internal:5432/frontline?options=-c%20x%3Dy',
        },
        'Frontline up at http://localhost:8080 — 0 jobs, 0 companies (PostgreSQL at db.internal:5432/frontline, public reads from replica.internal:5432/frontline)',
      ],
    ];
    for (const [env, expected] of cases) {
      const text = startLine(config(env), 'http://127.0.0.1:8080', { jobs: 0, companies: 0 });
      expect(text).toBe(expected);
      expect(text).not.toMatch(/s3cret|r3ad|options/);
    }
  });
});
