import { EventEmitter } from 'node:events';
import type { PGlite, Results, Transaction } from '@electric-sql/pglite';
import type { Pool } from 'pg';

/**
 * A node-postgres `Pool` look-alike over the in-process PGlite, handed to DBOS as its `systemDatabasePool`.
 *
 * Why not @electric-sql/pglite-socket: PGlite has one session. The socket server serialises each protocol
 * message, but nothing stops an in-process `pg.query` from the catalog landing *between* two messages of a
 * DBOS transaction, i.e. inside it (a catalog write rolled back by DBOS's ROLLBACK, or our BEGIN/COMMIT ending
 * DBOS's transaction half-way). Here a checked-out client holds PGlite's transaction mutex for the whole
 * checkout: while DBOS holds it, every other query of the process waits, exactly like a pool of one
 * connection that the rest of the process also shares. DBOS never checks out a second client while holding
 * one (it runs on pglite-socket with `maxConnections: 1` for the same reason), so this cannot deadlock.
 *
 * Results are shaped like node-postgres's: int8 and numeric as strings (DBOS parses them itself), rowCount.
 */

// node-postgres leaves int8 (20) and numeric (1700) as strings; DBOS relies on that for epoch-ms columns.
const PG_COMPATIBLE_PARSERS = { 20: (v: string) => v, 1700: (v: string) => v };

interface QueryConfig {
  text: string;
  values?: unknown[];
}

interface PgLikeResult {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: { name: string; dataTypeID: number }[];
}

function toPgResult(res: Results | undefined): PgLikeResult {
  const rows = (res?.rows ?? []) as unknown[];
  return {
    rows,
    rowCount: res?.affectedRows || rows.length,
    command: '',
    fields: res?.fields ?? [],
  };
}

async function run(tx: Transaction, text: string, values: unknown[] | undefined): Promise<PgLikeResult> {
  if (values && values.length > 0) {
    return toPgResult(await tx.query(text, values, { parsers: PG_COMPATIBLE_PARSERS }));
  }
  // Simple protocol without parameters: allows several statements in one string (DBOS's migrations).
  const results = await tx.exec(text, { parsers: PG_COMPATIBLE_PARSERS });
  return toPgResult(results[results.length - 1]);
}

function normalise(textOrConfig: string | QueryConfig, values?: unknown[]): QueryConfig {
  return typeof textOrConfig === 'string' ? { text: textOrConfig, values } : textOrConfig;
}

/** One checked-out "connection": the holder of PGlite's transaction mutex until release(). */
class PgliteClient extends EventEmitter {
  private released = false;
  constructor(
    private readonly tx: Transaction,
    private readonly onRelease: () => void,
  ) {
    super();
  }

  async query(textOrConfig: string | QueryConfig, values?: unknown[]): Promise<PgLikeResult> {
    if (this.released) throw new Error('query on a released PGlite client');
    const q = normalise(textOrConfig, values);
    return run(this.tx, q.text, q.values);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease();
  }

  async connect(): Promise<void> {}
  async end(): Promise<void> {
    this.release();
  }
}

export class PglitePool extends EventEmitter {
  /** DBOS sizes its polling limiter from this: one connection. */
  readonly options = { max: 1 };
  private ended = false;

  constructor(private readonly pg: PGlite) {
    super();
  }

  connect(): Promise<PgliteClient> {
    if (this.ended) return Promise.reject(new Error('the PGlite pool has been closed'));
    return new Promise<PgliteClient>((resolveClient, rejectClient) => {
      this.pg
        .transaction(async (tx) => {
          // PGlite's transaction() opened a transaction; end it so DBOS issues its own BEGIN/COMMIT as it
          // would on a real connection. What we keep is the mutex.
          await tx.exec('COMMIT');
          let release!: () => void;
          const released = new Promise<void>((r) => {
            release = r;
          });
          resolveClient(new PgliteClient(tx, release));
          await released;
          // A client released inside an open transaction (after an error) must not leak it into the next one.
          await tx.rollback();
        })
        .catch(rejectClient);
    });
  }

  async query(textOrConfig: string | QueryConfig, values?: unknown[]): Promise<PgLikeResult> {
    const client = await this.connect();
    try {
      return await client.query(textOrConfig, values);
    } finally {
      client.release();
    }
  }

  async end(): Promise<void> {
    this.ended = true;
  }

  /** The type DBOS's config expects; the shim implements the part of it DBOS uses. */
  asPool(): Pool {
    return this as unknown as Pool;
  }
}
