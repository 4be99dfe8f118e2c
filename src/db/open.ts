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

/**
 * DATABASE_READ_URL's read replica, for the public catalog reads; undefined without one. Nothing migrates it or
 * writes through it: its schema and rows arrive by replication from DATABASE_URL's server.
 */
export async function openReadDb(
  config: Pick<Config, 'databaseReadUrl' | 'databaseReadPoolSize' | 'databaseStatementTimeoutMs'>,
): Promise<Db | undefined> {
  if (!config.databaseReadUrl) return undefined;
  const { PostgresDb } = await import('./postgres.js');
  return new PostgresDb({
    url: config.databaseReadUrl,
    poolSize: config.databaseReadPoolSize,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
  });
}
