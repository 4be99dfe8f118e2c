/**
 * Role classification into the catalog's 18 categories (role-taxonomy.md) from a posting's title and
 * department. All knowledge lives in rules.json; this module only applies it, in the passes that file's
 * $comment describes. Pure and synchronous: the scrape step calls it per posting.
 */
import { ROLE_CATEGORIES, type RoleCategory } from '../../catalog/types.js';
import rules from './rules.json' with { type: 'json' };

interface RawRule {
  category: string;
  scope?: string;
  patterns: string[];
}
interface Rule {
  category: RoleCategory;
  regexes: RegExp[];
}

export interface RoleExplanation {
  category: RoleCategory;
  /** Which pass decided: see rules.json. */
  pass: 'full' | 'main' | 'title' | 'department' | 'default';
  /** The pattern that matched, null for the default. */
  pattern: string | null;
}

function compile(list: RawRule[]): Rule[] {
  return list.map((r) => {
    if (!(ROLE_CATEGORIES as readonly string[]).includes(r.category)) {
      throw new Error(`rules.json: unknown role category ${r.category}`);
    }
    return { category: r.category as RoleCategory, regexes: r.patterns.map((p) => new RegExp(p, 'i')) };
  });
}

const clientFacingAll = rules.clientFacing as RawRule[];
const FULL_SCOPE = compile(clientFacingAll.filter((r) => r.scope === 'full'));
const CLIENT_FACING = compile(clientFacingAll.filter((r) => r.scope !== 'full'));
const BROAD = compile(rules.broad as RawRule[]);
const DEPARTMENT = compile(rules.department as RawRule[]);
const CLIENT_FACING_DEPARTMENT = DEPARTMENT.filter((r) =>
  CLIENT_FACING.some((c) => c.category === r.category),
);
const GENERIC = (rules.generic as string[]).map((p) => new RegExp(p, 'i'));

/** Lower case, '&' → 'and', punctuation that joins words → spaces, whitespace collapsed. */
export function normalizeTitle(s: string): string {
  return s
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[-_.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const stripParens = (s: string) => s.replace(/\([^)]*\)|\[[^\]]*\]/g, ' ');
/** The title before its first separator: "Solutions Engineer, EMEA - Remote" → "solutions engineer". */
const mainSegment = (core: string) => core.split(/\s[-–—|]\s|,|:|\s\/\s|\s–|\s—/)[0]?.trim() ?? core;

function firstMatch(list: Rule[], text: string): { category: RoleCategory; pattern: string } | null {
  if (text === '') return null;
  for (const rule of list) {
    for (const re of rule.regexes) if (re.test(text)) return { category: rule.category, pattern: re.source };
  }
  return null;
}

export function explainRole(title: string, department?: string | null): RoleExplanation {
  const full = normalizeTitle(title.replace(/[–—]/g, ' - '));
  const core = normalizeTitle(stripParens(title).replace(/[–—]/g, ' - '));
  // mainSegment needs the original separators, which normalizeTitle turned into spaces for '-': split first.
  const main = normalizeTitle(mainSegment(stripParens(title).toLowerCase()));
  const dept = normalizeTitle(department ?? '');
  const generic = GENERIC.some((re) => re.test(main));

  const steps: Array<[RoleExplanation['pass'], Rule[], string, boolean]> = [
    ['full', FULL_SCOPE, full, true],
    ['main', CLIENT_FACING, main, true],
    ['main', BROAD, main, !generic],
    ['title', CLIENT_FACING, core, true],
    ['department', CLIENT_FACING_DEPARTMENT, dept, generic],
    ['title', BROAD, core, true],
    ['department', DEPARTMENT, dept, true],
  ];
  for (const [pass, list, text, enabled] of steps) {
    if (!enabled) continue;
    const hit = firstMatch(list, text);
    if (hit) return { category: hit.category, pass, pattern: hit.pattern };
  }
  return { category: 'other', pass: 'default', pattern: null };
}

/** The posting's role category; never throws, 'other' when nothing matches. */
export function classifyRole(title: string, department?: string | null): RoleCategory {
  return explainRole(title, department).category;
}
