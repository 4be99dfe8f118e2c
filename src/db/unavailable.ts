/**
 * The database refusing or dropping connections, all retryable: socket errors, SQLSTATE class 08 (connection
 * exception), 57P01-57P03 (shutting down, crashed, starting up), 53300 (too many connections) and 55000 (the
 * database is not accepting connections, e.g. while it is being created or dropped). The HTTP layer answers them
 * 503 with Retry-After on every endpoint; a start retries them with backoff (see retryWhileUnavailable).
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '55000',
]);

/** node-postgres's own wording for a connection that timed out, closed, or was never made. */
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|ECONNREFUSED|ECONNRESET|Client has encountered a connection error/i;

function unavailableItself(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  const message = (err as { message?: unknown }).message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}

/**
 * Whether err, or an error it wraps (`cause`, the `errors` of an AggregateError: the workflow engine wraps a failed
 * connection in its own initialization error, and a connect tried on several addresses fails with all of them),
 * says the database is unreachable.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    if (unavailableItself(e)) return true;
    queue.push((e as { cause?: unknown }).cause);
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner)) queue.push(...inner);
  }
  return false;
}
