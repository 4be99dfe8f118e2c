/**
 * Timestamps the in-process replica keeps travel as float8 microseconds since the epoch: exact (2^53 µs is ~285
 * years), ordered exactly as the column, and one number instead of a string to parse. Shown as ISO 8601 with
 * milliseconds, truncated like a driver's Date, so replica and SQL answers are byte-identical.
 */
export const micros = (column: string): string => `(extract(epoch FROM ${column}) * 1000000)::float8`;

export const isoFromMicros = (us: number): string => new Date(Math.floor(us / 1000)).toISOString();
