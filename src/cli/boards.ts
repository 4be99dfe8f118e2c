import type { Command } from 'commander';
import type { Queryable } from '../db/port.js';
import { type BoardHealth, listBoardHealth } from '../pipeline/store/board-health.js';

/**
 * `frontline boards [--company SLUG]`: every job board with its health, failing boards first, for operators (the
 * same facts as frontline_board_scrapes_total, per board and with the error text, which metrics never carry).
 */

const when = (d: Date | null) => (d ? d.toISOString() : 'never');

function line(b: BoardHealth): string {
  const state = b.active ? 'active' : 'closed';
  const postings = b.lastPostingCount === null ? '-' : String(b.lastPostingCount);
  const error = b.lastError ? `  last error ${when(b.lastErrorAt)}: ${b.lastError}` : '';
  return (
    `${b.company}  ${b.provider}/${b.token}  ${state}  outcome ${b.lastOutcome ?? 'none'}  ` +
    `postings ${postings}  last success ${when(b.lastSuccessAt)}  failures in a row ${b.consecutiveFailures}${error}`
  );
}

/** The report's lines; an unknown company is an error naming it. */
export async function boardsReport(db: Queryable, companySlug?: string): Promise<string[]> {
  const boards = await listBoardHealth(db, companySlug);
  if (boards.length > 0) return boards.map(line);
  if (companySlug === undefined) return ['no boards'];
  const known = await db.query('SELECT 1 FROM companies WHERE slug = $1', [companySlug]);
  if (known.length === 0) throw new UnknownCompanyError(companySlug);
  return [`no boards for ${companySlug}`];
}

export class UnknownCompanyError extends Error {
  constructor(readonly slug: string) {
    super(`no company with slug "${slug}"`);
    this.name = 'UnknownCompanyError';
  }
}

type WithDb = <T>(fn: (db: Queryable) => Promise<T>) => Promise<T>;

export function registerBoardsCommand(program: Command, withDb: WithDb, out: (line: string) => void): void {
  program
    .command('boards')
    .description('List job boards with their health: last success, last error, failures in a row')
    .option('--company <slug>', 'only the boards of this company')
    .action(async (opts: { company?: string }) => {
      try {
        for (const l of await withDb((db) => boardsReport(db, opts.company))) out(l);
      } catch (err) {
        if (!(err instanceof UnknownCompanyError)) throw err;
        process.stderr.write(`${err.message}\n`);
        process.exitCode = 1;
      }
    });
}
