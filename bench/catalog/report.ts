import type { Measurement } from './measure.js';
import type { Scenario } from './scenarios.js';
import { TARGETS } from './scenarios.js';

/** Renders the bench's results as a commit-ready markdown report. */

export interface ScenarioOutcome {
  scenario: Scenario;
  measurement?: Measurement;
  /** Why the scenario was not measured. */
  skipped?: string;
  /** Statuses seen when each URL kind was requested once before the run (non-2xx only). */
  precheckFailures: string[];
  /** Share of the measured run's lookups the response cache answered; undefined without a cache. */
  cacheHitRatio?: number;
  /** The service's RSS right after the scenario, and its peak so far (Linux): which scenario sets the peak. */
  memory?: { currentMb: number; peakMb: number };
  /** The bare runs right before and right after this row: its reference is their mean. */
  bareBeside?: [Measurement, Measurement];
}

export interface StartupFigures {
  /** ms from spawn to the first 2xx answer, one per restart. */
  firstResponseMs: number[];
  probePath: string;
}

export interface ReportInput {
  title: string;
  facts: [string, string][];
  bare: { before: Measurement; mixedClient: Measurement; after: Measurement };
  /** The bare route sending a hot /jobs answer's bytes, before the rows and after them. */
  sized?: { before: Measurement; after: Measurement; bodyBytes: number; headerLines: number } | undefined;
  outcomes: ScenarioOutcome[];
  startup: StartupFigures | undefined;
  memory:
    | { afterRunPeakMb: number; afterRunCurrentMb: number; afterRestartMb: number | undefined }
    | undefined;
  notes: string[];
}

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pct = (r: number): string => `${fmt(r * 100)}%`;
const verdict = (ok: boolean): string => (ok ? 'pass' : '**FAIL**');

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

export function bareReference(bare: ReportInput['bare']): number {
  return (bare.before.reqPerSec + bare.after.reqPerSec) / 2;
}

/** A row's reference: the mean of the bare runs beside it, or the run's before/after mean without them. */
export function rowReference(o: ScenarioOutcome, runReference: number): number {
  return o.bareBeside ? (o.bareBeside[0].reqPerSec + o.bareBeside[1].reqPerSec) / 2 : runReference;
}

function problems(m: Measurement): string {
  const bad = Object.entries(m.statuses)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, n]) => `${fmt(n)}×${code}`);
  if (m.errors > 0) bad.push(`${fmt(m.errors)} errors`);
  if (m.timeouts > 0) bad.push(`${fmt(m.timeouts)} timeouts`);
  if (m.requests === 0) bad.push('no request completed');
  return bad.length ? bad.join(', ') : '0';
}

