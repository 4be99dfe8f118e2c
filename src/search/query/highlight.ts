import { lexemeOf, wordsOf } from '../keyword-index/lexemes.js';
import type { Highlighter, Ranges } from '../types.js';

export type { Highlighter } from '../types.js';

/**
 * The words of a search that a result shows as matched: a word of the title or company name is marked when its
 * lexeme is one of the query's (as typed or as corrected, spelling.ts), or starts with the last query word's
 * lexeme (the keyword list matches that one as a prefix, "kube" -> Kubernetes). Stop words are never marked.
 */
export function highlighter(query: string, corrected: string): Highlighter {
  const exact = new Set<string>();
  for (const text of [query, corrected]) {
    for (const w of wordsOf(text)) if (w.lexeme !== '') exact.add(w.lexeme);
  }
  const last = /[\p{L}\p{N}]$/u.test(query) ? wordsOf(query).at(-1) : undefined;
  const prefix = last ? lexemeOf(last.word) || null : null;
  const ranges = (text: string): Ranges =>
    wordsOf(text)
      .filter(
        (w) => w.lexeme !== '' && (exact.has(w.lexeme) || (prefix !== null && w.lexeme.startsWith(prefix))),
      )
      .map((w) => [w.start, w.end]);
  return (title, company) => ({ title: ranges(title), company: ranges(company) });
}
