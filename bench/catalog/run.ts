import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CatalogManifest, prepareCatalog } from './generate.js';
import { type Measurement, measure } from './measure.js';
import { type BenchOptions, parseOptions, USAGE } from './options.js';
import { type Child, freePort, memoryOf, spawnChild, waitForOk } from './processes.js';
import { type ReportInput, renderReport, type ScenarioOutcome } from './report.js';
import { BROWSER_ACCEPT, bareScenarios, buildScenarios, PAGE_ROUTE, type Scenario } from './scenarios.js';
import { benchServiceEnv } from './service-env.js';
import { API } from './urls.js';

/**
 * `npm run bench`: generates (or reuses) the synthetic catalog, builds the service, starts it and a bare Fastify
 * route as child processes, measures every scenario with autocannon, times restarts, reads the service's RSS and
 * writes a markdown report. See bench/README.md.
 */

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CACHE = join(ROOT, '.bench-data');
const log = (msg: string): void => {
  process.stderr.write(`${msg}\n`);
};

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

function responseCacheState(): string {
  const file = join(ROOT, 'src/http/caching/response-cache.ts');
  if (!existsSync(file))
    return 'absent (no src/http/caching/response-cache.ts): measured **before** the response cache';
  const app = readFileSync(join(ROOT, 'src/app.ts'), 'utf8');
  return app.includes('response-cache')
    ? 'present and registered in src/app.ts: measured **with** the response cache'
    : 'src/http/caching/response-cache.ts exists but src/app.ts does not register it: measured **before** the response cache';
}

function build(notes: string[]): void {
  log('building the service (npm run build)');
  const res = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
  if (res.status !== 0) {
    // tsc still emits on type errors; other engineers' files may be mid-edit. The run goes on with what was
    // emitted, and the report says so.
    const first = `${res.stdout}${res.stderr}`.split('\n').find((l) => l.includes('error TS')) ?? '';
    notes.push(
      `\`npm run build\` exited ${res.status} (first error: \`${first.trim()}\`); the emitted dist/ was used.`,
    );
    log(`  build exited ${res.status}; continuing with the emitted dist/`);
  }
  if (!existsSync(join(ROOT, 'dist/main.js'))) throw new Error('dist/main.js is missing after the build');
}

interface Service {
  start(): Promise<Child>;
}

