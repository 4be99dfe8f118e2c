/**
 * The Db port: the only way domain code reaches SQL. Both implementations speak PostgreSQL, so one dialect
 * serves the embedded PGlite default and a PostgreSQL server alike.
 *
 * Conventions every caller relies on: counts are cast to int in SQL (int8 parses differently per driver),
 * timestamps come back as Date, jsonb as parsed values.
 */

export type Row = Record<string, unknown>;

export interface QueryOptions {
  /**
   * Keeps the statement prepared under this name (lower-case identifier), so the database parses and plans it
   * once: on PGlite, planning was a large share of a primary-key read. A name must always come with the same SQL.
   * Ignored inside transactions.
   */
  name?: string;
  /**
   * false: a write no cached read depends on (bookkeeping, such as a token's last use), so it leaves
   * writeGeneration alone: moving it would empty every per-process response cache.
   */
  invalidates?: false;
}

export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[], opts?: QueryOptions): Promise<T[]>;
}

export type DbKind = 'pglite' | 'postgres';

export interface Db extends Queryable {
  readonly kind: DbKind;
  /**
   * Incremented after every write committed through this handle (a write statement outside a transaction, or a
   * committed transaction). Per-process caches compare it, so this process's own writes are visible at once.
   */
  readonly writeGeneration: number;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Conservative: anything but a read counts as a write. A WITH query is a read unless it modifies data; treating
 * every CTE as a write would make each search empty the response caches.
 */
export function isWriteStatement(sql: string): boolean {
  if (/^\s*(select|show|explain)\b/i.test(sql)) return false;
  if (/^\s*with\b/i.test(sql)) return /\b(insert|update|delete|merge|truncate)\b/i.test(sql);
  return true;
}
