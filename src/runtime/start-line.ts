import { isAbsolute, relative, resolve } from 'node:path';
import { TokenService } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';

/**
 * What a person starting the server reads on their terminal (stderr, so stdout stays JSON log lines for machines):
 * where the site is and what was loaded, and on the embedded database's first start a one-time token, since
 * `frontline tokens create` cannot open that database while the server holds it.
 */

/** The address a person opens: PUBLIC_BASE_URL, else localhost on the port listened on. */
export function siteUrl(config: Config, listening: string): string {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/$/, '');
  return `http://localhost:${new URL(listening).port}`;
}

/** Where the catalog lives, without credentials: the embedded database's directory, or the server's host. */
function databaseText(config: Config, cwd: string): string {
  if (!config.databaseUrl) {
    const dir = relative(cwd, resolve(cwd, config.dataDir));
    // Inside the working directory: ./data; elsewhere: the absolute path.
    const shown = dir.startsWith('..') || isAbsolute(dir) ? resolve(cwd, config.dataDir) : `./${dir}`;
    return `embedded database at ${shown}`;
  }
  // Host and database only: the URLs' credentials and options stay out of the log.
  const where = (url: string) => {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  };
  const reads = config.databaseReadUrl ? `, public reads from ${where(config.databaseReadUrl)}` : '';
  return `PostgreSQL at ${where(config.databaseUrl)}${reads}`;
}

/** "Frontline up at http://localhost:3000 — 194 jobs, 42 companies (embedded database at ./data)". */
export function startLine(
  config: Config,
  listening: string,
  totals: { jobs: number; companies: number },
  cwd = process.cwd(),
): string {
  const n = (v: number) => v.toLocaleString('en');
  return (
    `Frontline up at ${siteUrl(config, listening)} — ${n(totals.jobs)} jobs, ${n(totals.companies)} companies ` +
    `(${databaseText(config, cwd)})`
  );
}

/**
 * The embedded database's first token: minted (stored hashed, like any) when no token was ever made there and none
 * is configured in API_TOKENS; its secret is returned to be printed once, never logged.
 */
export async function firstToken(config: Config, deps: Pick<Deps, 'db'>): Promise<string | undefined> {
  if (config.databaseUrl || config.apiTokens.length > 0) return undefined;
  const [any] = await deps.db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM api_tokens) AS any');
  if (any?.any) return undefined;
  const token = await new TokenService(deps.db, config.apiTokens).create('first start');
  return (
    `A first API token was minted (id ${token.id}, named "first start"); its secret is shown this once: ` +
    `${token.secret}\nMore tokens: stop the server and run \`frontline tokens create --name <name>\`, or use ` +
    'DATABASE_URL (PostgreSQL), where tokens can be minted while it runs.'
  );
}
