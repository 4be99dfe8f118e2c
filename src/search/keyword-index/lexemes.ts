import { tsQueryParts } from '../keyword.js';
import { wordFormSpans } from '../query/word-forms.js';
import { STOP_WORDS, stem } from './stemmer.js';

/**
 * Text to lexemes for the in-memory keyword index, like `to_tsvector('english', …)` for ordinary words: each
 * alphanumeric word takes a position (stop words too, as in PostgreSQL), words with a digit are kept as they are
 * (the `simple` dictionary), stop words yield nothing, and every other word is Snowball-stemmed. Unlike
 * PostgreSQL's parser, punctuation always separates words: "AI/ML", "node.js" and "e-commerce" are two words
 * each here, where the database keeps a file path, host or compound as one more lexeme. A compound written
 * hyphenated, spaced or joined ("Pre-Sales", "pre sales", "presales") is one word, its joined form
 * (query/word-forms.ts): the database gives the same lexemes for `joinWordForms(text)`.
 */

export interface Lexeme {
  lexeme: string;
  /** 1-based word position. */
  pos: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
const HAS_DIGIT = /\p{N}/u;

/** Word -> lexeme ('' for a stop word). Titles repeat a small vocabulary; the bound keeps odd queries from growing it. */
const cache = new Map<string, string>();
const CACHE_MAX = 100_000;

export function lexemeOf(word: string): string {
  let lexeme = cache.get(word);
  if (lexeme === undefined) {
    lexeme = HAS_DIGIT.test(word) ? word : STOP_WORDS.has(word) ? '' : stem(word);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(word, lexeme);
  }
  return lexeme;
}

export function lexemes(text: string): Lexeme[] {
  const out: Lexeme[] = [];
  let pos = 0;
  const words =
    wordFormSpans(text).length > 0 ? wordsOf(text).map((w) => w.word) : text.toLowerCase().match(WORD);
  for (const word of words ?? []) {
    pos++;
    const lexeme = lexemeOf(word);
    if (lexeme !== '') out.push({ lexeme, pos });
  }
  return out;
}

export interface TextWord {
  /** The word, lower-cased. */
  word: string;
  /** Its lexeme ('' for a stop word). */
  lexeme: string;
  /** Where it stands in the text: [start, end) in UTF-16 code units. */
  start: number;
  end: number;
}

/** Each word of a text with its lexeme and its place in the text; a compound is one word, joined. */
export function wordsOf(text: string): TextWord[] {
  const out: TextWord[] = [];
  const spans = wordFormSpans(text);
  let next = 0;
  for (const m of text.matchAll(WORD)) {
    const span = spans[next];
    if (span !== undefined && m.index >= span.start) {
      if (m.index === span.start) out.push({ ...span, lexeme: lexemeOf(span.word) });
      if (m.index + m[0].length >= span.end) next++;
      continue;
    }
    const word = m[0].toLowerCase();
    out.push({ word, lexeme: lexemeOf(word), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** The distinct lexemes of a text, in order of first occurrence. */
export function distinctLexemes(text: string): string[] {
  return [...new Set(lexemes(text).map((l) => l.lexeme))];
}

export interface AllWordsQuery {
  /** Lexemes every match contains. */
  exact: string[];
  /** The last word as a prefix lexeme ("kube" matches "kubernet"), when the query ends with a plain word. */
  prefix: string | null;
}

/**
 * The keyword list's query, as keyword.ts builds it for PostgreSQL: websearch text ANDed with the last word as a
 * prefix (itself stemmed, like `to_tsquery('english', 'engineers:*')`). Only for queries without websearch
 * operators: those are answered by PostgreSQL.
 */
export function allWordsQuery(query: string): AllWordsQuery {
  const parts = tsQueryParts(query);
  const exact = distinctLexemes(parts.web);
  const word = parts.prefix?.slice(0, -2);
  const prefix = word ? lexemeOf(word) || null : null;
  return { exact, prefix };
}
