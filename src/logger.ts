import pino from 'pino';
import type { Config } from './config.js';

/** Query parameters that carry credentials, by lower-case name. */
const SECRET_PARAMS = /^(token|access_token|api_key|apikey|key|secret|password|auth|authorization)$/i;

/**
 * A URL as logged: the values of credential-named query parameters, and anything shaped like one of our tokens
 * (fl_...) wherever it appears, replaced by [redacted]. A client that puts its token in the query string (some
 * tools do) must not leave it in the logs.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  let query = q < 0 ? undefined : url.slice(q + 1);
  if (query !== undefined) {
    query = query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        return eq > 0 && SECRET_PARAMS.test(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=[redacted]` : pair;
      })
      .join('&');
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
