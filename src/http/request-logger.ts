import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

/** pino's loggers can say whether a level is enabled; Fastify's logger type does not promise it. */
type LevelAware = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Log = (...args: unknown[]) => void;

/**
 * A request's logger, made on its first enabled call. Fastify makes a child logger bound to the request id for
 * every request, and pino's child() serialises the bindings and rebuilds the level methods: more work than
 * answering a cached read, for a logger most requests never use at an enabled level (requests are not logged
 * at the default level). The lines it writes are the eager child's.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: LevelAware,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  private log(level: Level, args: unknown[]): void {
    if (this.made || this.parent.isLevelEnabled(level)) (this.logger[level] as Log)(...args);
  }

  get level(): string {
    return this.made ? this.made.level : this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: lazy children, except where a route sets its own log level or serializers. */
export const requestLoggers: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  opts,
) => {
  const levelAware = typeof (logger as Partial<LevelAware>).isLevelEnabled === 'function';
  if (!levelAware || opts.level !== undefined || opts.serializers !== undefined)
    return logger.child(bindings, opts);
  return new RequestLogger(logger as LevelAware, bindings, opts);
};
