/**
 * The identity rules of the registry (docs/registry.md): which job board belongs to which AI company. A board
 * is joined to a company by its identifier matching the company's domain, and kept only with a second signal:
 * the board's own postings link to the company's domain, the board list's own display name for it matches the
 * company, or two independent sources list it.
 */
import { parse as parseDomain } from 'tldts';
import type { CompanyCategory } from '../../src/catalog/vocabulary.js';
import type { RegistryEntry, RegistryVendor } from '../../src/registry/schema.js';
import { type AiHint, type BoardFact, type CompanyFact, type Facts, key, type PostingLink } from './facts.js';
import { linkedCompanies } from './linked.js';
import { domainInName } from './parse.js';
import { PLATFORM_DOMAINS } from './platforms.js';
import {
  AI_MARK,
  bare,
  bareName,
  boardKey,
  idKeys,
  isCommonWord,
  NAME_ENDINGS,
  ownsWord,
  spellsDomain,
  startsWithWords,
  word,
  wordKeys,
} from './words.js';

export interface SourceInfo {
  id: string;
  /** UTC date (YYYY-MM-DD) of the pinned commit: the day the source last listed what it lists. */
  date: string;
  discovered: boolean;
  /**
   * Whether a list edited by hand picks each board for its company, so that its name for a board vouches for a
   * short or common word (rule 3); by default every list not kept current by a program does. A list whose
   * entries a program also mines and that names no websites does not: it cannot say which company of a name
   * it means.
   */
  picks?: boolean;
}

export type RejectReason =
  | 'platform-domain'
  | 'short-name-unvouched'
  | 'no-company-name'
  | 'names-another-company'
  | 'links-another-domain'
  | 'one-source-without-name'
  | 'superseded-board'
  | 'ambiguous-boards'
  | 'board-of-two-companies'
  | 'name-of-two-companies';

export interface BuildResult {
  entries: RegistryEntry[];
  /** AI companies with a domain, whether or not a board list knows them. */
  aiCompanies: number;
  withoutBoard: number;
  /** (company, board) pairs found by the identifier join: each is accepted or rejected for one reason. */
  candidates: number;
  rejected: Map<RejectReason, string[]>;
}

/**
 * A domain word this short, matched by a one-word name, is often a word many companies share ("rocket",
 * "guild"): the board list's name must then say AI ("Zeta AI", "Exa.ai"), an AI list must name the board's
 * vendor, or the hand-edited list must give the board to the company.
 */
const SHORT_NAME = 6;

interface Board {
  vendor: RegistryVendor;
  board: string;
  names: Map<string, string>;
  sources: Set<string>;
  /** Domains most of the board's saved postings link to. */
  links: PostingLink[];
}

interface Company {
  names: string[];
  sources: string[];
  category: CompanyCategory;
}

interface Kept {
  board: Board;
  /** The board list's display name that matched the company, when one did. */
  name?: string;
  evidence: 'board-url' | 'two-sources' | 'postings';
  support: number;
}

