import { lexemes } from '../keyword-index/lexemes.js';
import type { QueryUnit } from './query-terms.js';

/**
 * How well a job's title answers the query's units (query-terms.ts): `coverage`, the share of units it
 * satisfies, and `precision`, the share of its title words that some unit asked for. "Data Scientist" answers
 * "data scientist" better than "Data Scientist, Growth & Analytics" does, and "Solutions Architect" answers
 * "customer-facing engineer" (a role of the client-facing group, and an engineer) better than a Full Stack
 * Engineer does. The fused lists rank by several retrievers' opinions; this is the one signal that reads the
 * whole query against the whole title.
 */

export interface Fit {
  coverage: number;
  precision: number;
  /** The share of consecutive query words that stand next to each other, in order, in the title. */
  order: number;
}

/** Title lexemes by title: candidates repeat titles, and a title is a handful of words. */
const titles = new Map<string, string[]>();
const TITLES_MAX = 50_000;

function titleLexemes(title: string): string[] {
  let out = titles.get(title);
  if (out === undefined) {
    out = lexemes(title).map((l) => l.lexeme);
    if (titles.size >= TITLES_MAX) titles.clear();
    titles.set(title, out);
  }
  return out;
}

export function titleFit(units: readonly QueryUnit[], title: string, role: string): Fit {
  const words = titleLexemes(title);
  if (units.length === 0 || words.length === 0) return { coverage: 0, precision: 0, order: 0 };
  const used = new Uint8Array(words.length);
  let satisfied = 0;
  let byRole = 0;
  // Where each query lexeme stands in the title, in query order (-1: not there).
  const at: number[] = [];
  for (const u of units) {
    let found: number[] | undefined;
    for (const alt of u.alternatives) {
      const where = alt.map((l) => words.findIndex((w) => w === l || (u.prefix && w.startsWith(l))));
      if (where.every((i) => i >= 0)) {
        found = where;
        break;
      }
    }
    if (found) {
      satisfied++;
      for (const i of found) used[i] = 1;
      at.push(...found);
    } else {
      if (u.roles.has(role)) {
        satisfied++;
        byRole += u.alternatives[0]!.length;
      }
      for (const _ of u.alternatives[0]!) at.push(-1);
    }
  }
  // Consecutive query lexemes found next to each other, in order ("product manager" in "Product Manager,
  // Growth" but not in "Product Marketing Manager").
  let adjacent = 0;
  for (let i = 1; i < at.length; i++) if (at[i - 1]! >= 0 && at[i] === at[i - 1]! + 1) adjacent++;
  const explained = used.reduce((a, b) => a + b, 0) + byRole;
  return {
    coverage: satisfied / units.length,
    precision: Math.min(1, explained / words.length),
    order: at.length > 1 ? adjacent / (at.length - 1) : satisfied,
  };
}
