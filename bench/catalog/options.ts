import { parseArgs } from 'node:util';
import { MIN_MIXED_URLS } from './scenarios.js';

/** Command-line options of `npm run bench` (bench/catalog/run.ts). `--help` prints them. */
export interface BenchOptions {
  seed: number;
  jobs: number;
  companies: number;
  /** Closed postings on top of the active ones, as a fraction of them. */
  inactiveRatio: number;
  /** Seconds measured per scenario. */
  durationS: number;
  /** Seconds of discarded warm-up before each scenario. */
  warmupS: number;
  connections: number;
  /** Distinct URLs drawn for each mixed scenario (a mixed run needs at least 1,000). */
  mixedUrls: number;
  /** Restarts timed for "first response after start". */
  restarts: number;
  /** PostgreSQL server to bench against (a fresh database is created on it); embedded PGlite when absent. */
  databaseUrl: string | undefined;
  /** Only scenarios whose id contains one of these substrings (bare rows always run). */
  only: string[];
  build: boolean;
  /** Markdown report path; '-' prints only. */
  out: string | undefined;
  generateOnly: boolean;
  quick: boolean;
  /** Directory for the service's V8 CPU profiles (one per service process, written when it stops). */
  cpuProfDir: string | undefined;
  /** Extra node flags for the service processes (e.g. V8 heap settings), split on spaces. */
  nodeFlags: string[];
  /** Extra environment for the service processes (A/B runs of a setting), from repeated --env NAME=VALUE. */
  serviceEnv: Record<string, string>;
}

export const USAGE = `Usage: npm run bench -- [options]        (npm run bench:quick for a short smoke run)

  --seed N             PRNG seed of the synthetic catalog (default 1)
  --jobs N             active jobs (default 100000; quick 10000)
  --companies N        companies (default 5000; quick 500)
  --inactive-ratio F   closed postings added, as a fraction of active jobs (default 0.1)
  --duration S         seconds measured per scenario (default 10; quick 3)
  --warmup S           seconds of warm-up per scenario (default 2; quick 1)
  --connections N      concurrent connections (default 32)
  --mixed-urls N       distinct URLs per mixed scenario (default 10000; quick 2000; at least 1000)
  --restarts N         restarts timed for first response (default 3)
  --database-url URL   bench against PostgreSQL: a fresh database is created on this server
  --only a,b           run only scenarios whose id contains a or b (bare rows always run)
  --skip-build         do not run npm run build first
  --out FILE           report path (default bench/results/latest-catalog[-quick][-postgres].md; '-' = stdout only)
  --generate-only      build (or find cached) catalog data and stop
  --quick              10k jobs / 500 companies, 3 s per scenario
  --cpu-prof DIR       write a V8 CPU profile of each service process into DIR (open in Chrome DevTools)
  --node-flags FLAGS   extra node flags for the service, e.g. "--max-semi-space-size=4" (memory/throughput trade-offs)
  --env NAME=VALUE     extra environment for the service (repeatable), e.g. --env SEARCH_SCAN_THREAD_ROWS=20000
`;

function num(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number >= ${min} (got "${raw}")`);
  return n;
}

export function parseOptions(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      seed: { type: 'string' },
      jobs: { type: 'string' },
      companies: { type: 'string' },
      'inactive-ratio': { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'mixed-urls': { type: 'string' },
      restarts: { type: 'string' },
      'database-url': { type: 'string' },
      only: { type: 'string' },
      'skip-build': { type: 'boolean' },
      out: { type: 'string' },
      'generate-only': { type: 'boolean' },
      quick: { type: 'boolean' },
      'cpu-prof': { type: 'string' },
      'node-flags': { type: 'string' },
      env: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const quick = values.quick ?? false;
  const opts: BenchOptions = {
    seed: num('seed', values.seed, 1, 0),
    jobs: num('jobs', values.jobs, quick ? 10_000 : 100_000, 1),
    companies: num('companies', values.companies, quick ? 500 : 5_000, 1),
    inactiveRatio: num('inactive-ratio', values['inactive-ratio'], 0.1, 0),
    durationS: num('duration', values.duration, quick ? 3 : 10, 1),
    warmupS: num('warmup', values.warmup, quick ? 1 : 2, 0),
    connections: num('connections', values.connections, 32, 1),
    mixedUrls: num('mixed-urls', values['mixed-urls'], quick ? 2_000 : 10_000, MIN_MIXED_URLS),
    restarts: num('restarts', values.restarts, 3, 0),
    databaseUrl: values['database-url'],
    only: values.only ? values.only.split(',').filter(Boolean) : [],
    build: !values['skip-build'],
    out: values.out,
    generateOnly: values['generate-only'] ?? false,
    quick,
    cpuProfDir: values['cpu-prof'],
    nodeFlags: (values['node-flags'] ?? '').split(' ').filter(Boolean),
    serviceEnv: {},
  };
  for (const pair of values.env ?? []) {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`--env takes NAME=VALUE (got "${pair}")`);
    opts.serviceEnv[pair.slice(0, at)] = pair.slice(at + 1);
  }
  if (!Number.isInteger(opts.seed) || !Number.isInteger(opts.jobs) || !Number.isInteger(opts.companies)) {
    throw new Error('--seed, --jobs and --companies must be integers');
  }
  if (opts.databaseUrl && !/^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    throw new Error('--database-url must be a postgres:// URL');
  }
  return opts;
}