export function buildRegistry(facts: Facts[], sources: SourceInfo[]): BuildResult {
  const info = new Map(sources.map((s) => [s.id, s]));
  const byId = indexBoards(
    facts.flatMap((f) => f.boards),
    facts.flatMap((f) => f.links),
  );
  const boards = groupBy([...byId.values()], boardKey);
  const linked = groupBy(
    [...byId.values()].flatMap((b) => b.links.map((l) => ({ b, domain: l.domain }))),
    (x) => x.domain,
  );
  const hints = groupBy(
    facts.flatMap((f) => f.hints),
    (h) => h.key,
  );
  const companies = indexCompanies([...facts.flatMap((f) => f.companies), ...linkedCompanies(facts)]);
  const result: BuildResult = {
    entries: [],
    aiCompanies: companies.size,
    withoutBoard: 0,
    candidates: 0,
    rejected: new Map(),
  };
  const reject = (reason: RejectReason, example: string) => {
    const list = result.rejected.get(reason) ?? [];
    list.push(example);
    result.rejected.set(reason, list);
  };
  for (const [domain, company] of [...companies].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const candidates = [
      ...new Set([
        ...[...idKeys(domain)].flatMap((k) => boards.get(k) ?? []),
        // A board whose postings link here joins by its identifier too: the domain's word is the identifier
        // with one affix ("lambda" for lambdalabs.com); a link alone goes to partners' and tools' sites.
        ...(linked.get(domain) ?? [])
          .map((x) => x.b)
          .filter((b) => idKeys(`${boardKey(b)}.x`).has(word(domain))),
      ]),
    ];
    if (candidates.length === 0) {
      result.withoutBoard++;
      continue;
    }
    result.candidates += candidates.length;
    if (PLATFORM_DOMAINS.has(domain)) {
      for (const b of candidates) reject('platform-domain', `${domain} ${b.vendor}:${b.board}`);
      continue;
    }
    const kept: Kept[] = [];
    for (const b of candidates) {
      const verdict = judge(b, domain, company, hints, info);
      if (typeof verdict === 'string') reject(verdict, `${domain} ${b.vendor}:${b.board}`);
      else kept.push(verdict);
    }
    const chosen = choose(kept, domain, info);
    for (const k of kept)
      if (chosen.length > 0 && !chosen.includes(k)) reject('superseded-board', label(domain, k.board));
    if (chosen.length === 0 && kept.length > 0)
      for (const k of kept) reject('ambiguous-boards', label(domain, k.board));
    if (chosen.length === 0) continue;
    result.entries.push(entry(domain, company, chosen, info));
  }
  const mentioned = new Set(
    facts.flatMap((f) => f.mentions ?? []).map((m) => `${m.vendor}:${m.board.toLowerCase()} ${m.domain}`),
  );
  result.entries = dropShared(
    result.entries,
    (e) => companies.get(e.domain)?.sources.length ?? 0,
    (e, board) =>
      mentioned.has(`${board} ${e.domain}`) ||
      (byId.get(board)?.links ?? []).some((l) => l.domain === e.domain),
    reject,
  );
  return result;
}

function judge(
  b: Board,
  domain: string,
  company: Company,
  hints: Map<string, AiHint[]>,
  info: Map<string, SourceInfo>,
): Kept | RejectReason {
  const aiHints = (hints.get(key(b.board)) ?? []).filter((h) => h.vendor === b.vendor);
  const support = b.sources.size + aiHints.filter((h) => !b.sources.has(h.source)).length;
  const own = nameKeys(domain, company);
  const names = [...b.names.values()];
  // A list that shortened the company's name ("1910" for "1910 Genetics") names it when the board's identifier
  // spells the whole name: the identifier carries the words the list dropped.
  const whole = (n: string) => company.names.find((c) => key(c) === boardKey(b) && startsWithWords(c, n));
  const listed = [...info.keys()]
    .map((s) => b.names.get(s))
    .find((n): n is string => n !== undefined && (own.has(bareName(n)) || whole(n) !== undefined));
  const match = listed && !own.has(bareName(listed)) ? whole(listed) : listed;
  // An identifier that is the whole domain, dot and suffix included (`nomic.ai`), names the company by itself.
  const spelled = b.board.toLowerCase() === domain;
  // A short or common word is many companies' name: the board needs a voucher beyond it. The identifier vouches
  // when it spells the whole domain, suffix apart (`atla-ai-com`, not `nomiso` for nomi.so), or adds `ai` to the word (`assemblyai`, `tintai`), as a name
  // that says AI does; so does stapply's AI list naming the board with its vendor.
  const stem = bare(word(domain));
  const guarded = stem.length <= SHORT_NAME || isCommonWord(stem);
  const idVouches =
    spelled || spellsDomain(b.board, domain) || boardKey(b) === `${stem}ai` || aiHints.length > 0;
  // The board's own postings outrank any list: they link to the company's site, or to another company's.
  if (b.links.some((l) => l.domain === domain))
    return { board: b, name: match, evidence: 'postings', support };
  if (b.links.some((l) => ownsWord(l.domain, boardKey(b)))) return 'links-another-domain';
  if (names.length > 0) {
    if (!match) return 'names-another-company';
    const words = match.split(/\s+/).filter((w) => key(w) !== '' && !NAME_ENDINGS.includes(key(w)));
    // A hand-edited list's editor chose the board for the company.
    const picked = [...b.names].some(([s, n]) => picks(info.get(s)) && own.has(bareName(n)));
    // Any list's name for the board that says AI, or that is the company's whole domain ("You.com", "VEED.IO"),
    // vouches, though another list names the board by the bare word ("Krea AI" and "Krea" on `krea`).
    const said = [match, ...names.filter((n) => own.has(bareName(n)))];
    const vouched = idVouches || picked || said.some((n) => AI_MARK.test(n) || domainInName(n) === domain);
    if (guarded && words.length <= 1 && !vouched) return 'short-name-unvouched';
    return { board: b, name: match, evidence: 'board-url', support };
  }
  if (spelled) return { board: b, evidence: 'board-url', support };
  if (support < 2) return 'one-source-without-name';
  if (!company.names.some((n) => wordKeys(domain).has(bareName(n)))) return 'no-company-name';
  // Two lists naming a board say that it exists, not whose it is: a short or common word needs its voucher too.
  if (guarded && !idVouches) return 'short-name-unvouched';
  return { board: b, evidence: 'two-sources', support };
}