function row(o: ScenarioOutcome, runReference: number): string {
  const reference = rowReference(o, runReference);
  const s = o.scenario;
  const sent = o.measurement && s.paths.length > 1 ? ` (${fmt(o.measurement.distinctSent)} sent)` : '';
  const urls = s.paths.length === 1 ? '1' : `${fmt(s.paths.length)}${sent}`;
  const conns = s.connections === 1 ? ' (1 conn.)' : '';
  if (!o.measurement)
    return `| ${s.label} | ${s.mode}${conns} | ${urls} | – | – | – | – | – | – | – | – | – | – | skipped: ${o.skipped} |`;
  const m = o.measurement;
  // Only answers count: a refusal (503 under load shedding) is cheap and says nothing of the endpoint's capacity.
  const answered = m.requests > 0 ? m.reqPerSec * (1 - (m.non2xx + m.errors) / m.requests) : 0;
  const ratio = answered / reference;
  const checks: boolean[] = [];
  if (s.minRatio !== undefined) checks.push(ratio >= s.minRatio);
  if (s.maxP99Ms !== undefined) checks.push(m.p99Ms < s.maxP99Ms);
  const clean = m.non2xx === 0 && m.errors === 0 && m.timeouts === 0 && m.requests > 0;
  checks.push(clean);
  const target = [
    s.minRatio !== undefined ? `≥ ${pct(s.minRatio)}` : '',
    s.maxP99Ms !== undefined ? `p99 < ${s.maxP99Ms}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const judged = s.diagnostic && clean ? `diagnostic: ${s.diagnostic}` : verdict(checks.every(Boolean));
  return (
    `| ${s.label} | ${s.mode}${conns} | ${urls} | ${fmt(answered)}${answered < m.reqPerSec ? ` (of ${fmt(m.reqPerSec)})` : ''} | ${fmt(reference)} | ${pct(ratio)} | ${target || '–'} | ` +
    `${fmt(m.p50Ms, 1)} | ${fmt(m.p99Ms, 1)} | ${fmt(m.maxMs)} | ${problems(m)} | ` +
    `${o.cacheHitRatio === undefined ? '–' : pct(o.cacheHitRatio)} | ` +
    `${o.memory ? `${fmt(o.memory.currentMb)} (${fmt(o.memory.peakMb)})` : '–'} | ${judged} |`
  );
}

export function renderReport(input: ReportInput): string {
  const reference = bareReference(input.bare);
  const drift = input.bare.after.reqPerSec / input.bare.before.reqPerSec - 1;
  const lines: string[] = [`# ${input.title}`, '', '| | |', '|---|---|'];
  for (const [k, v] of input.facts) lines.push(`| ${k} | ${v} |`);

  lines.push(
    '',
    '## Baseline (bare Fastify route, same run, same cores)',
    '',
    '| Run | req/s | p50 ms | p99 ms |',
    '|---|---:|---:|---:|',
    `| before the service scenarios | ${fmt(input.bare.before.reqPerSec)} | ${fmt(input.bare.before.p50Ms, 1)} | ${fmt(input.bare.before.p99Ms, 1)} |`,
    `| URL drawn per request (client cost of mixed runs) | ${fmt(input.bare.mixedClient.reqPerSec)} | ${fmt(input.bare.mixedClient.p50Ms, 1)} | ${fmt(input.bare.mixedClient.p99Ms, 1)} |`,
    `| after the service scenarios | ${fmt(input.bare.after.reqPerSec)} | ${fmt(input.bare.after.p50Ms, 1)} | ${fmt(input.bare.after.p99Ms, 1)} |`,
    '',
    `Mean of before and after: ${fmt(reference)} req/s (drift ${drift >= 0 ? '+' : ''}${pct(drift)}).`,
    '',
  );
  if (input.sized) {
    const { before, after, bodyBytes, headerLines } = input.sized;
    const sized = (before.reqPerSec + after.reqPerSec) / 2;
    lines.push(
      `The same bare route sending the bytes of the hot \`/jobs\` row's answer (its ${fmt(headerLines)} header lines ` +
        `and ${fmt(bodyBytes)}-byte body): ${fmt(before.reqPerSec)} req/s before the rows and ${fmt(after.reqPerSec)} ` +
        `after, ${pct(sized / reference)} of the bare route. The client (autocannon, on the same cores) pays that much ` +
        'more to receive a catalog answer than the small constant: it is the ceiling of a hot `/jobs` row here, with ' +
        'no service behind it (docs/bench.md, "Targets").',
      '',
    );
  }
  const beside = input.outcomes.flatMap((o) => (o.bareBeside ? [o.bareBeside[0].reqPerSec] : []));
  if (beside.length > 0) {
    const sorted = [...beside].sort((a, b) => a - b);
    lines.push(
      `Each row is judged against the bare runs right before and right after it (column "bare beside": their mean). ` +
        `The ${fmt(beside.length)} bare runs between rows ranged ${fmt(sorted[0] as number)}–${fmt(sorted.at(-1) as number)} req/s ` +
        `(median ${fmt(median(beside))}).`,
      '',
    );
  } else {
    lines.push('Reference for the ratios: the mean of before and after.', '');
  }
  lines.push(
    '## Catalog endpoints',
    '',
    '| Endpoint | Mode | URLs | req/s | bare beside | vs bare | target | p50 ms | p99 ms | max ms | non-2xx / errors | cache hits | RSS MB after (peak so far) | verdict |',
    '|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---|',
  );
  for (const o of input.outcomes) lines.push(row(o, reference));

  lines.push('', '## Start-up and memory', '', '| Measure | Value | Target | verdict |', '|---|---|---|---|');
  if (input.startup && input.startup.firstResponseMs.length > 0) {
    const med = median(input.startup.firstResponseMs);
    const each = input.startup.firstResponseMs.map((ms) => fmt(ms / 1000, 2)).join(', ');
    lines.push(
      `| spawn to first 2xx on \`${input.startup.probePath}\`, median of ${input.startup.firstResponseMs.length} restarts (${each} s) | ${fmt(med / 1000, 2)} s | < 2 s | ${verdict(med < 2_000)} |`,
    );
  }
  if (input.memory) {
    const m = input.memory;
    lines.push(
      `| RSS peak over the whole run (VmHWM) | ${fmt(m.afterRunPeakMb)} MB | < 500 MB | ${verdict(m.afterRunPeakMb < 500)} |`,
      `| RSS at the end of the run (VmRSS) | ${fmt(m.afterRunCurrentMb)} MB | < 500 MB | ${verdict(m.afterRunCurrentMb < 500)} |`,
    );
    if (m.afterRestartMb !== undefined) {
      lines.push(`| RSS right after a restart and its first answer | ${fmt(m.afterRestartMb)} MB | – | – |`);
    }
  }

  lines.push(
    '',
    '## Targets',
    '',
    `Targets (embedded database, limits raised): hot ≥ ${pct(TARGETS.hotRatio)} and mixed ≥ ${pct(TARGETS.mixedRatio)} ` +
      `of the bare route's req/s, p99 < ${TARGETS.p99Ms} ms at 32 connections, first request after a restart < 2 s, ` +
      `RSS < 500 MB. Search p99 < ${TARGETS.searchSingleP99Ms} ms for a single client. ` +
      'A row passes when it meets its targets and every answer was 2xx (all URLs are valid requests). req/s and the ratio count 2xx answers only; where some were refused, the rate of all responses follows in brackets.',
  );
  if (input.notes.length > 0) {
    lines.push('', '## Notes', '');
    for (const n of input.notes) lines.push(`- ${n}`);
  }
  return `${lines.join('\n')}\n`;
}
