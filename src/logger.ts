import pino from 'pino';
import type { Config } from './config.js';

/** Query parameters that carry credentials, by lower-case name. */
const SECRET_PARAMS = /^(token|access_token|api_key|apikey|key|secret|password|auth|authorization)$/i;

/** Query parameters some route declares (src/http/limits/strict-query.ts adds each route's): the allow-list of the logs. */
const LOGGED_PARAMS = new Set<string>();

/** Adds a route's declared query parameters to the ones whose values are logged. */
export function allowLoggedParams(names: Iterable<string>): void {
  for (const name of names) if (!SECRET_PARAMS.test(name)) LOGGED_PARAMS.add(name);
}

/** A query pair as logged: its value kept only when its name is on the allow-list. */
function loggedPair(pair: string): string {
  const eq = pair.indexOf('=');
  if (eq < 0) return pair;
  let name: string;
  try {
    name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '));
  } catch {
    name = '';
  }
  return LOGGED_PARAMS.has(name) ? pair : `${pair.slice(0, eq)}=[redacted]`;
}

/**
 * A URL as logged. Query values are kept only for parameters a route declares (an allow-list: `client_secret=`,
 * `sig=` or any other name a caller invents is logged as [redacted]), never for credential-named ones, and
 * anything shaped like one of our tokens (fl_...) is replaced wherever it appears. A client that puts a secret in
 * the query string (some tools do) must not leave it in the logs.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  let query = q < 0 ? undefined : url.slice(q + 1);
  if (query !== undefined) {
    query = query.split('&').map(loggedPair).join('&');
  }
  const whole = query === undefined ? path : `${path}?${query}`;
  return whole.replace(/fl_[A-Za-z0-9_-]+/g, '[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request line (method, url, host, remote address and port), with the URL redacted. */
function requestSerializer(req: LoggedRequest) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** pino options: JSON lines in production, pretty in a terminal; credentials are redacted wherever they appear. */
export function loggerOptions(config: Config): pino.LoggerOptions {
  const pretty = config.logPretty || (process.stdout.isTTY && process.env.NODE_ENV !== 'production');
  return {
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.apiKey', '*.secret', '*.password'],
      censor: '[redacted]',
    },
    serializers: { req: requestSerializer },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

/** A logger for work outside requests (background indexing), with the same redaction and format as requests. */
export function componentLogger(config: Config, component: string): pino.Logger {
  return pino({ ...loggerOptions(config), base: { component } });
}
