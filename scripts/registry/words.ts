/** How a domain's word, a board identifier and a display name are compared by the identity rules (identity.ts). */
import { parse as parseDomain } from 'tldts';
import type { RegistryVendor } from '../../src/registry/schema.js';
import { key } from './facts.js';

/** Words a board identifier or a display name may add to the company's own word. */
const AFFIXES = ['ai', 'hq', 'labs', 'inc', 'app', 'io', 'careers', 'jobs', 'team'];

/** A display name that says AI ("Zeta AI", "Exa.ai"). */
export const AI_MARK = /\bai\b|\.ai$/i;

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
