import type { FastifyServerOptions } from 'fastify';
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