function serviceLauncher(
  target: { dataDir?: string; databaseUrl?: string },
  logFile: string,
  cpuProfDir: string | undefined,
  nodeFlags: readonly string[],
  extraEnv: Record<string, string>,
): Service {
  return {
    start: async () => {
      const port = await freePort();
      return spawnChild({
        command: process.execPath,
        args: [
          ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(cpuProfDir)}`] : []),
          ...nodeFlags,
          join(ROOT, 'dist/main.js'),
          'serve',
        ],
        env: benchServiceEnv(port, target, CACHE, extraEnv),
        logFile,
        port,
        cwd: ROOT,
      });
    },
  };
}

/** A catalog answer as the client receives it: the headers the service set, and the body. */
interface Answer {
  headers: Record<string, string>;
  body: Buffer;
  size: { bodyBytes: number; headerLines: number };
}

/** Headers Node's server writes itself on every response (the bare server's too): not copied. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The hot row's answer: asked twice, so the second comes from the response cache as in the row. */
async function hotAnswer(url: string): Promise<Answer> {
  const ask = () =>
    new Promise<{ raw: string[]; body: Buffer; status: number }>((done, fail) => {
      get(url, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({ raw: res.rawHeaders, body: Buffer.concat(chunks), status: res.statusCode ?? 0 }),
        );
        res.on('error', fail);
      }).on('error', fail);
    });
  await ask();
  const { raw, body, status } = await ask();
  if (status !== 200) throw new Error(`${url} answered ${status}`);
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!PER_CONNECTION.has(name)) headers[name] = raw[i + 1] as string;
  }
  return { headers, body, size: { bodyBytes: body.byteLength, headerLines: raw.length / 2 } };
}

async function putSized(origin: string, answer: Answer): Promise<void> {
  const res = await fetch(`${origin}/bare-sized`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ headers: answer.headers, body: answer.body.toString('base64') }),
  });
  if (res.status !== 204) throw new Error(`PUT /bare-sized answered ${res.status}`);
}

async function routesServed(origin: string): Promise<Set<string>> {
  const res = await fetch(`${origin}${API}/openapi.json`);
  if (!res.ok) throw new Error(`${API}/openapi.json answered ${res.status}`);
  const doc = (await res.json()) as { paths?: Record<string, unknown> };
  const routes = new Set(Object.keys(doc.paths ?? {}));
  // The web site's pages are not API operations: served when the page answers a browser with HTML.
  const page = await fetch(`${origin}/jobs`, { headers: { accept: BROWSER_ACCEPT } });
  await page.arrayBuffer();
  if (page.ok && page.headers.get('content-type')?.startsWith('text/html')) routes.add(PAGE_ROUTE);
  return routes;
}

interface CacheCounters {
  hit: number;
  miss: number;
}

/** The response cache's lookup counters from /metrics; undefined when the service exports none. */
async function cacheCounters(origin: string): Promise<CacheCounters | undefined> {
  const res = await fetch(`${origin}/metrics`).catch(() => undefined);
  if (!res?.ok) return undefined;
  const text = await res.text();
  const read = (outcome: string): number | undefined => {
    const m = text.match(new RegExp(`^frontline_response_cache_total\\{outcome="${outcome}"\\} (\\d+)`, 'm'));
    return m ? Number(m[1]) : undefined;
  };
  const hit = read('hit');
  const miss = read('miss');
  return hit === undefined && miss === undefined ? undefined : { hit: hit ?? 0, miss: miss ?? 0 };
}

/** Requests the hot URL and a sample of the mixed ones once, listing every non-2xx answer. */
async function precheck(origin: string, s: Scenario): Promise<string[]> {
  const sample =
    s.paths.length <= 25 ? s.paths : s.paths.filter((_, i) => i % Math.ceil(s.paths.length / 25) === 0);
  const failures: string[] = [];
  for (const path of sample) {
    try {
      const res = await fetch(`${origin}${path}`, {
        headers: s.headers,
        signal: AbortSignal.timeout(30_000),
      });
      const body = await res.text();
      if (!res.ok) failures.push(`${res.status} on \`${path}\`: ${body.slice(0, 160)}`);
    } catch (err) {
      // A hung request is a finding to report, not a reason to lose the run: stop sampling this scenario.
      failures.push(`no answer within 30 s on \`${path}\` (${(err as Error).name})`);
      break;
    }
  }
  return failures;
}

async function run(opts: BenchOptions): Promise<void> {
  const loadBefore = loadavg();
  const size = {
    seed: opts.seed,
    jobs: opts.jobs,
    companies: opts.companies,
    inactiveRatio: opts.inactiveRatio,
  };
  const target = opts.databaseUrl
    ? { kind: 'postgres' as const, url: opts.databaseUrl }
    : { kind: 'pglite' as const, root: CACHE };
  const t0 = performance.now();
  const catalog = await prepareCatalog(size, target, CACHE, log);
  const manifest: CatalogManifest = catalog.manifest;
  log(
    catalog.generated
      ? `catalog generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`
      : `catalog reused from the cache (generated ${manifest.generatedAt} in ${(manifest.generationMs.total / 1000).toFixed(1)} s)`,
  );
  if (opts.generateOnly) return;

  const notes: string[] = [];
  if (opts.build) build(notes);
  mkdirSync(join(CACHE, 'logs'), { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const serviceLog = join(CACHE, 'logs', `service-${stamp}.log`);

  const barePort = await freePort();
  const bare = spawnChild({
    command: process.execPath,
    args: ['--import', 'tsx', join(ROOT, 'bench/catalog/bare-server.ts'), String(barePort)],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    logFile: join(CACHE, 'logs', `bare-${stamp}.log`),
    port: barePort,
    cwd: ROOT,
  });
  const service = serviceLauncher(catalog, serviceLog, opts.cpuProfDir, opts.nodeFlags, opts.serviceEnv);
  let server = await service.start();
  try {
    await waitForOk(bare, `${bare.origin}/bare`, 60_000);
    const firstStartMs = await waitForOk(server, `${server.origin}/readyz`, 180_000);
    log(
      `service ready in ${(firstStartMs / 1000).toFixed(1)} s (pid ${server.pid}, log ${relative(ROOT, serviceLog)})`,
    );

    const routes = await routesServed(server.origin);
    const scenarios = buildScenarios(manifest, opts.connections, opts.mixedUrls).filter(
      (s) => opts.only.length === 0 || opts.only.some((o) => s.id.includes(o)),
    );
    const settings = { connections: opts.connections, durationS: opts.durationS, warmupS: opts.warmupS };
    const bench = (
      origin: string,
      s: Scenario,
      seed: number,
      beforeMeasured?: () => Promise<void>,
    ): Promise<Measurement> =>
      measure(
        { ...settings, connections: s.connections, origin, paths: s.paths, headers: s.headers, seed },
        beforeMeasured,
      );

    const bareRuns = bareScenarios(opts.connections);
    log('bare route (before)');
    const bareBefore = await bench(bare.origin, bareRuns.before, 1);
    const bareMixed = await bench(bare.origin, bareRuns.mixedClient, 2);
    log(
      `  ${Math.round(bareBefore.reqPerSec)} req/s; with per-request URLs ${Math.round(bareMixed.reqPerSec)} req/s`,
    );
    // The bare route sending the bytes of the hot /jobs row's answer, before the rows and after them.
    const sizedAnswer = routes.has(`${API}/jobs`)
      ? await hotAnswer(`${server.origin}${API}/jobs`)
      : undefined;
    if (sizedAnswer) await putSized(bare.origin, sizedAnswer);
    const measureSized = async (seed: number): Promise<Measurement | undefined> =>
      sizedAnswer ? bench(bare.origin, bareRuns.sized, seed) : undefined;
    const sizedBefore = await measureSized(4);
    if (sizedBefore) log(`  sending a hot /jobs answer's bytes: ${Math.round(sizedBefore.reqPerSec)} req/s`);

    // A short bare run right before each row: the row is judged against the bare runs on either side of it, so a
    // burst of other work on the machine moves its reference with it (see docs/bench.md, "Targets").
    const besideSettings = { ...settings, durationS: Math.max(2, Math.ceil(opts.durationS / 2)), warmupS: 1 };
    const bareBeside = (seed: number): Promise<Measurement> =>
      measure({ ...besideSettings, origin: bare.origin, paths: bareRuns.before.paths, seed });
    const outcomes: ScenarioOutcome[] = [];
    const measuredOutcomes: { outcome: ScenarioOutcome; bareBefore: Measurement }[] = [];
    for (const [i, s] of scenarios.entries()) {
      if (!routes.has(s.route)) {
        outcomes.push({
          scenario: s,
          skipped: `the service does not serve ${s.route}`,
          precheckFailures: [],
        });
        continue;
      }
      const precheckFailures = await precheck(server.origin, s);
      const bareRun = await bareBeside(1_000 + i);
      let before: CacheCounters | undefined;
      const origin = server.origin;
      const m = await bench(origin, s, 10 + i, async () => {
        before = await cacheCounters(origin);
      });
      const end = await cacheCounters(origin);
      const lookups = before && end ? end.hit + end.miss - before.hit - before.miss : 0;
      const cacheHitRatio = before && end && lookups > 0 ? (end.hit - before.hit) / lookups : undefined;
      const outcome: ScenarioOutcome = {
        scenario: s,
        measurement: m,
        precheckFailures,
        cacheHitRatio,
        memory: memoryOf(server.pid),
      };
      outcomes.push(outcome);
      measuredOutcomes.push({ outcome, bareBefore: bareRun });
      log(
        `${s.id.padEnd(24)} ${String(Math.round(m.reqPerSec)).padStart(6)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms` +
          `  non-2xx ${m.non2xx}  errors ${m.errors + m.timeouts}  (bare before it ${Math.round(bareRun.reqPerSec)} req/s)`,
      );
    }
    const after = memoryOf(server.pid);
    log('bare route (after)');
    const bareAfter = await bench(bare.origin, bareRuns.after, 3);
    const sizedAfter = await measureSized(5);
    // Each row's neighbours: the bare run before it and the one before the next row (the final run after the last).
    for (const [k, { outcome, bareBefore: b }] of measuredOutcomes.entries()) {
      outcome.bareBeside = [b, measuredOutcomes[k + 1]?.bareBefore ?? bareAfter];
    }
    await server.stop();

    const probePath = routes.has(`${API}/jobs`) ? `${API}/jobs` : '/readyz';
    const firstResponseMs: number[] = [];
    let afterRestartMb: number | undefined;
    for (let i = 0; i < opts.restarts; i++) {
      server = await service.start();
      try {
        firstResponseMs.push(await waitForOk(server, `${server.origin}${probePath}`, 180_000));
        afterRestartMb = memoryOf(server.pid)?.currentMb;
        log(
          `restart ${i + 1}: first 2xx on ${probePath} after ${Math.round(firstResponseMs[i] as number)} ms`,
        );
      } catch (err) {
        // E.g. a migration file edited mid-run: keep the measurements taken so far and say why this one is missing.
        notes.push(`restart ${i + 1} failed: ${(err as Error).message} (see ${relative(ROOT, serviceLog)})`);
        log(`restart ${i + 1} failed: ${(err as Error).message}`);
      } finally {
        await server.stop();
      }
    }

    for (const o of outcomes) {
      if (o.precheckFailures.length > 0) {
        notes.push(`${o.scenario.id}: non-2xx before the run: ${o.precheckFailures.slice(0, 3).join('; ')}`);
      }
    }
    if (opts.nodeFlags.length > 0)
      notes.push(`The service ran with node flags \`${opts.nodeFlags.join(' ')}\`.`);
    const extra = Object.entries(opts.serviceEnv).map(([k, v]) => `${k}=${v}`);
    if (extra.length > 0) notes.push(`The service ran with \`${extra.join(' ')}\` added to its environment.`);
    notes.push(
      'Rate limits raised for the bench: RATE_LIMIT_ANONYMOUS, RATE_LIMIT_TOKEN and RATE_LIMIT_PAGES 10,000,000 (the config maximum) ' +
        'per RATE_LIMIT_WINDOW_MS 1000, so the guard still runs on every request.',
      'autocannon runs inside the bench process on the same cores as the servers; requests carry no If-None-Match ' +
        '(no 304s), and no Accept-Encoding except in the two `Accept-Encoding: gzip, deflate, br` rows, which ' +
        'measure /jobs with compression as a browser asks for it, and the two /jobs page rows, which ask as a browser.',
    );
    const loadAfter = loadavg();
    const mb = (totalmem() / 2 ** 20).toFixed(0);
    const dirty = git(['status', '--porcelain']).split('\n').filter(Boolean).length;
    const db = opts.databaseUrl
      ? `PostgreSQL server (${new URL(catalog.databaseUrl as string).pathname.slice(1)})`
      : `embedded PGlite (DATA_DIR ${relative(ROOT, catalog.dataDir as string)})`;
    const input: ReportInput = {
      title: `Catalog API benchmark, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      facts: [
        ['response cache', responseCacheState()],
        ['machine', `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${mb} MB RAM, Linux ${release()}`],
        ['node', process.version],
        ['commit', `${git(['rev-parse', '--short', 'HEAD'])} with ${dirty} uncommitted changes in the tree`],
        ['database', db],
        [
          'catalog',
          `${opts.jobs.toLocaleString('en-US')} active jobs (+${Math.round(opts.jobs * opts.inactiveRatio).toLocaleString('en-US')} closed) ` +
            `across ${opts.companies.toLocaleString('en-US')} companies, seed ${opts.seed}, anchored on ${manifest.anchorDay}`,
        ],
        [
          'generation',
          `${(manifest.generationMs.total / 1000).toFixed(1)} s (companies ${(manifest.generationMs.companies / 1000).toFixed(1)} s, ` +
            `jobs ${(manifest.generationMs.jobs / 1000).toFixed(1)} s, embeddings ${(manifest.generationMs.embed / 1000).toFixed(1)} s, VACUUM ANALYZE ${(manifest.generationMs.analyze / 1000).toFixed(1)} s)` +
            (catalog.generated ? ', this run' : `, cached from ${manifest.generatedAt.slice(0, 16)}`),
        ],
        [
          'load',
          `autocannon, ${opts.connections} connections, ${opts.durationS} s per scenario after ${opts.warmupS} s warm-up, ` +
            'anonymous unless noted',
        ],
        [
          'load average (1/5/15 min)',
          `${loadBefore.map((l) => l.toFixed(2)).join(' / ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' / ')} after ` +
            `(other work shares these ${cpus().length} cores)`,
        ],
        [
          'embeddings',
          `${manifest.embedding.model}: ${manifest.embedding.rows.toLocaleString('en-US')} rows in ` +
            `${(manifest.generationMs.embed / 1000).toFixed(1)} s; ${Math.round(manifest.embedding.catchUpJobsPerSec).toLocaleString('en-US')} ` +
            `jobs/s through the indexer's embedIds (query, embed, write), ${Math.round(manifest.embedding.embedderJobsPerSec).toLocaleString('en-US')} ` +
            'jobs/s through the embedder alone (target ≥ 5,000 jobs/s); the full staleness scan ' +
            `(first start, model change, reindex) took ${Math.round(manifest.embedding.staleCheckMs)} ms, a restart's ` +
            `catch-up from its mark ${Math.round(manifest.embedding.resumeMs ?? Number.NaN)} ms`,
        ],
        ['first start of the run', `${(firstStartMs / 1000).toFixed(2)} s to /readyz`],
      ],
      bare: { before: bareBefore, mixedClient: bareMixed, after: bareAfter },
      sized:
        sizedAnswer && sizedBefore && sizedAfter
          ? { before: sizedBefore, after: sizedAfter, ...sizedAnswer.size }
          : undefined,
      outcomes,
      startup: { firstResponseMs, probePath },
      memory: after
        ? { afterRunPeakMb: after.peakMb, afterRunCurrentMb: after.currentMb, afterRestartMb }
        : undefined,
      notes,
    };
    const report = renderReport(input);
    process.stdout.write(report);
    if (opts.out !== '-') {
      const suffix = `${opts.quick ? '-quick' : ''}${opts.databaseUrl ? '-postgres' : ''}`;
      const file = opts.out ?? join(ROOT, 'bench/results', `latest-catalog${suffix}.md`);
      mkdirSync(resolve(file, '..'), { recursive: true });
      writeFileSync(file, report);
      log(`report written to ${relative(ROOT, file)}`);
    }
  } finally {
    await server.stop();
    await bare.stop();
  }
}

let parsed: BenchOptions | 'help';
try {
  parsed = parseOptions(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (parsed === 'help') process.stdout.write(USAGE);
else await run(parsed);
