import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RateDecision, RateLimitStore } from './store.js';

/**
 * The sliding log in a Redis sorted set, one atomic script per decision, so any number of API processes share
 * one exact allowance. Scores are the deciding process's clock in ms (hosts are expected to run NTP; a skew of a
 * few ms moves a window edge by as much).
 */
const SLIDING_LOG = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, now, ARGV[4])
  count = count + 1
  allowed = 1
end
local reset = 0
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
redis.call('PEXPIRE', key, window)
return {allowed, count, reset}
`;

export interface RedisStoreOptions {
  url: string;
  /** Key namespace, so several deployments can share one Redis. */
  prefix?: string;
  /** Ms to wait for Redis before the decision counts as failed (the guard then applies the failure policy). */
  timeoutMs?: number;
}

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private sequence = 0;
  private readonly processTag = randomBytes(4).toString('hex');

  constructor(opts: RedisStoreOptions) {
    this.prefix = opts.prefix ?? 'frontline:rl:';
    this.redis = new Redis(opts.url, {
      // Fail fast while Redis is down instead of queueing commands: the guard's failure policy decides.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: opts.timeoutMs ?? 1_000,
      commandTimeout: opts.timeoutMs ?? 1_000,
      lazyConnect: false,
    });
    // Connection errors surface through failed commands; without a listener ioredis would log them to stderr.
    this.redis.on('error', () => {});
    this.redis.defineCommand('slidingLog', { numberOfKeys: 1, lua: SLIDING_LOG });
  }

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<RateDecision> {
    // Stryker disable next-line UpdateOperator: equivalent, a decreasing sequence keeps the members unique too
    const member = `${now}:${this.processTag}:${++this.sequence}`;
    const run = (this.redis as unknown as { slidingLog: SlidingLogCommand }).slidingLog;
    const [allowed, count, reset] = await run.call(
      this.redis,
      this.prefix + key,
      now,
      windowMs,
      limit,
      member,
    );
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, limit - count),
      resetMs: Math.max(0, reset),
    };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

type SlidingLogCommand = (
  key: string,
  now: number,
  windowMs: number,
  limit: number,
  member: string,
) => Promise<[number, number, number]>;
