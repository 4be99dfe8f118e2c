/**
 * Timestamps the in-process replica keeps travel as float8 microseconds since the epoch: exact (2^53 µs is ~285
 * years), ordered exactly as the column, and one number instead of a string to parse. Shown as ISO 8601 with
 * milliseconds, truncated like a driver's Date, so replica and SQL answers are byte-identical.
 */
export const micros = (column: string): string => `(extract(epoch FROM ${column}) * 1000000)::float8`;

const DAY_MS = 86_400_000;
/** 10000-01-01: from there on toISOString writes six-digit years. */
const END_DAY = 2_932_897;
const padded = (n: number, width: number, after: string) =>
  Array.from({ length: n }, (_, i) => String(i).padStart(width, '0') + after);
const HOURS = padded(24, 2, ':');
const MINUTES = padded(60, 2, ':');
const SECONDS = padded(60, 2, '.');
const MILLIS = padded(1000, 3, 'Z');
/** "YYYY-MM-DDT" by day since the epoch: a page's timestamps fall on a few days. */
const dayPrefixes = new Map<number, string>();
const DAY_PREFIXES_KEPT = 4096;

/**
 * Same string as `new Date(Math.floor(us / 1000)).toISOString()` (test/catalog/micros.test.ts compares them), at
 * about a third of its cost: a page of 50 list items formats 50 of these, and toISOString was ~3 % of a fresh
 * /jobs page's CPU. Days outside years 1970–9999 go through Date.
 */
export function isoFromMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const day = Math.floor(ms / DAY_MS);
  if (!(day >= 0 && day < END_DAY)) return new Date(ms).toISOString();
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= DAY_PREFIXES_KEPT) dayPrefixes.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  return prefix + HOURS[(rest - minute) / 60] + MINUTES[minute] + SECONDS[second] + MILLIS[milli];
}
