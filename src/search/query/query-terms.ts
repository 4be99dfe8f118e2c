import { CLIENT_FACING_CATEGORIES } from '../../catalog/vocabulary.js';
import { type Lexicon, rawTokens } from '../embedders/static.js';
import { lexemes } from '../keyword-index/lexemes.js';
import { paraphrasedRoles } from './paraphrases.js';
import { joinWordForms } from './word-forms.js';

/**
 * What a job search asks of a title, word by word: the query (corrected, without the places it names and
 * without the company it names) as units that a job satisfies or not. A unit is a word, an abbreviation of the
 * lexicon ("PM": the word itself, or "product manager"), or a role phrase of the role taxonomy ("customer
 * success": those words, or any job of that category). title-fit.ts scores jobs by how many units they satisfy.
 */

export interface QueryUnit {
  /** Lexeme sets of which any one, found whole in the title, satisfies the unit. */
  alternatives: string[][];
  /** Role categories whose jobs satisfy the unit whatever their title. */
  roles: ReadonlySet<string>;
  /** The query's last word, still being typed: it also matches a title word it begins. */
  prefix: boolean;
}

export interface QueryTerms {
  units: QueryUnit[];
  /** The words of the units, abbreviations spelled out ("PM london" -> "product manager"): the role part. */
  text: string;
  /** The categories its role phrases name, and the words outside them ("customer-facing engineer": the seven
   * client-facing categories, "engineer"). */
  roles: string[];
  others: string;
  /** A query describing roles without naming them (paraphrases.ts): one role phrase of each, to rank by. */
  described: string[];
}

/**
 * Words naming every client-facing category at once: the taxonomy's client-facing group ("client_facing=true
 * returns all seven"), as people write it.
 */
const CLIENT_FACING_PHRASES = ['client facing', 'customer facing'];
/** Words that say a job is wanted, not which. */
const FILLER = new Set(['job', 'jobs', 'role', 'roles', 'position', 'positions', 'opening', 'openings']);

interface Phrase {
  tokens: string[];
  roles: ReadonlySet<string>;
}

/** Tokens with compounds joined ("pre-sales" and "pre sales" are "presales", as the index reads titles). */
const split = (text: string) => rawTokens(joinWordForms(text)).flatMap((t) => t.split('-'));

/** The roles a query describes without naming them (its named ones are read from the lexicon elsewhere). */
export const describedRoles = (terms: QueryTerms): string[] =>
  terms.described.length > 0 ? terms.roles : [];

export class QueryTermParser {
  private readonly phrases: Phrase[] = [];

  constructor(private readonly lexicon: Lexicon) {
    for (const [role, def] of Object.entries(lexicon.roles)) {
      for (const p of def.phrases) this.phrases.push({ tokens: split(p), roles: new Set([role]) });
    }
    const group = new Set<string>(CLIENT_FACING_CATEGORIES);
    for (const p of CLIENT_FACING_PHRASES) this.phrases.push({ tokens: split(p), roles: group });
    // Longest first, so that "customer success manager" is one unit rather than "customer success" + a word.
    this.phrases.sort((a, b) => b.tokens.length - a.tokens.length);
  }

  /**
   * The units of `text` (the corrected query), leaving out the tokens of `places` (location terms, as
   * QueryUnderstanding.locationTerms spells them: aliases expanded, one word or a pair).
   */
  parse(text: string, places: readonly string[], typing: boolean): QueryTerms {
    const tokens = split(text).filter((t) => !FILLER.has(t));
    const expanded = tokens.map((t) => this.lexicon.aliases[t] ?? t);
    const keep = tokens.map(() => true);
    const placeSet = new Set(places);
    for (let i = 0; i < tokens.length; i++) {
      if (placeSet.has(expanded[i]!) || placeSet.has(tokens[i]!)) keep[i] = false;
      const pair = i + 1 < tokens.length ? `${expanded[i]} ${expanded[i + 1]}` : undefined;
      if (pair !== undefined && placeSet.has(pair)) keep[i] = keep[i + 1] = false;
    }
    const units: QueryUnit[] = [];
    const words: string[] = [];
    const roles = new Set<string>();
    const others: string[] = [];
    for (let i = 0; i < tokens.length; ) {
      if (!keep[i]) {
        i++;
        continue;
      }
      const phrase = this.phrases.find((p) => p.tokens.every((t, j) => keep[i + j] && tokens[i + j] === t));
      const span = phrase ? phrase.tokens.length : 1;
      const last = i + span === tokens.length && typing;
      const own = tokens.slice(i, i + span).join(' ');
      const alias = span === 1 ? this.lexicon.aliases[tokens[i]!] : undefined;
      const alternatives = [own, ...(alias !== undefined ? [alias] : [])]
        .map((t) => lexemes(t).map((l) => l.lexeme))
        .filter((a) => a.length > 0);
      const named = phrase?.roles ?? (alias !== undefined ? this.rolesOf(alias) : new Set<string>());
      if (alternatives.length > 0) units.push({ alternatives, roles: named, prefix: last });
      words.push(alias ?? own);
      for (const r of named) roles.add(r);
      if (named.size === 0) others.push(alias ?? own);
      i += span;
    }
    const kept = words.join(' ');
    if (roles.size === 0) {
      const described = this.described(kept);
      if (described) return { ...described, text: kept };
    }
    return { units, text: kept, roles: [...roles], others: others.join(' '), described: [] };
  }

  /**
   * A description of roles (paraphrases.ts) as one unit: met by a role phrase of the categories in the title
   * or by any job of them; the description's own words ask nothing more of a title.
   */
  private described(text: string): Omit<QueryTerms, 'text'> | undefined {
    const found = paraphrasedRoles(text);
    if (found.length === 0) return undefined;
    const phrases = found.flatMap((r) => (this.lexicon.roles[r]?.phrases ?? []).filter((p) => p.length >= 4));
    const alternatives = phrases.map((p) => lexemes(joinWordForms(p)).map((l) => l.lexeme));
    return {
      units: [{ alternatives, roles: new Set(found), prefix: false }],
      roles: found,
      others: '',
      described: found.flatMap((r) => this.lexicon.roles[r]?.phrases.slice(0, 1) ?? []),
    };
  }

  /** The categories whose role phrase the whole text is ("customer success manager" -> csm). */
  private rolesOf(text: string): ReadonlySet<string> {
    const tokens = split(text);
    const p = this.phrases.find(
      (x) => x.tokens.length === tokens.length && x.tokens.every((t, j) => tokens[j] === t),
    );
    return p?.roles ?? new Set();
  }
}
