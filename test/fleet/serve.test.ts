import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_TEST_CACHE_DIR } from '../search/support.js';
import { freshDataDir, serverUrl } from '../support/db.js';
import { type ServiceProcess, startService } from '../support/fleet.js';

/**
 * `frontline serve` answers before its workflow engine has launched (docs/deployment.md, Start-up order), and on
 * the embedded database launches it only with the first pipeline work (runs an earlier process left: the crash
 * tests in test/pipeline/crash.test.ts restart into one). A launch failure comes after the first answers: the
 * process must still stop, with the cause in its log, rather than serve a catalog whose pipeline never runs. Embedded database only: the failure used here is FRONTLINE_ROLE=api
 * without a server, which has no workflow engine to enqueue into.
 */
describe.skipIf(serverUrl())('frontline serve and its workflow engine', () => {
  let dataDir: string;
  const running: ServiceProcess[] = [];
  /** Data directories made here; each test has its own, so one that fails leaves the next its own to open. */
  const dirs: string[] = [];

  beforeAll(async () => {
    dataDir = await freshDataDir();
    dirs.push(dataDir);
    mkdirSync(SEARCH_TEST_CACHE_DIR, { recursive: true });
    symlinkSync(SEARCH_TEST_CACHE_DIR, join(dataDir, 'cache'));
  });

  afterAll(async () => {
    for (const p of running) await p.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('answers catalog reads, then leaves the engine idle until the first pipeline request launches it', async () => {
    const token = 'serve-test-token-0123456789abcdef';
    const service = await startService({ DATA_DIR: dataDir, SAMPLE_DATA: '1', API_TOKENS: token });
    running.push(service);
    expect((await fetch(`${service.url}/api/v1/jobs`)).status).toBe(200);
    // The start's line says where its time went, phase by phase, for an operator chasing a slow restart.
    const started = service
      .output()
      .split('\n')
      .map((line) => (line.startsWith('{') ? (JSON.parse(line) as { msg?: string }) : {}))
      .find((entry) => entry.msg === 'started') as { ms: Record<string, number>; total: number } | undefined;
    expect(Object.keys(started?.ms ?? {})).toEqual([
      'boot',
      'database',
      'migrations',
      'services',
      'app',
      'listen',
    ]);
    // The phases are consecutive spans of one clock from the process's start: together they are the total.
    const phases = Object.values(started?.ms ?? {}).reduce((a, b) => a + b, 0);
    expect(started?.total).toBe(phases);
    const logged = async (text: string) => {
      // Polled until the line appears; the test's timeout bounds the wait.
      while (!service.output().includes(text)) await new Promise((ok) => setTimeout(ok, 100));
      return service.output();
    };
    // No run waits in a fresh data directory: DBOS is neither loaded nor polling.
    expect(await logged('workflow engine idle')).not.toContain('workflow engine launched');
    // Its warm-up done (replica, schemas, engine decided), it says so, and the warm readiness probe passes.
    expect(await logged('"msg":"warm"')).toContain('workflow engine idle');
    const warm = await fetch(`${service.url}/readyz?warm=true`);
    expect(warm.status).toBe(200);
    expect(await warm.json()).toEqual({
      data: { status: 'ready', database: 'ok', pendingMigrations: [], warm: true },
    });
    // A status read is pipeline work: it launches the engine, and waits for it.
    const unknown = await fetch(`${service.url}/api/v1/workflows/00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(unknown.status).toBe(404);
    expect(await logged('workflow engine launched')).toMatch(/"ms":\d+,"msg":"workflow engine launched"/);
    await service.stop();
    expect(await service.exited).toBe(0);
  });

  it('exits with status 1 and the cause in its log when the engine cannot launch', async () => {
    const own = await freshDataDir();
    dirs.push(own);
    const started = await startService({ DATA_DIR: own, FRONTLINE_ROLE: 'api' }).then(
      (service) => service,
      (err: Error) => err,
    );
    let output: string;
    if (started instanceof Error) {
      // Gone before its first answer: startService says so, with the log.
      expect(started.message).toContain('exited during start');
      output = started.message;
    } else {
      running.push(started);
      expect(await started.exited).toBe(1);
      output = started.output();
    }
    expect(output).toContain('workflow engine could not launch');
    expect(output).toContain('FRONTLINE_ROLE=api needs a PostgreSQL server');
  });
});
