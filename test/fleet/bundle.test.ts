import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM build script, no type declarations
import { bundle } from '../../scripts/build.mjs';
import { SEARCH_TEST_CACHE_DIR } from '../search/support.js';
import { freshDatabase, freshDataDir, serverUrl, type TestDatabase } from '../support/db.js';
import { runCli, type ServiceProcess, startService } from '../support/fleet.js';

/**
 * What `npm run build` produces is what production runs (npm start, the bench, the image): the esbuild bundle.
 * Built here by the build's own function into a directory of its own inside the package (its paths resolve from
 * the package root), with a token minted through it first, and started as a real process, on whichever database
 * this pass uses. The other tests' children run the suite's bundle of the same sources (service-entry.ts in
 * test/support).
 */
const ROOT = resolve(import.meta.dirname, '../..');

describe('the bundled service (npm run build)', () => {
  const outdir = join(ROOT, '.test-build', `bundle-${process.pid}`);
  let dataDir: string;
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  let service: ServiceProcess;
  let secret: string | undefined;

  beforeAll(async () => {
    await bundle(outdir);
    if (serverUrl()) {
      database = await freshDatabase();
      dataDir = mkdtempSync(join(tmpdir(), 'frontline-bundle-'));
    } else {
      dataDir = await freshDataDir();
    }
    // Share the word-vector cache instead of rebuilding it (~10 s).
    mkdirSync(SEARCH_TEST_CACHE_DIR, { recursive: true });
    symlinkSync(SEARCH_TEST_CACHE_DIR, join(dataDir, 'cache'));
    env = {
      DATA_DIR: dataDir,
      SAMPLE_DATA: '1',
      LOG_LEVEL: 'warn',
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
    };
    // Before the service starts: an embedded database is open in one process at a time.
    const out = await runCli(['tokens', 'create', '--name', 'bundle-test'], env, join(outdir, 'main.js'));
    secret = /secret[^:]*:\s*(\S+)/.exec(out)?.[1];
    service = await startService(env, { entry: join(outdir, 'main.js') });
  });

  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(outdir, { recursive: true, force: true });
  });

  it('migrates, loads the sample catalog and serves listings, details, search and the reference', async () => {
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    const jobs = (await (await fetch(`${service.url}/api/v1/jobs?limit=5`)).json()) as {
      data: { id: string }[];
      meta: { total: number };
    };
    expect(jobs.meta.total).toBeGreaterThan(20);
    const job = await fetch(`${service.url}/api/v1/jobs/${jobs.data[0]!.id}`);
    expect(job.status).toBe(200);
    const search = (await (await fetch(`${service.url}/api/v1/jobs?search=forward%20deployed`)).json()) as {
      data: unknown[];
    };
    expect(search.data.length).toBeGreaterThan(0);
    const openapi = (await (await fetch(`${service.url}/api/v1/openapi.json`)).json()) as { paths: object };
    expect(Object.keys(openapi.paths)).toContain('/api/v1/jobs/{id}');
    expect((await fetch(`${service.url}/docs/`)).status).toBe(200);
    // swagger-ui is bundled but serves its assets from its installed directory (scripts/build.mjs).
    const css = await fetch(`${service.url}/docs/static/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect((await css.text()).length).toBeGreaterThan(10_000);
    // Bundled plugins and libraries at work: compression, and the metrics registry.
    const gz = await fetch(`${service.url}/api/v1/jobs`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await (await fetch(`${service.url}/metrics`)).text()).toContain('process_cpu_seconds_total');
    // Nothing degraded quietly: a file the bundle failed to find (the embedder's lexicon, say) logs a warning.
    expect(service.output()).not.toMatch(/"level":(40|50|60)/);
  });

  it('runs the CLI from the bundle: a token it minted is accepted by the service', async () => {
    expect(secret).toMatch(/^fl_/);
    const me = await fetch(`${service.url}/api/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { tier: string } }).data.tier).toBe('token');
  });
});
