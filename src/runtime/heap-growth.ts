import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Caps how far V8 lets its old generation grow past what the last full collection kept before it collects
 * again: by `percent` (HEAP_GROWING_PERCENT), where V8's own heuristic, from its measured collection and
 * allocation speeds, chose nearly twice on this service. The replica of the catalog keeps a large live heap, so
 * that heuristic left about as much garbage resident before a collection, and it set the RSS peak. 40 lowers the
 * catalog bench's RSS peak with its rows within the run-to-run spread; at 30 the more frequent full collections
 * took enough of the second core to fail its hot rows (docs/performance.md).
 * 0 leaves V8's heuristic.
 *
 * V8 reads the flag at each collection, so setting it while the process runs takes effect (Node's NODE_OPTIONS
 * does not accept it, and a command-line flag would have to be repeated in every way the service is started).
 * `worker` sets it at its start; `serve` once a start's index load is done, as the cap slowed the start itself.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * One full collection now, so the cap above applies from what is live once a start's load is done. Otherwise the
 * old generation's next limit is the one V8 set during the load (from the load's garbage, at its own heuristic),
 * and the first minutes of traffic ran well above the steady state. `gc` is exposed to a fresh context only,
 * for this one call; the process's own global never gains it.
 */
export function collectAfterLoad(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  setFlagsFromString('--no-expose-gc');
  gc?.();
}
