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
    const { url, options } = withServerOptions(opts.url, '-c jit=off');
    this.pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize,
      statement_timeout: opts.statementTimeoutMs,
      // No JIT: the service's queries are short, and the planner's overestimates made PostgreSQL compile some of
      // them, which cost more than the queries themselves (docs/performance.md).
      options,
      // Fail fast while the server is down instead of queueing requests behind a dead socket.
      connectionTimeoutMillis: 3_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client losing its server connection emits here; without a listener the process would crash (a
    // checked-out one is guarded by withClient).
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

  /**
   * Runs fn on one pooled connection of its own. While it is checked out the pool does not listen for the
   * connection's errors, and a server that drops it (a restart, a proxy closing) then emits an 'error' event that
   * would crash the process; here it is caught, the query under way fails with it instead, and the dead connection
   * is discarded rather than put back in the pool.
   */
  async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let lost: Error | undefined;
    const onError = (err: Error) => {
      lost = err;
    };
    client.on('error', onError);
    try {
      return await fn(client);
    } finally {
      client.removeListener('error', onError);
      client.release(lost);
    }
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    let wrote = false;
    const result = await this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        const value = await fn({
          query: async <R = Row>(sql: string, params: readonly unknown[] = []) => {
            wrote ||= isWriteStatement(sql);
            return (await client.query(sql, params as unknown[])).rows as R[];
          },
        });
        await client.query('COMMIT');
        return value;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    });
    if (wrote) this.writeGeneration++;
    return result;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * The URL without its `options` parameter, and the server options it named after ours. node-postgres lets a URL's
 * `options` replace the pool's, which would drop ours whenever an operator sets some (such as
 * `-c default_transaction_read_only=on` on a read replica's URL); both are kept instead, the URL's last.
 */
function withServerOptions(raw: string, ours: string): { url: string; options: string } {
  const url = new URL(raw);
  const theirs = url.searchParams.get('options');
  if (theirs === null) return { url: raw, options: ours };
  url.searchParams.delete('options');
  return { url: url.toString(), options: `${ours} ${theirs}` };
}
