import type { Config } from '../config.js';
import { PgliteDb } from './pglite.js';
import type { Db } from './port.js';

/** DATABASE_URL selects a PostgreSQL server; otherwise the embedded database lives in DATA_DIR. */
export async function openDb(
  config: Pick<
    Config,
    | 'databaseUrl'
    | 'dataDir'
    | 'databasePoolSize'
    | 'databaseStatementTimeoutMs'
    | 'embeddedCacheMb'
    | 'search'
  >,
): Promise<Db> {
  if (config.databaseUrl) {
    // node-postgres is imported only for a server: the embedded default starts without it.
    const { PostgresDb } = await import('./postgres.js');
    return new PostgresDb({
      url: config.databaseUrl,
      poolSize: config.databasePoolSize,
      statementTimeoutMs: config.databaseStatementTimeoutMs,
    });
  }
  return PgliteDb.open(config.dataDir, { cacheMb: config.embeddedCacheMb, vector: config.search === 'sql' });
}
