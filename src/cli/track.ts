import cliProgress from 'cli-progress';
import { type Command, InvalidArgumentError } from 'commander';
import { COMPANY_CATEGORIES } from '../catalog/vocabulary.js';
import type { Config } from '../config.js';
import { createDeps } from '../deps.js';
import { componentLogger } from '../logger.js';
import { runTrack, type TrackOutcome, type TrackSummary } from '../pipeline/track/run.js';
import { selectEntries, type TrackFilters } from '../pipeline/track/select.js';
import { loadRegistry } from '../registry/load.js';
import { holdEventLoop } from '../runtime/hold-event-loop.js';
import { isProvider } from '../sources/index.js';

/**
 * `frontline track`: onboards the registry of AI companies (registry/companies.yaml), or the part the options
 * select, through the durable onboarding workflow (docs/tracking.md). `--dry-run` prints the selection and
 * touches neither the network nor the database. Exits 0 only when every selected company was tracked.
 */

interface TrackOpts {
  only?: string[];
  vendor?: string;
  category?: string;
  limit?: number;
  dryRun?: boolean;
  json?: boolean;
  registry?: string;
}

const domains = (v: string) => v.split(',').map((d) => d.trim().toLowerCase());
const positive = (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError('a whole number from 1');
  return Number(v);
};
const vendor = (v: string) => {
  if (!isProvider(v)) throw new InvalidArgumentError('a vendor with an adapter (docs/sources.md)');
  return v;
};
const category = (v: string) => {
  if (!(COMPANY_CATEGORIES as readonly string[]).includes(v))
    throw new InvalidArgumentError(COMPANY_CATEGORIES.join(', '));
  return v;
};

type Out = (line: string) => void;

export function registerTrackCommand(program: Command, loadConfig: () => Config, out: Out): void {
  program
    .command('track')
    .description('Onboard the registry of AI companies (or a part of it) and keep their boards fresh')
    .option('--only <domains>', 'only these registry domains, comma-separated', domains)
    .option('--vendor <vendor>', 'only companies with a board on this vendor', vendor)
    .option('--category <category>', 'only companies of this category', category)
    .option('--limit <n>', 'at most this many companies', positive)
    .option('--dry-run', 'print the selection; no network, no database')
    .option('--json', 'print the selection (--dry-run) or the summary as JSON')
    .option('--registry <file>', 'a registry file other than the one shipped')
    .action(async (opts: TrackOpts) => {
      const config = loadConfig();
      const registry = await loadRegistry(opts.registry);
      const allowed = new Set(config.track.vendors);
      const filters: TrackFilters = { ...opts };
      const { entries, excluded } = selectEntries(registry, filters, allowed);
      if (opts.dryRun) {
        if (opts.json) out(JSON.stringify(entries));
        else for (const e of entries) out(`${e.domain}  ${e.name}  ${e.category}  ${boardsText(e.boards)}`);
        return;
      }
      const summary = await trackSelection(config, entries, excluded.length);
      if (opts.json) out(JSON.stringify({ ...summary, excluded }));
      else printSummary(summary, excluded, out);
      if (summary.failed > 0) process.exitCode = 1;
    });
}

const boardsText = (boards: ReadonlyArray<{ vendor: string; board: string }>) =>
  boards.map((b) => `${b.vendor}/${b.board}`).join(' ');

/**
 * The process tracking runs in: a worker of the pipeline with `track`'s politeness (TRACK_HOST_CONCURRENCY,
 * TRACK_HOST_GAP_MS). With FRONTLINE_ROLE=api it only enqueues and waits for the fleet's workers.
 */
async function trackSelection(
  config: Config,
  entries: Parameters<typeof runTrack>[0],
  excluded: number,
): Promise<TrackSummary> {
  const log = componentLogger(config, 'track');
  const release = holdEventLoop();
  const deps = await createDeps({
    ...config,
    role: config.role === 'api' ? 'api' : 'worker',
    outboundHostConcurrency: Math.min(config.outboundHostConcurrency, config.track.hostConcurrency),
    outboundApiGapMs: Math.max(config.outboundApiGapMs, config.track.hostGapMs),
  });
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        { format: 'track [{bar}] {value}/{total} | {failed} failed | eta {eta_formatted}', hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let failed = 0;
  try {
    await deps.pipeline.start();
    log.info({ selected: entries.length, excluded, vendors: config.track.vendors }, 'track started');
    bar?.start(entries.length, 0, { failed });
    return await runTrack(entries, {
      engine: deps.pipeline.engine,
      allowed: new Set(config.track.vendors),
      onOutcome: (o: TrackOutcome, done, total) => {
        if (!o.ok) failed += 1;
        if (bar) bar.update(done, { failed });
        else log.info({ ...o, done, total }, o.ok ? 'company tracked' : 'company failed');
      },
    });
  } finally {
    bar?.stop();
    await deps.close();
    release();
  }
}

function printSummary(s: TrackSummary, excluded: Array<{ domain: string; reason: string }>, out: Out): void {
  out(`tracked ${s.tracked} of ${s.selected} companies, ${s.jobs} jobs listed, ${s.failed} failed`);
  for (const [reason, n] of Object.entries(s.failedByReason).sort()) out(`  failed (${reason}): ${n}`);
  for (const o of s.outcomes.filter((x) => !x.ok)) out(`  ${o.domain}: ${o.error ?? o.reason}`);
  if (excluded.length > 0) out(`not tracked by vendor policy (TRACK_VENDORS): ${excluded.length}`);
}
