import type { Command } from 'commander';
import type { Db } from '../db/port.js';
import { rebuildRollups } from '../signals/store.js';

/** The hiring rollups by name suffix, with their keys in order, at each grain (migrations/0156, 0169). */
const ROLLUPS: [string, string][] = [
  ['', 'company_id, day, role_category'],
  ['_all', 'role_category, day'],
  ['_tag', 'tag_id, day, role_category'],
  ['_tag_pair', 'tag_id, other_tag_id, day, role_category'],
];
const ROLLUP_TABLES = ['hiring_daily', 'hiring_weekly', 'hiring_monthly'].flatMap((grain) =>
  ROLLUPS.map(([suffix, keys]) => ({ table: `${grain}${suffix}`, keys })),
);

/**
 * `frontline signals rebuild`: recomputes the hiring rollups (hiring_daily, hiring_daily_all, hiring_daily_tag,
 * hiring_daily_tag_pair, and their week and month twins hiring_weekly* and hiring_monthly*) from job_events and
 * company tags in one transaction. The triggers keep them exact as jobs and tags are written; this is for after a
 * bulk load that bypassed them, or to verify them (the result must not change).
 */
export async function rebuildSignals(db: Db): Promise<{ rows: number; changed: boolean }> {
  return db.transaction(async (tx) => {
    const digests = ROLLUP_TABLES.map(
      (r) => `(SELECT md5(string_agg(h::text, ',' ORDER BY ${r.keys})) FROM ${r.table} h)`,
    );
    const snapshot = async () =>
      (await tx.query<{ digest: string | null }>(`SELECT concat_ws('/', ${digests.join(', ')}) AS digest`))[0]
        ?.digest ?? null;
    const before = await snapshot();
    const rows = await rebuildRollups(tx);
    return { rows, changed: before !== (await snapshot()) };
  });
}

type WithDb = <T>(fn: (db: Db) => Promise<T>) => Promise<T>;

export function registerSignalsCommand(program: Command, withDb: WithDb, out: (line: string) => void): void {
  const signals = program.command('signals').description('Hiring signals: the daily rollups of job events');
  signals
    .command('rebuild')
    .description(
      'Recompute the hiring rollups from job events (they are kept incrementally; this verifies them)',
    )
    .action(async () => {
      const { rows, changed } = await withDb(rebuildSignals);
      out(
        `hiring rollups rebuilt: ${rows} company-day rows; ${changed ? 'they differed from' : 'identical to'} the incremental ones`,
      );
    });
}
