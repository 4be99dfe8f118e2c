import type { DLogger } from '@dbos-inc/dbos-sdk';

/** The slice of pino the engine logs through. */
export interface EngineLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

const text = (entry: unknown): string => (typeof entry === 'string' ? entry : JSON.stringify(entry));

/** Sends DBOS's internal log lines into our structured log instead of the console. */
export function dbosLogger(log: EngineLogger): DLogger {
  return {
    info: (entry) => log.info({ component: 'dbos' }, text(entry)),
    debug: (entry) => log.debug({ component: 'dbos' }, text(entry)),
    warn: (entry) => log.warn({ component: 'dbos' }, text(entry)),
    error: (entry) =>
      entry instanceof Error
        ? log.error({ component: 'dbos', err: entry }, entry.message)
        : log.error({ component: 'dbos' }, text(entry)),
  };
}
