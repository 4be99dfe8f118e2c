import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { parseConfig } from '../../src/config.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { createDeps, type Deps } from '../../src/deps.js';
import type { App } from '../../src/http/types.js';
import { freshDatabase, serverUrl, type TestDatabase } from '../support/db.js';

/** PostgreSQL's SSLRequest code: the client asks for TLS before its startup message. */
const SSL_REQUEST = 80877103;

/** A PostgreSQL ErrorResponse message (protocol 3.0): severity, SQLSTATE and message fields. */
function errorResponse(sqlstate: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${sqlstate}\0M${message}\0\0`, 'utf8');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

/**
 * A TCP proxy in front of the test PostgreSQL server. Passing, it pipes connections through; refusing, it drops
 * every open connection and answers each new startup with a FATAL ErrorResponse carrying the chosen SQLSTATE, as
 * a server that is starting up (57P03) or refusing a database (55000) does.
 */
class RefusingProxy {
  refusing: { sqlstate: string; message: string } | undefined;
  private readonly open = new Set<Socket>();
  readonly server: Server;

  constructor(private readonly upstream: URL) {
    this.server = createServer((client) => this.accept(client));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as { port: number }).port;
  }

  refuse(sqlstate: string, message: string): void {
    this.refusing = { sqlstate, message };
    for (const s of this.open) s.destroy();
  }

  private accept(client: Socket): void {
    this.open.add(client);
    client.on('close', () => this.open.delete(client));
    client.on('error', () => {});
    const refusing = this.refusing;
    if (!refusing) {
      const server = tcpConnect(Number(this.upstream.port || 5432), this.upstream.hostname);
      this.open.add(server);
      server.on('close', () => this.open.delete(server));
      server.on('error', () => client.destroy());
      client.pipe(server).pipe(client);
      return;
    }
    client.on('data', (chunk: Buffer) => {
      if (chunk.length >= 8 && chunk.readInt32BE(4) === SSL_REQUEST) {
        client.write('N');
        return;
      }
      client.end(errorResponse(refusing.sqlstate, refusing.message));
    });
  }

  async close(): Promise<void> {
    for (const s of this.open) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe.skipIf(!serverUrl()).each([
  ['57P03', 'the database system is starting up'],
  ['55000', 'database "frontline" is not currently accepting connections'],
  ['08006', 'connection failure'],
  ['08004', 'server rejected the connection'],
])('a database refusing connections with SQLSTATE %s', (sqlstate, message) => {
  let database: TestDatabase;
  let proxy: RefusingProxy;
  let db: PostgresDb;
  let deps: Deps;
  let app: App;
  let token: string;

  beforeAll(async () => {
    database = await freshDatabase();
    const url = new URL(database.url as string);
    proxy = new RefusingProxy(url);
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(await proxy.listen());
    db = new PostgresDb({ url: proxied.toString(), poolSize: 2, statementTimeoutMs: 30_000 });
    const config = parseConfig({
      DATABASE_URL: proxied.toString(),
      RATE_LIMIT_ANONYMOUS: '100000',
      LOG_LEVEL: 'silent',
    });
    deps = await createDeps(config, { db });
    app = await buildApp(deps);
    await app.ready();
    await deps.searchParts.idle();
    token = (await deps.tokens.create('down')).secret;
    proxy.refuse(sqlstate, message);
  });
  afterAll(async () => {
    await app?.close();
    await deps?.close();
    await db?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('answers 503 with Retry-After on endpoints that need it, never 500', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const calls = [
      app.inject({ method: 'GET', url: '/api/v1/me', headers: auth }),
      app.inject({ method: 'GET', url: '/api/v1/workflows/some-run', headers: auth }),
      app.inject({ method: 'GET', url: '/api/v1/candidates', headers: auth }),
      app.inject({ method: 'GET', url: '/api/v1/deep-research/acme.com', headers: auth }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode, `${res.body} ${JSON.stringify(res.headers)}`).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.json().error.code).toBe('SERVER_ERROR');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
  });
});
