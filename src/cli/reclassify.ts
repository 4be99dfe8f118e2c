import type { Command } from 'commander';
import { bumpCatalogVersion } from '../catalog/version.js';
import { ROLE_CATEGORIES, type RoleCategory } from '../catalog/vocabulary.js';
import type { Db } from '../db/port.js';
import { DESCRIPTION_LEAD, explainRole } from '../pipeline/classify/classify.js';

/**
 * `frontline reclassify [--json]`: re-derives every stored job's role category from its stored title, department
 * and description with the current classifier, without a re-scrape. A job whose category or deciding rule changed
 * is rewritten; a changed category moves updated_at as a scrape's write does, so the jobs triggers record a
 * `reclassified` job event for an active job and keep the count tables and hiring rollups exact, and the
 * catalog_version bump in the same transaction keeps every process's caches exact. Reads and writes in id order,
 * BATCH jobs at a time, each batch in its own short transaction: a large catalog never holds the catalog_version
 * lock for long, and a rerun after an interruption simply finishes the rest (the classifier is deterministic).
 */

const BATCH = 1000;

export interface CategoryMoves {
  category: RoleCategory;
  /** Jobs that left the category. */
  out: number;
  /** Jobs that joined it. */
  in: number;
}

export interface ReclassifyResult {
  /** Jobs read. */
  jobs: number;
  /** Jobs whose category changed. */
  recategorized: number;
  /** Jobs whose category stayed and whose deciding rule changed. */
  ruleOnly: number;
  /** Per category with a move, in ROLE_CATEGORIES order. */
  moves: CategoryMoves[];
}

interface StoredJob {
  id: string;
  title: string;
  department: string | null;
  lead: string | null;
  role_category: RoleCategory;
  classification_rule: string | null;
}

interface Change {
  id: string;
  category: RoleCategory;
  rule: string;
  recategorized: boolean;
}

async function writeBatch(db: Db, changes: Change[], nowMs: number): Promise<void> {
  await db.transaction(async (tx) => {
    await bumpCatalogVersion(tx, nowMs);
    await tx.query(
      `UPDATE jobs j SET role_category = c.category, classification_rule = c.rule,
         updated_at = CASE WHEN c.recategorized THEN $5::timestamptz ELSE j.updated_at END
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::boolean[]) AS c(id, category, rule, recategorized)
       WHERE j.id = c.id`,
      [
        changes.map((c) => c.id),
        changes.map((c) => c.category),
        changes.map((c) => c.rule),
        changes.map((c) => c.recategorized),
        new Date(nowMs),
      ],
    );
  });
}

export async function reclassifyJobs(db: Db, nowMs: number): Promise<ReclassifyResult> {
  const out = new Map<RoleCategory, number>();
  const into = new Map<RoleCategory, number>();
  const result: ReclassifyResult = { jobs: 0, recategorized: 0, ruleOnly: 0, moves: [] };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await db.query<StoredJob>(
      `SELECT id, title, department, left(description, $3) AS lead, role_category, classification_rule
       FROM jobs WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, BATCH, DESCRIPTION_LEAD],
    );
    if (rows.length === 0) break;
    after = rows[rows.length - 1]?.id ?? after;
    result.jobs += rows.length;
    const changes: Change[] = [];
    for (const r of rows) {
      const c = explainRole({ title: r.title, department: r.department, description: r.lead });
      const recategorized = c.category !== r.role_category;
      if (!recategorized && c.rule === r.classification_rule) continue;
      changes.push({ id: r.id, category: c.category, rule: c.rule, recategorized });
      if (!recategorized) {
        result.ruleOnly += 1;
        continue;
      }
      result.recategorized += 1;
      out.set(r.role_category, (out.get(r.role_category) ?? 0) + 1);
      into.set(c.category, (into.get(c.category) ?? 0) + 1);
    }
    if (changes.length > 0) await writeBatch(db, changes, nowMs);
  }
  result.moves = ROLE_CATEGORIES.filter((c) => out.has(c) || into.has(c)).map((category) => ({
    category,
    out: out.get(category) ?? 0,
    in: into.get(category) ?? 0,
  }));
  return result;
}

/** The command's report: one line per category that moved, or the result as JSON. */
export function formatReclassify(r: ReclassifyResult, json: boolean): string[] {
  if (json) return [JSON.stringify(r)];
  const lines = [
    `reclassified ${r.jobs} jobs: ${r.recategorized} changed category, ${r.ruleOnly} kept it under another rule`,
  ];
  for (const m of r.moves) lines.push(`  ${m.category.padEnd(22)} +${m.in} -${m.out}`);
  return lines;
}

type WithDb = <T>(fn: (db: Db) => Promise<T>) => Promise<T>;

export function registerReclassifyCommand(
  program: Command,
  withDb: WithDb,
  out: (line: string) => void,
): void {
  program
    .command('reclassify')
    .description(
      "Re-derive every job's role category from its stored title, department and description with the current classifier",
    )
    .option('--json', 'print the result as JSON')
    .action(async (opts: { json?: boolean }) => {
      const result = await withDb((db) => reclassifyJobs(db, Date.now()));
      for (const line of formatReclassify(result, Boolean(opts.json))) out(line);
    });
}
