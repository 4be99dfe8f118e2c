import { Command, InvalidArgumentError, Option } from 'commander';
import { AmbiguousTokenError, TokenNameTakenError, TokenService } from './auth/tokens.js';
import { registerBoardsCommand } from './cli/boards.js';
import { registerReclassifyCommand } from './cli/reclassify.js';
import { registerSignalsCommand } from './cli/signals.js';
import { registerTrackCommand } from './cli/track.js';
import { type Config, ConfigError, parseConfig } from './config.js';
import { migrate } from './db/migrate.js';
import { openDb } from './db/open.js';
import { EmbeddedDatabaseInUseError } from './db/pglite.js';
import { runMcpStdio } from './mcp/stdio.js';
import { holdEventLoop } from './runtime/hold-event-loop.js';
import { runReindex } from './search/reindex.js';
import { runServer, runWorker } from './server.js';

function loadConfig(): Config {
  try {
    return parseConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

async function withDb<T>(
  fn: (db: Awaited<ReturnType<typeof openDb>>, config: Config) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const release = holdEventLoop();
  try {
    const db = await openDb(config);
    try {
      await migrate(db);
      return await fn(db, config);
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}

const out = (line: string) => process.stdout.write(`${line}\n`);

function tokenName(value: string): string {
  if (!/^[\w .:@-]{1,100}$/.test(value)) {
    throw new InvalidArgumentError('use 1-100 letters, digits, spaces or . _ : @ -');
  }
  return value;
}

/** Stops the server cleanly on SIGTERM/SIGINT, and exits anyway if shutdown hangs past the bound. */
function handleSignals(stop: () => Promise<void>, graceMs: number): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal} received, shutting down\n`);
    setTimeout(() => process.exit(1), graceMs).unref();
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** The long-running processes and the one-shot migration: serve, worker, migrate. */
function registerProcessCommands(program: Command): void {
  program
    .command('serve')
    .description('Start the HTTP API (applies migrations first)')
    .action(async () => {
      const config = loadConfig();
      const server = await runServer(config);
      // Once, for the person at the terminal; stdout stays JSON log lines for machines.
      process.stderr.write(`${server.greeting}\n`);
      handleSignals(server.stop, config.shutdownGraceMs);
      // A server whose route schemas do not compile, or whose workflow engine cannot launch, is broken or
      // misconfigured: it stops (the log says why) rather than serve with routes or a pipeline that never work.
      server.startupTasks.catch(() => server.stop().finally(() => process.exit(1)));
    });

  program
    .command('worker')
    .description('Run pipeline workflows and the freshness scheduler, without the HTTP API')
    .action(async () => {
      const config = loadConfig();
      const worker = await runWorker(config);
      handleSignals(worker.stop, config.shutdownGraceMs);
    });

  program
    .command('migrate')
    .description('Apply pending database migrations and exit')
    .action(async () => {
      const applied = await withDb(async (db) => migrate(db));
      out(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    });
}

/** `tokens create|list|revoke`: API token administration. */
function registerTokenCommands(program: Command): void {
  const tokens = program.command('tokens').description('Manage API tokens');
  tokens
    .command('create')
    .description('Mint a token; its secret is printed once and only its hash is stored')
    .requiredOption('--name <name>', 'who or what the token is for', tokenName)
    .action(async (opts: { name: string }) => {
      const t = await withDb((db, config) => new TokenService(db, config.apiTokens).create(opts.name));
      out(`created token "${t.name}" (id ${t.id}, prefix ${t.prefix})`);
      out(`secret (shown once, store it now): ${t.secret}`);
    });
  tokens
    .command('list')
    .description('List tokens (never their secrets)')
    .option('--all', 'include revoked tokens')
    .action(async (opts: { all?: boolean }) => {
      const list = await withDb((db, config) =>
        new TokenService(db, config.apiTokens).list(Boolean(opts.all)),
      );
      if (list.length === 0) {
        out('no tokens');
        return;
      }
      for (const t of list) {
        const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : 'active';
        const used = t.lastUsedAt ? t.lastUsedAt.toISOString() : 'never';
        out(
          `${t.id}  ${t.prefix}…  ${t.name}  created ${t.createdAt.toISOString()}  last used ${used}  ${state}`,
        );
      }
    });
  tokens
    .command('revoke')
    .description('Revoke tokens by id, prefix or name; takes effect on the next request')
    .argument('<ref>', 'token id, display prefix or name')
    .action(async (ref: string) => {
      const revoked = await withDb((db, config) => new TokenService(db, config.apiTokens).revoke(ref));
      if (!revoked) {
        process.stderr.write(`no active token matches "${ref}"\n`);
        process.exitCode = 1;
        return;
      }
      out(`revoked ${revoked.id} (${revoked.prefix}…, ${revoked.name})`);
    });
}

/** Maintenance and client tools: reindex, mcp. */
function registerToolCommands(program: Command): void {
  program
    .command('reindex')
    .description('Embed every job and company missing an embedding for the current model or text (resumable)')
    .action(async () => {
      const r = await withDb((db, config) => runReindex(db, config, out));
      out(`embedded ${r.embedded} rows with ${r.model} in ${(r.ms / 1000).toFixed(1)} s`);
    });

  program
    .command('mcp')
    .description(
      'An MCP server on stdin/stdout for desktop clients, answering from a deployment over its API',
    )
    .requiredOption('--url <base>', 'the deployment, e.g. http://localhost:3000')
    .addOption(
      new Option('--token <token>', 'a bearer token: adds the pipeline tools').env('FRONTLINE_TOKEN'),
    )
    .action(async (o: { url: string; token?: string }) => {
      try {
        await runMcpStdio({ url: o.url, token: o.token });
      } catch (err) {
        process.stderr.write(`frontline mcp: ${(err as Error).message}\n`);
        process.exit(1);
      }
    });
}

export function buildCli(): Command {
  const program = new Command('frontline').description('Frontline: catalog API and research pipeline');
  registerProcessCommands(program);
  registerTokenCommands(program);
  registerToolCommands(program);
  registerBoardsCommand(program, withDb, out);
  registerSignalsCommand(program, withDb, out);
  registerReclassifyCommand(program, withDb, out);
  registerTrackCommand(program, loadConfig, out);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (err) {
    process.stderr.write(
      `${explain(
        err,
        argv
          .slice(2)
          .filter((a) => !a.startsWith('-'))
          .slice(0, 2),
      )}\n`,
    );
    process.exitCode = 1;
  }
}

/**
 * One sentence for an operator: what stopped the command and what to do. The stack is for bugs, not for a
 * database in use or a name taken, and is printed only with LOG_LEVEL=debug.
 */
export function explain(err: unknown, command: string[]): string {
  const name = `frontline ${command.join(' ')}`.trim();
  if (err instanceof EmbeddedDatabaseInUseError) {
    const tokens = command[0] === 'tokens';
    return (
      `${name}: the embedded database in ${err.dataDir} is in use by process ${err.pid} (a running server): ` +
      `stop that process first${tokens ? ', or give the running server its tokens in API_TOKENS' : ''}, or set ` +
      'DATABASE_URL to a PostgreSQL server, which any number of processes can share.'
    );
  }
  if (err instanceof AmbiguousTokenError) {
    const list = err.matches.map((t) => `  ${t.id}  ${t.prefix}…  ${t.name}`).join('\n');
    return `${name}: ${err.message}:\n${list}`;
  }
  if (err instanceof TokenNameTakenError || err instanceof ConfigError) return `${name}: ${err.message}`;
  const message = err instanceof Error ? err.message : String(err);
  const stack = process.env.LOG_LEVEL === 'debug' && err instanceof Error ? `\n${err.stack}` : '';
  return `${name} failed: ${message}${stack}`;
}
