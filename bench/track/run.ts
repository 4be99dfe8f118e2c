/**
 * bench:track: `frontline track` over a registry against local fakes of every vendor (test/support/track-world.ts,
 * the faults of the test planted too), at a chosen size. Prints wall time, peak RSS of each process, requests per
 * vendor host per minute and the catalog size reached.
 *
 *   npm run bench:track                                  # the shipped registry, embedded database
 *   npm run bench:track -- --companies 1000 --postings 5 # the registry grown with synthetic companies
 *   BENCH_DATABASE_URL=postgres://… npm run bench:track -- --workers 2   # PostgreSQL, track + 2 workers
 *
 * With --workers the track process only enqueues and waits (FRONTLINE_ROLE=api); the workers run the onboardings
 * with the same politeness (OUTBOUND_HOST_CONCURRENCY=1 and the gap), each its own: per host, up to one request
 * in flight per worker.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import {
  DEFAULT_REGISTRY_FILE,
  loadRegistry,
  type RegistryEntry,
  sourcesFileOf,
} from '../../src/registry/load.js';
import { type Child, startChild } from '../../test/pipeline/support.js';
import { freshDatabase, freshDataDir } from '../../test/support/db.js';
import { startsByHost, startTrackWorld } from '../../test/support/track-world.js';
import { memoryOf } from '../catalog/processes.js';

const { values: args } = parseArgs({
  options: {
    companies: { type: 'string' },
    postings: { type: 'string', default: '5' },
    gap: { type: 'string', default: '100' },
    workers: { type: 'string', default: '0' },
    concurrency: { type: 'string', default: '4' },
  },
});

/** The shipped registry, grown to `n` companies with synthetic ones (clones of its rows on .example domains). */
async function benchRegistry(n: number | undefined): Promise<{ file: string; entries: RegistryEntry[] }> {
  const base = await loadRegistry();
  if (n === undefined || n <= base.length) {
    const entries = n === undefined ? base : base.slice(0, n);
    return writeRegistry(entries);
  }
  const extra: RegistryEntry[] = [];
  for (let i = 0; extra.length < n - base.length; i += 1) {
    const row = base[i % base.length] as RegistryEntry;
    const k = String(extra.length).padStart(5, '0');
    extra.push({
      ...row,
      name: `${row.name} ${k}`,
      domain: `bench-${k}.example`,
      boards: row.boards.map((b) => ({ ...b, board: b.vendor === 'workday' ? b.board : `${b.board}-${k}` })),
    });
  }
  return writeRegistry([...base, ...extra].sort((a, b) => a.domain.localeCompare(b.domain)));
}

function writeRegistry(entries: RegistryEntry[]): { file: string; entries: RegistryEntry[] } {
  const dir = mkdtempSync(join(tmpdir(), 'frontline-bench-registry-'));
  const file = join(dir, 'companies.yaml');
  writeFileSync(file, stringify(entries));
  copyFileSync(sourcesFileOf(DEFAULT_REGISTRY_FILE), sourcesFileOf(file));
  return { file, entries };
}

/** Peak RSS (MB) of running children, sampled until they exit. */
function samplePeaks(children: Child[]): { stop(): number[] } {
  const peaks = children.map(() => 0);
  const timer = setInterval(() => {
    children.forEach((c, i) => {
      const m = c.proc.pid ? memoryOf(c.proc.pid) : undefined;
      if (m) peaks[i] = Math.max(peaks[i] ?? 0, m.peakMb);
    });
  }, 250);
  return {
    stop: () => {
      clearInterval(timer);
      return peaks;
    },
  };
}

async function main(): Promise<void> {
  const { file, entries } = await benchRegistry(args.companies ? Number(args.companies) : undefined);
  const postings = Number(args.postings);
  const workers = Number(args.workers);
  const world = await startTrackWorld(entries, { postings });
  const pgBase = process.env.BENCH_DATABASE_URL;
  const database = pgBase ? await freshDatabase(pgBase) : undefined;
  const env: Record<string, string> = {
    ...(database?.url ? { DATABASE_URL: database.url } : { DATA_DIR: await freshDataDir() }),
    OUTBOUND_HOST_MAP: world.hostMap,
    TRACK_VENDORS: 'all',
    TRACK_HOST_GAP_MS: String(args.gap),
    OUTBOUND_HOST_CONCURRENCY: '1',
    OUTBOUND_API_GAP_MS: String(args.gap),
    OUTBOUND_HOST_GAPS: process.env.OUTBOUND_HOST_GAPS ?? 'none',
    WORKER_CONCURRENCY: String(args.concurrency),
    LOG_LEVEL: 'warn',
  };
  const fleet: Child[] = [];
  for (let i = 0; i < workers; i += 1)
    fleet.push(await startChild({ ...env, DBOS__VMID: `bench-worker-${i}` }, { command: 'worker' }));
  const started = performance.now();
  const track = await startChild(
    { ...env, ...(workers > 0 ? { FRONTLINE_ROLE: 'api' } : {}) },
    { command: 'track', args: ['--json', '--registry', file] },
  );
  const sampler = samplePeaks([track, ...fleet]);
  const code = await track.exited;
  const seconds = (performance.now() - started) / 1000;
  const [trackPeak, ...workerPeaks] = sampler.stop();
  for (const w of fleet) await w.stop();
  const line = track
    .output()
    .split('\n')
    .find((l) => l.startsWith('{"selected"'));
  const summary = line ? JSON.parse(line) : { error: track.output().slice(-2000) };
  const perHost = [...startsByHost(world.ats)].map(([host, starts]) => {
    const minutes = Math.max(((starts.at(-1) ?? 0) - (starts[0] ?? 0)) / 60_000, 1 / 60);
    return `${host.replace(/:\d+$/, '')} ${starts.length} req, ${Math.round(starts.length / minutes)}/min`;
  });
  const db = database ? `PostgreSQL, track + ${workers} workers` : 'embedded (PGlite)';
  console.log(
    `bench:track: ${entries.length} companies, ${postings} postings per board, gap ${args.gap} ms, ${db}`,
  );
  console.log(`exit ${code}, wall ${seconds.toFixed(1)} s`);
  console.log(
    `peak RSS: track ${Math.round(trackPeak ?? 0)} MB${workerPeaks.map((p, i) => `, worker ${i + 1} ${Math.round(p)} MB`).join('')}`,
  );
  console.log(
    `catalog: ${summary.tracked} companies tracked, ${summary.jobs} jobs; failed ${summary.failed} ${JSON.stringify(summary.failedByReason ?? {})}`,
  );
  for (const h of perHost) console.log(`  ${h}`);
  await world.close();
  await database?.drop();
}

await main();
