import { badRequest } from '../../errors.js';
import { optionalText } from './params.js';

/** Instants in query parameters, and the whole UTC days a window covers (the day count tables are by day). */

const ISO_INSTANT = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * An ISO 8601 date (midnight UTC) or date-time (UTC when it names no offset; fractions down to microseconds) as
 * microseconds since the epoch and the same instant as a timestamptz literal; a 400 naming `name` otherwise.
 */
export function instantParam(name: string, value: unknown): { us: number; sql: string } | undefined {
  const text = optionalText(value);
  if (text === undefined) return undefined;
  const m = ISO_INSTANT.exec(text);
  const ms = m
    ? Date.parse(`${m[1]}T${m[2] ?? '00:00'}${m[2]?.length === 5 ? ':00' : ''}${m[4] ?? 'Z'}`)
    : NaN;
  // Date.parse rolls 2026-02-30 over to March: the day must read back as written (offsets aside).
  const valid =
    m && !Number.isNaN(ms) && (m[4] !== undefined || new Date(ms).toISOString().startsWith(m[1]!));
  if (!valid) {
    throw badRequest(
      `Invalid query parameter '${name}': '${text}' is not an ISO 8601 date (2026-11-20) or date-time ` +
        '(2026-11-20T09:30:00Z)',
    );
  }
  const fraction = (m[3] ?? '').padEnd(6, '0');
  const us = ms * 1000 + Number(fraction);
  const iso = new Date(ms + Math.floor(Number(fraction) / 1000)).toISOString();
  return { us, sql: `${iso.slice(0, 23)}${fraction.slice(3)}Z` };
}

export type Instant = NonNullable<ReturnType<typeof instantParam>>;

export const DAY_US = 86_400_000_000;
export const midnight = (us: number) => new Date(us / 1000).toISOString();

/**
 * The whole UTC days inside a posted window, as the midnights [first, end) in microseconds: first is the first
 * midnight at or after since, end the last at or before before (never before first). Rows posted before first or
 * from end on fall in the days the bounds cut; undefined: the window is open on that side.
 */
export function wholeDays(v: { since?: Instant; before?: Instant }): { first?: number; end?: number } {
  const first = v.since && Math.ceil(v.since.us / DAY_US) * DAY_US;
  const end =
    v.before && Math.max(Math.floor(v.before.us / DAY_US) * DAY_US, first ?? Number.NEGATIVE_INFINITY);
  return { ...(first !== undefined && { first }), ...(end !== undefined && { end }) };
}
