import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far V8 lets its old generation grow past what the last full collection kept before it collects
 * again: by `percent` (HEAP_GROWING_PERCENT), where V8's own heuristic, from its measured collection and
 * allocation speeds, chose ~1.9x on this service. The replica of the catalog keeps ~100–150 MB live at 100k
 * jobs, so that heuristic left up to ~140 MB of garbage resident before a collection, and it set the RSS peak.
 * At 50, full collections come about twice as often and paused the event loop ~0.2 s in all over a two-minute
 * bench, against ~0.07 s (docs/deployment.md, Memory). 0 leaves V8's heuristic.
 *
 * V8 reads the flag at each collection, so setting it while the process runs takes effect (Node's NODE_OPTIONS
 * does not accept it, and a command-line flag would have to be repeated in every way the service is started).
 * `worker` sets it at its start; `serve` once a start's index load is done, as the cap slowed the start itself.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
