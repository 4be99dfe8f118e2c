import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Config } from './config.js';

/** pino options: JSON lines in production, pretty in a terminal; credentials are redacted wherever they appear. */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  const pretty = config.logPretty || (process.stdout.isTTY && process.env.NODE_ENV !== 'production');
  return {
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.apiKey', '*.secret', '*.password'],
      censor: '[redacted]',
    },
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
  return pino({ ...(loggerOptions(config) as pino.LoggerOptions), base: { component } });
}
