import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ShedError, unavailable } from '../../src/errors.js';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { requestLoggers } from '../../src/http/request-logger.js';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level, base: null, timestamp: false }, stream), lines };
}

// The factory's `this` (the Fastify instance) is not used.
const childOf = (logger: pino.Logger, opts = {}) =>
  requestLoggers.call(undefined as never, logger, { reqId: 'r-1' }, opts, undefined as never);

describe('request loggers', () => {
  it('write the lines an eager child writes, and only at enabled levels', () => {
    const lazy = capture('warn');
    const eager = capture('warn');
    const child = childOf(lazy.logger);
    const reference = eager.logger.child({ reqId: 'r-1' }, {});
    for (const log of [child, reference]) {
      log.info('not at warn');
      log.warn({ detail: 1 }, 'careful');
      log.error(new Error('boom'), 'failed');
      log.child({ step: 'x' }).warn('nested');
    }
    expect(lazy.lines).toHaveLength(3);
    expect(lazy.lines).toEqual(eager.lines);
    expect(lazy.lines[0]).toMatchObject({ reqId: 'r-1', detail: 1, msg: 'careful' });
    expect(lazy.lines[2]).toMatchObject({ reqId: 'r-1', step: 'x', msg: 'nested' });
  });

  it('report and change their level like a child', () => {
    const { logger, lines } = capture('warn');
    const child = childOf(logger);
    expect(child.level).toBe('warn');
    child.level = 'info';
    child.info('now enabled');
    expect(child.level).toBe('info');
    expect(logger.level).toBe('warn');
    expect(lines).toEqual([{ level: 30, reqId: 'r-1', msg: 'now enabled' }]);
  });

  it('are eager where a route sets its own level', () => {
    const { logger } = capture('warn');
    expect(typeof (childOf(logger, { level: 'debug' }) as pino.Logger).bindings).toBe('function');
  });

  it('carry the request id in a Fastify app', async () => {
    const { logger, lines } = capture('warn');
    const app = Fastify({ loggerInstance: logger, childLoggerFactory: requestLoggers });
    app.get('/', async (request) => {
      request.log.warn('inside');
      return 'ok';
    });
    const res = await app.inject({ method: 'GET', url: '/' });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(lines).toEqual([{ level: 40, reqId: 'req-1', msg: 'inside' }]);
  });
});

describe('error logging', () => {
  it('logs a dependency outage as a warning, but not each request shed on purpose', async () => {
    const { logger, lines } = capture('warn');
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
    registerErrorHandling(app);
    app.get('/shed', async () => {
      throw new ShedError('Search is at capacity', 1);
    });
    app.get('/down', async () => {
      throw unavailable('The database is unavailable');
    });
    const shed = await app.inject('/shed');
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('1');
    expect(shed.json()).toEqual({ error: { code: 'SERVER_ERROR', message: 'Search is at capacity' } });
    expect(lines).toEqual([]);
    expect((await app.inject('/down')).statusCode).toBe(503);
    expect(lines.map((l) => l.msg)).toEqual(['dependency unavailable']);
    await app.close();
  });
});