/**
 * One company, one current board: a board whose own postings link to the company's domain outranks boards that
 * only a name or a count of lists ties to it (the `juicebox` Ashby board, whose postings link to juicebox.ai, not
 * a `juicebox` board of another vendor that a list names "Juicebox"). Then a board a list names by the company's
 * whole domain ("Proton.ai" on `protonai`), or whose identifier is that domain (`nomic.ai`), outranks boards of
 * another identifier named by the bare word ("Proton" on `proton`, another company's); then the board the newest
 * discovered list names wins (a company that moved vendor keeps its old board in older lists), then the board
 * more sources name. A tie left after that is ambiguous and keeps nothing.
 */
function choose(kept: Kept[], domain: string, info: Map<string, SourceInfo>): Kept[] {
  if (kept.length <= 1) return kept;
  const linked = kept.filter((k) => k.evidence === 'postings');
  if (linked.length > 0) kept = linked;
  const whole = new Set(
    kept
      .filter((k) => [...k.board.names.values()].some((n) => key(n) === key(domain)))
      .map((k) => boardKey(k.board)),
  );
  if (whole.size > 0) kept = kept.filter((k) => whole.has(boardKey(k.board)));
  const spelled = kept.filter((k) => k.board.board.toLowerCase() === domain);
  if (spelled.length > 0) kept = spelled;
  if (kept.length === 1) return kept;
  const newest = (k: Kept) =>
    [...listedBy(k.board)]
      .map((s) => info.get(s))
      .filter((s) => s?.discovered)
      .map((s) => s?.date ?? '')
      .sort()
      .at(-1) ?? '';
  const top = kept.map(newest).sort().at(-1) ?? '';
  let left = kept.filter((k) => newest(k) === top);
  const most = Math.max(...left.map((k) => k.support));
  left = left.filter((k) => k.support === most);
  return left.length === 1 ? left : [];
}

