import { lexemes } from './lexemes.js';
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
  /** The share of consecutive query units that stand next to each other, in order, in the title. */
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
  // Consecutive units found next to each other, in the query's order ("product manager" in "Product Manager,
  // Growth" but not in "Product Marketing Manager").
  let adjacent = 0;
  let end = -2;
  for (const u of units) {
    let span: [number, number] | undefined;
    for (const alt of u.alternatives) {
      const at = alt.map((l) => words.findIndex((w) => w === l || (u.prefix && w.startsWith(l))));
      if (at.every((i) => i >= 0)) {
        for (const i of at) used[i] = 1;
        span = [Math.min(...at), Math.max(...at)];
        break;
      }
    }
    if (span) {
      satisfied++;
      if (span[0] === end + 1) adjacent++;
    } else if (u.roles.has(role)) {
      satisfied++;
      byRole += u.alternatives[0]!.length;
    }
    end = span ? span[1] : -2;
  }
  const explained = used.reduce((a, b) => a + b, 0) + byRole;
  return {
    coverage: satisfied / units.length,
    precision: Math.min(1, explained / words.length),
    order: units.length > 1 ? adjacent / (units.length - 1) : satisfied,
  };
}
