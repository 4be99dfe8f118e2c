import pg from 'pg';
import { type Db, isWriteStatement, type Queryable, type QueryOptions, type Row } from './port.js';

export interface PostgresOptions {
  url: string;
  /** Max pooled connections for this process. */
  poolSize: number;
  /** Server-side statement_timeout in ms, so a runaway query cannot hold a connection forever. */
  statementTimeoutMs: number;
}

export class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  writeGeneration = 0;
  readonly pool: pg.Pool;

  constructor(opts: PostgresOptions) {
    this.pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize,
      statement_timeout: opts.statementTimeoutMs,
      // No JIT: the service's queries are short, and the planner's overestimates made PostgreSQL compile some of
      // them (20–30 ms of JIT on a 10 ms delta-sync page at a million jobs, docs/performance.md).
      options: '-c jit=off',
      // Fail fast while the server is down instead of queueing requests behind a dead socket.
      connectionTimeoutMillis: 3_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client losing its server connection emits here; without a listener the process would crash.
    this.pool.on('error', () => {});
  }

  async query<T = Row>(sql: string, params: readonly unknown[] = [], opts?: QueryOptions): Promise<T[]> {
    // node-postgres prepares a named statement on each connection the first time that connection runs it.
    const res = await this.pool.query(
      opts?.name
        ? { name: opts.name, text: sql, values: params as unknown[] }
        : { text: sql, values: params as unknown[] },
    );
    if (opts?.invalidates !== false && isWriteStatement(sql)) this.writeGeneration++;
    return res.rows as T[];
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
    this.writeGeneration++;
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let wrote = false;
    try {
      await client.query('BEGIN');
      const result = await fn({
        query: async <R = Row>(sql: string, params: readonly unknown[] = []) => {
          wrote ||= isWriteStatement(sql);
          return (await client.query(sql, params as unknown[])).rows as R[];
        },
      });
      await client.query('COMMIT');
      if (wrote) this.writeGeneration++;
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
