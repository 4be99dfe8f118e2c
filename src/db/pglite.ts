import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgliteVector } from './pglite-vector.js';
import { type Db, isWriteStatement, type Queryable, type QueryOptions, type Row } from './port.js';

/**
 * PGlite runs PostgreSQL in WASM inside this process: one connection, one query at a time, on the main thread.
 * A data directory can be open in one process only; a pid lock file turns a second opener's silent corruption
 * into a clear error.
 */
/** A data directory's mark that pgvector was loaded into it (see open). */
const VECTOR_MARKER = 'pgvector';

export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  writeGeneration = 0;
  private readonly prepared = new Map<string, Promise<void>>();
  private constructor(
    readonly pg: PGlite,
    private readonly lockFile: string | undefined,
  ) {}

  /**
   * dataDir undefined = in-memory (tests). cacheMb sets shared_buffers: PostgreSQL's default 128 MB sits inside
   * the WASM heap, which never shrinks, and pages it does not hold are one file read away in the OS page cache.
   * vector loads pgvector (search ranked in the database wants it); a data directory that once had it keeps
   * loading it, since its tables may hold vector columns that every later write needs the extension for. Without
   * it writes skip the HNSW upkeep, which the in-memory search has no use for.
   */
  static async open(
    dataDir: string | undefined,
    opts: { cacheMb?: number; vector?: boolean } = {},
  ): Promise<PgliteDb> {
    let lockFile: string | undefined;
    let dir: string | undefined;
    if (dataDir !== undefined) {
      dir = resolve(dataDir, 'pgdata');
      mkdirSync(dir, { recursive: true });
      lockFile = join(resolve(dataDir), 'frontline.pid');
      acquireLock(lockFile);
    }
    try {
      // standard_conforming_strings pinned on: named statements pass values as literals quoted for it.
      const startParams = [
        ...PGlite.defaultStartParams,
        '-c',
        'standard_conforming_strings=on',
        ...(opts.cacheMb ? ['-c', `shared_buffers=${opts.cacheMb}MB`] : []),
      ];
      if (dir !== undefined) await initDataDir(dir, startParams);
      const marker = dataDir === undefined ? undefined : join(resolve(dataDir), VECTOR_MARKER);
      const vector =
        opts.vector || (marker !== undefined && existsSync(marker)) ? await pgliteVector() : undefined;
      const extensions = { pg_trgm, ...(vector && { vector }) };
      const pg = await PGlite.create(dir ?? 'memory://', { extensions, startParams });
      if (vector && marker !== undefined) writeFileSync(marker, '');
      return new PgliteDb(pg, lockFile);
    } catch (err) {
      if (lockFile) rmSync(lockFile, { force: true });
      throw err;
    }
  }

  async query<T = Row>(sql: string, params: readonly unknown[] = [], opts?: QueryOptions): Promise<T[]> {
    await turn();
    const args = opts?.name === undefined ? undefined : literals(params);
    const rows =
      opts?.name !== undefined && args !== undefined
        ? await this.execute<T>(opts.name, sql, args)
        : (await this.pg.query<T>(sql, params as unknown[])).rows;
    if (opts?.invalidates !== false && isWriteStatement(sql)) this.writeGeneration++;
    return rows;
  }

  /**
   * A named statement: PREPAREd once, then EXECUTEd through the simple protocol (far cheaper than an unnamed
   * statement parsed and planned each time). EXECUTE takes no bind parameters, so the values travel as
   * SQL literals (see literals); parameter types come from the prepared statement.
   */
  private async execute<T>(name: string, sql: string, args: string[]): Promise<T[]> {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid prepared statement name "${name}"`);
    let ready = this.prepared.get(name);
    if (ready === undefined) {
      ready = this.pg.exec(`PREPARE ${name} AS ${sql}`).then(() => {});
      ready.catch(() => this.prepared.delete(name));
      this.prepared.set(name, ready);
    }
    await ready;
    const [res] = await this.pg.exec(`EXECUTE ${name}${args.length ? `(${args.join(', ')})` : ''}`);
    return (res?.rows ?? []) as T[];
  }

  async exec(sql: string): Promise<void> {
    await turn();
    await this.pg.exec(sql);
    this.writeGeneration++;
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    await turn();
    let wrote = false;
    const result = await this.pg.transaction(async (tx) =>
      fn({
        query: async <R = Row>(sql: string, params: readonly unknown[] = []) => {
          wrote ||= isWriteStatement(sql);
          return (await tx.query<R>(sql, params as unknown[])).rows;
        },
      }),
    );
    if (wrote) this.writeGeneration++;
    return result;
  }

  async close(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
    if (this.lockFile) rmSync(this.lockFile, { force: true });
  }
}

/**
 * Parameters as SQL literals for EXECUTE: strings quoted with doubled quotes (standard_conforming_strings is on:
 * a backslash is an ordinary character), finite numbers and booleans as written, null as NULL. Undefined when a
 * value has no such form (arrays, objects): the statement then runs unnamed with bind parameters.
 */
function literals(params: readonly unknown[]): string[] | undefined {
  const out: string[] = [];
  for (const v of params) {
    if (v === null || v === undefined) out.push('NULL');
    else if (typeof v === 'string') out.push(`'${v.replaceAll("'", "''")}'`);
    else if (typeof v === 'number' && Number.isFinite(v)) out.push(String(v));
    else if (typeof v === 'boolean') out.push(String(v));
    else return undefined;
  }
  return out;
}

/**
 * PGlite executes a query synchronously and resolves it through microtasks only, so a request's whole chain of
 * queries would run without the event loop ever reaching I/O: every other request (cache hits included) waited
 * for it, and concurrency limits never saw two requests at once. Yielding to the loop before each statement lets
 * waiting requests be read and answered between one request's queries.
 */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Another live process holds the data directory's lock: PGlite serves one process at a time. */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by process ${pid}; ` +
        'stop it first, or run against a PostgreSQL server with DATABASE_URL',
    );
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

function acquireLock(lockFile: string): void {
  try {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new EmbeddedDatabaseInUseError(lockFile.replace(/[\\/]?frontline\.pid$/, ''), pid);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  writeFileSync(lockFile, String(process.pid));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates a data directory and exits: the PGlite entry to import, the directory and the start parameters by env. */
const INITDB_SCRIPT = `
const { PGlite } = await import(process.env.PGLITE_ENTRY);
const pg = await PGlite.create(process.env.PGLITE_DIR, { startParams: JSON.parse(process.env.PGLITE_PARAMS) });
await pg.close();
`;

/**
 * Runs initdb for a new data directory in a short-lived child process. In this process it ran three WASM
 * instances at once (the database, a bootstrap database and initdb itself) whose memories stay mapped until a full
 * collection that may never come: a first start's RSS peaked and settled far above that of opening an existing
 * directory (docs/performance.md). The child exits and the operating system takes its memory back at once.
 */
async function initDataDir(dir: string, startParams: readonly string[]): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  const entry = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  await new Promise<void>((ok, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', INITDB_SCRIPT], {
      env: {
        ...process.env,
        PGLITE_ENTRY: entry,
        PGLITE_DIR: dir,
        PGLITE_PARAMS: JSON.stringify(startParams),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      if (code === 0) ok();
      else
        fail(
          new Error(
            `creating the embedded database in ${dir} failed (${signal ?? `exit ${code}`}): ${stderr}`,
          ),
        );
    });
  });
}