function entry(
  domain: string,
  company: Company,
  chosen: Kept[],
  info: Map<string, SourceInfo>,
): RegistryEntry {
  const first = chosen[0] as Kept;
  const shown = first.name;
  // The AI list's spelling of the same name when the board list only capitalised an identifier: "Boston
  // Dynamics" for "Bostondynamics", "HappyRobot" for "Happyrobot Inc.", "Atla" for "Atla Ai Com" on atla-ai.com.
  const recased = shown && /^([A-Z][a-z0-9]*)( [A-Z][a-z0-9]*)*\.?$/.test(shown);
  const spaced = recased
    ? company.names.find(
        (n) =>
          /^[A-Za-z0-9][A-Za-z0-9 .&'-]*$/.test(n) &&
          /[a-z]/.test(n) &&
          /[A-Z]/.test(n) &&
          (key(n) === key(shown) ||
            key(n) === bareName(shown) ||
            (key(shown) === key(domain) && wordKeys(domain).has(key(n)))),
      )
    : undefined;
  const name = shown
    ? (spaced ?? shown)
    : (company.names.find((n) => wordKeys(domain).has(bareName(n))) ?? (company.names[0] as string));
  return {
    name,
    domain,
    category: company.category,
    boards: chosen.map((k) => ({
      vendor: k.board.vendor,
      board: k.board.board,
      lastSeen:
        [...listedBy(k.board)]
          .map((s) => info.get(s)?.date ?? '')
          .sort()
          .at(-1) ?? '',
      evidence: k.evidence,
      sources: [...new Set([...listedBy(k.board), ...company.sources])].sort(),
    })),
  };
}

/**
 * A board two domains claim goes to the domain its name spells whole ("Ambient.ai"), then to the domain its saved
 * postings link to, then to the domain more sources name (one company listed under two domains); on a tie it identifies neither. A name two kept domains carry identifies neither either: such rows are left out.
 */
function dropShared(
  entries: RegistryEntry[],
  support: (e: RegistryEntry) => number,
  linked: (e: RegistryEntry, board: string) => boolean,
  reject: (r: RejectReason, e: string) => void,
): RegistryEntry[] {
  const boardKey = (b: { vendor: string; board: string }) => `${b.vendor}:${b.board.toLowerCase()}`;
  const byBoard = groupBy(
    entries.flatMap((e) => e.boards.map((b) => ({ e, k: boardKey(b) }))),
    (x) => x.k,
  );
  // A domain the board's name spells whole ("Ambient.ai" for ambient.ai) outranks one it spells by the word only;
  // then a domain the board's own postings link to (cohere.com, not cohere.ai); then the sources' count.
  const rank = (e: RegistryEntry, board: string) =>
    (key(e.name) === key(e.domain) ? 2_000_000 : 0) + (linked(e, board) ? 1_000_000 : 0) + support(e);
  const owns = (e: RegistryEntry) =>
    e.boards.every((b) => {
      const rivals = (byBoard.get(boardKey(b)) ?? []).map((x) => x.e).filter((r) => r !== e);
      return rivals.every((r) => rank(r, boardKey(b)) < rank(e, boardKey(b)));
    });
  const kept = entries.filter((e) => {
    if (owns(e)) return true;
    reject('board-of-two-companies', `${e.domain} ${e.boards.map(boardKey).join(' ')}`);
    return false;
  });
  const byName = groupBy(kept, (e) => key(e.name));
  return kept.filter((e) => {
    if ((byName.get(key(e.name))?.length ?? 0) === 1) return true;
    reject('name-of-two-companies', `${e.domain} ${e.name}`);
    return false;
  });
}

/** Every board by `vendor:identifier` (case aside), with the names lists give it and its postings' links. */
function indexBoards(facts: BoardFact[], links: PostingLink[]): Map<string, Board> {
  const byId = new Map<string, Board>();
  const at = (vendor: RegistryVendor, board: string) => {
    const id = `${vendor}:${board.toLowerCase()}`;
    const b: Board = byId.get(id) ?? { vendor, board, names: new Map(), sources: new Set(), links: [] };
    byId.set(id, b);
    return b;
  };
  for (const f of facts) {
    const b = at(f.vendor, f.board);
    b.sources.add(f.source);
    if (f.name && !b.names.has(f.source)) b.names.set(f.source, f.name);
  }
  for (const l of links) at(l.vendor, l.board).links.push(l);
  return byId;
}

/** Sources that show the board: the lists naming it and those holding its postings. */
function listedBy(b: Board): Set<string> {
  return new Set([...b.sources, ...b.links.map((l) => l.source)]);
}

function indexCompanies(facts: CompanyFact[]): Map<string, Company> {
  const out = new Map<string, Company>();
  for (const f of facts) {
    const c = out.get(f.domain) ?? { names: [], sources: [], category: f.category };
    if (!c.names.includes(f.name)) c.names.push(f.name);
    if (!c.sources.includes(f.source)) c.sources.push(f.source);
    out.set(f.domain, c);
  }
  return out;
}

/**
 * Names the company goes by: the AI lists' names for it and its domain's word. A company a list names by its whole
 * domain, with an ending that is no name ending ("Osmosis.Studio"), goes by that name, not by the bare word.
 */
function nameKeys(domain: string, company: Company): Set<string> {
  const suffix = key(parseDomain(domain).publicSuffix ?? '');
  const whole = !NAME_ENDINGS.includes(suffix) && company.names.some((n) => key(n) === key(domain));
  return new Set([...company.names.map(bareName), ...(whole ? [] : wordKeys(domain))]);
}

function picks(s: SourceInfo | undefined): boolean {
  return s !== undefined && (s.picks ?? !s.discovered);
}

function label(domain: string, b: Board): string {
  return `${domain} ${b.vendor}:${b.board}`;
}

function groupBy<T>(items: T[], by: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const k = by(t);
    const list = out.get(k) ?? [];
    list.push(t);
    out.set(k, list);
  }
  return out;
}
