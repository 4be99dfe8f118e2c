import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between a service and PostgreSQL that a test turns faulty: it can refuse new connections (its
 * listener closed, so a connect fails with ECONNREFUSED as against a stopped server), drop every open one (as a
 * server restart does), or drop them all each time the clients have sent a given number of bytes (a server
 * that keeps failing mid-statement). Both the service's pool and the workflow engine's connections go through it
 * when the service's DATABASE_URL points at it.
 */
export interface TcpProxy {
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  /** Closes the listener: new connections are refused; open ones carry on. */
  refuse(): Promise<void>;
  /** Destroys every open connection, both ends. */
  drop(): void;
  /**
   * Listens (again) and, once the clients have sent `bytes` more bytes through it, drops every open connection,
   * again and again, until heal().
   */
  dropEvery(bytes: number): Promise<void>;
  /** Listens (again) and forwards everything. */
  heal(): Promise<void>;
  /** How many times open connections were dropped. */
  readonly drops: number;
  /** Whether new connections are refused right now. */
  readonly refusing: boolean;
  close(): Promise<void>;
}

export async function startTcpProxy(upstream: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let dropAfter: number | undefined;
  let sent = 0;
  let drops = 0;

  const drop = () => {
    drops++;
    for (const s of open) s.destroy();
    open.clear();
  };

  const accept = (client: Socket) => {
    const up = createConnection(upstream);
    open.add(client);
    open.add(up);
    const end = () => {
      client.destroy();
      up.destroy();
      open.delete(client);
      open.delete(up);
    };
    client.on('error', end).on('close', end);
    up.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      up.write(chunk);
      if (dropAfter === undefined) return;
      sent += chunk.length;
      if (sent >= dropAfter) {
        sent = 0;
        drop();
      }
    });
    up.pipe(client);
  };

  const listen = async () => {
    if (server) return;
    const s = createServer(accept);
    await new Promise<void>((ok, fail) => {
      s.once('error', fail);
      s.listen(port, '127.0.0.1', () => ok());
    });
    const address = s.address();
    if (address && typeof address === 'object') port = address.port;
    server = s;
  };

  const refuse = async () => {
    const s = server;
    server = undefined;
    // close() stops accepting at once; its callback waits for open connections, which stay up.
    if (s) s.close();
  };

  await listen();
  return {
    through(url: string) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    refuse,
    drop,
    async dropEvery(bytes: number) {
      sent = 0;
      dropAfter = bytes;
      await listen();
    },
    async heal() {
      dropAfter = undefined;
      await listen();
    },
    get drops() {
      return drops;
    },
    get refusing() {
      return server === undefined;
    },
    async close() {
      await refuse();
      drop();
    },
  };
}
