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
  if (units.length === 0 || words.length === 0) return { coverage: 0, precision: 0 };
  const used = new Uint8Array(words.length);
  let satisfied = 0;
  let byRole = 0;
  for (const u of units) {
    let found = false;
    for (const alt of u.alternatives) {
      const at = alt.map((l) => words.findIndex((w) => w === l || (u.prefix && w.startsWith(l))));
      if (at.every((i) => i >= 0)) {
        for (const i of at) used[i] = 1;
        found = true;
        break;
      }
    }
    if (found) satisfied++;
    else if (u.roles.has(role)) {
      satisfied++;
      byRole += u.alternatives[0]!.length;
    }
  }
  const explained = used.reduce((a, b) => a + b, 0) + byRole;
  return { coverage: satisfied / units.length, precision: Math.min(1, explained / words.length) };
}
