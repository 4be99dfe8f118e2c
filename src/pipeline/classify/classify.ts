/**
 * Role classification into the catalog's 18 categories (docs/sources.md) from a posting's title, its
 * department and, for the few titles that do not say on their own whether the role faces customers, the first
 * lines of its description. Phrase rules (rules.json, applied in the passes its $comment describes) decide first;
 * where they only guess, a learned model (model.ts, trained from the labelled sets) may decide instead. The result
 * says what decided (`rule`: "<where>:<rule id>", stable across releases so that a wrong label can be reported and
 * its rule fixed, or "model:<strongest features>"). Pure and synchronous: the scrape step calls it per posting.
 */
import { isClientFacing, ROLE_CATEGORIES, type RoleCategory } from '../../catalog/types.js';
import { type ModelDecision, predictRole } from './model.js';
import { normalizeTitle } from './normalize.js';
import rules from './rules.json' with { type: 'json' };

export { normalizeTitle };

export interface RoleInput {
  title: string;
  department?: string | null;
  /** Plain-text description; only its first DESCRIPTION_LEAD characters are read. */
  description?: string | null;
}

export interface Classification {
  category: RoleCategory;
  /**
   * Which rule decided: "title:<id>" (a title rule), "department:<id>" (the department, for a title that names
   * no function or one that needs context), "description:<id>" (the description's first lines, for a title that
   * needs context), "model:<features>" (the learned model, naming the features that carried it) or "default:other".
   */
  rule: string;
}

/** How much of a description counts as its first lines: the role summary, before requirements and boilerplate. */
export const DESCRIPTION_LEAD = 1200;

interface RawRule {
  id: string;
  category?: string;
  scope?: string;
  /** A 'full' rule that also reads the department, after the title and ' | '. */
  withDepartment?: boolean;
  patterns: string[];
}
interface Rule {
  id: string;
  category: RoleCategory;
  regexes: RegExp[];
  withDepartment?: boolean;
}
/** A title that needs context, and the signals (department or description) that settle it. */
interface ContextRule extends Rule {
  departments: Rule[];
  descriptions: Rule[];
}

const seenIds = new Set<string>();
function compile(list: RawRule[], group: string, fixed?: RoleCategory): Rule[] {
  return list.map((r) => {
    const category = (fixed ?? r.category) as RoleCategory;
    if (!(ROLE_CATEGORIES as readonly string[]).includes(category)) {
      throw new Error(`rules.json: unknown role category ${r.category} in rule ${r.id}`);
    }
    const key = `${group}:${r.id}`;
    if (!r.id || seenIds.has(key)) throw new Error(`rules.json: missing or repeated rule id ${key}`);
    seenIds.add(key);
    const regexes = r.patterns.map((p) => new RegExp(p, 'i'));
    return { id: r.id, category, regexes, withDepartment: r.withDepartment === true };
  });
}

const clientFacingAll = rules.clientFacing as RawRule[];
const FULL_SCOPE = compile(
  clientFacingAll.filter((r) => r.scope === 'full'),
  'full',
);
const CLIENT_FACING = compile(
  clientFacingAll.filter((r) => r.scope !== 'full'),
  'cf',
);
const BROAD = compile(rules.broad as RawRule[], 'broad');
const DEPARTMENT = compile(rules.department as RawRule[], 'department');
/** Head nouns that usually name a client-facing role, read when no other pass named a function. */
const FALLBACK = compile(rules.fallback as RawRule[], 'fallback');
const CLIENT_FACING_DEPARTMENT = DEPARTMENT.filter((r) =>
  CLIENT_FACING.some((c) => c.category === r.category),
);
const GENERIC = (rules.generic as string[]).map((p) => new RegExp(p, 'i'));
const YIELDING = (rules.yielding as string[]).map((p) => new RegExp(p, 'i'));
const CUSTOMER_TEAM = (rules.customerTeam as string[]).map((p) => new RegExp(p, 'i'));
/** Titles that name a rank, not a role, and put the role in brackets: "Member of Technical Staff (Data Scientist)". */
const ASIDE_ROLE = (rules.asideRole as string[]).map((p) => new RegExp(p, 'i'));
const CONTEXT: ContextRule[] = compile(rules.context.titles as RawRule[], 'context').map((rule) => ({
  ...rule,
  departments: compile(
    rules.context.departments as RawRule[],
    `context-department-${rule.id}`,
    rule.category,
  ),
  descriptions: compile(
    rules.context.descriptions as RawRule[],
    `context-description-${rule.id}`,
    rule.category,
  ),
}));

const stripParens = (s: string) => s.replace(/\([^)]*\)|\[[^\]]*\]/g, ' ');
/**
 * The title before its first separator: "Solutions Engineer, EMEA - Remote" → "solutions engineer". A hyphen with
 * a space on one side only ("Manager -Professional Services", "Architect- Quote to Order") separates too; one
 * between two words ("Full-Stack") does not.
 */
const mainSegment = (core: string) =>
  core.split(/\s[-–—|]\s|\s-(?=\w)|(?<=\w)-\s|,|:|\s\/\s|\s–|\s—|\|/)[0]?.trim() ?? core;

/** The first rule matching the text; a rule withDepartment reads withDept (the text, ' | ', the department) instead. */
function firstMatch(list: Rule[], text: string, withDept = text): Rule | null {
  if (text === '') return null;
  for (const rule of list) {
    const read = rule.withDepartment ? withDept : text;
    for (const re of rule.regexes) if (re.test(read)) return rule;
  }
  return null;
}

/** The rule matching earliest in the text (rule order breaks ties): a title's qualifiers name its function first. */
function leftmostMatch(list: Rule[], text: string): Rule | null {
  let best: Rule | null = null;
  let bestAt = Number.POSITIVE_INFINITY;
  for (const rule of list) {
    for (const re of rule.regexes) {
      const at = text.search(re);
      if (at >= 0 && at < bestAt) {
        best = rule;
        bestAt = at;
      }
    }
  }
  return best;
}

/** The department, then the description's first lines, for a title that needs context to be client-facing. */
function fromContext(t: Texts, lead: string): Classification | null {
  for (const rule of CONTEXT) {
    if (!rule.regexes.some((re) => re.test(t.main) || re.test(t.core))) continue;
    const byDepartment = firstMatch(rule.departments, t.dept);
    if (byDepartment) return { category: rule.category, rule: `department:${byDepartment.id}` };
    const byDescription = firstMatch(rule.descriptions, lead);
    if (byDescription) return { category: rule.category, rule: `description:${byDescription.id}` };
  }
  return null;
}

interface Texts {
  full: string;
  core: string;
  main: string;
  /** The title after its main segment: its qualifiers ("Manager, Partner Success Operations" → "partner success operations"). */
  rest: string;
  dept: string;
  /** The department and the title's bracketed asides: the team a title names "(Customer Success)" counts as its own. */
  team: string;
  /** The whole title, ' | ', the department: what a rule withDepartment reads. */
  fullDept: string;
}

function texts(input: RoleInput): Texts {
  const title = input.title.replace(/[–—]/g, ' - ');
  const core = normalizeTitle(stripParens(title));
  // mainSegment needs the original separators, which normalizeTitle turns into spaces for '-': split first.
  const main = normalizeTitle(mainSegment(stripParens(title).toLowerCase()));
  const full = normalizeTitle(title);
  const dept = normalizeTitle(input.department ?? '');
  const asides = [...title.matchAll(/\(([^)]*)\)|\[([^\]]*)\]/g)].map((m) => m[1] ?? m[2] ?? '');
  return {
    full,
    core,
    main,
    rest: core.startsWith(main) ? core.slice(main.length).trim() : '',
    dept,
    team: normalizeTitle([input.department ?? '', ...asides].join(' | ')),
    fullDept: dept === '' ? full : `${full} | ${dept}`,
  };
}

type Pass = 'title' | 'department' | 'context';
/** Each pass's name (what RulesDecision.step reports), where it looks, what it reads, whether it runs, and how. */
type Step = [string, Pass, Rule[], keyof Texts, boolean, 'first' | 'leftmost'];

/**
 * The passes, in order (rules.json's $comment says why): a client-facing word in the main segment; context for
 * titles that need it; a customer team's category for a growth or retention title filed under it; the main
 * segment's function unless it is a head noun that yields; a client-facing word anywhere; for a bare head noun, the
 * function its qualifiers name, then the department's client-facing team; the yielding head noun's own function;
 * any function in the title; the department; a head noun that usually names a client-facing role; 'other'.
 */
function steps(generic: boolean, yielding: boolean, customerTeam: boolean): Step[] {
  // A bare head noun that names no function ("Manager", "Lead"), unlike "Software Engineer".
  const functionless = generic && !yielding;
  return [
    ['full', 'title', FULL_SCOPE, 'full', true, 'first'],
    ['client-facing', 'title', CLIENT_FACING, 'main', true, 'first'],
    ['context', 'context', [], 'main', true, 'first'],
    ['customer-team', 'department', CLIENT_FACING_DEPARTMENT, 'team', customerTeam, 'first'],
    ['function', 'title', BROAD, 'main', !yielding && !functionless, 'first'],
    ['client-facing-anywhere', 'title', CLIENT_FACING, 'core', true, 'first'],
    ['qualifier', 'title', BROAD, 'rest', functionless, 'leftmost'],
    ['team', 'department', CLIENT_FACING_DEPARTMENT, 'dept', generic, 'first'],
    ['head', 'title', BROAD, 'main', yielding || functionless, 'first'],
    ['function-anywhere', 'title', BROAD, 'core', true, 'leftmost'],
    ['department', 'department', DEPARTMENT, 'dept', true, 'first'],
    ['fallback', 'title', FALLBACK, 'main', true, 'first'],
  ];
}

/** A rules decision and the pass of steps() that made it ('default' when no rule matched). */
export interface RulesDecision extends Classification {
  step: string;
}

/** The role a rank-only title names in its brackets, when the brackets name a function a rule knows. */
function asideRole(input: RoleInput): RulesDecision | null {
  const outside = normalizeTitle(stripParens(input.title));
  if (!ASIDE_ROLE.some((re) => re.test(outside))) return null;
  const aside = /\(([^)]+)\)/.exec(input.title)?.[1];
  if (!aside) return null;
  const decided = explainByRules({ ...input, title: aside });
  return decided.step === 'default' || decided.step === 'department' ? null : decided;
}

/** The rules alone: the first pass that matches decides. */
export function explainByRules(input: RoleInput): RulesDecision {
  const fromAside = asideRole(input);
  if (fromAside) return fromAside;
  const t = texts(input);
  const generic = GENERIC.some((re) => re.test(t.main));
  const yielding = YIELDING.some((re) => re.test(t.main));
  const customerTeam = CUSTOMER_TEAM.some((re) => re.test(t.main));
  const lead = (input.description ?? '').slice(0, DESCRIPTION_LEAD).toLowerCase();
  for (const [step, where, list, field, enabled, how] of steps(generic, yielding, customerTeam)) {
    if (!enabled) continue;
    if (where === 'context') {
      const decided = fromContext(t, lead);
      if (decided) return { ...decided, step };
      continue;
    }
    const hit = how === 'first' ? firstMatch(list, t[field], t.fullDept) : leftmostMatch(list, t[field]);
    if (hit) return { category: hit.category, rule: `${where}:${hit.id}`, step };
  }
  return { category: 'other', rule: 'default:other', step: 'default' };
}

/** Passes whose decision the learned model may overrule: a function found anywhere, the department, a fallback head noun, no rule. */
const WEAK_STEPS = new Set(['function-anywhere', 'department', 'fallback', 'default']);
/** The model's probability from which it overrules a weak pass (chosen by company-grouped cross-validation). */
export const MODEL_CONFIDENCE = 0.7;

/**
 * Rules first; the model decides where the rules only guessed (a weak pass), it is confident, and its three
 * strongest features include the title's head noun or the department, not only words that happen to recur in one
 * company's titles ("Member of Technical Staff" must not make every "Team Member" an engineer). It never files a
 * posting as client-facing: client-facing takes a rule. The model's client-facing calls came from ambiguous head
 * nouns ("Engagement Manager", "Delivery Manager", "Business Consultant") whose meaning changes from one company to
 * the next; on companies it had not seen they were wrong more often than right (docs/sources.md).
 */
export function combine(rules: RulesDecision, model: ModelDecision | null): Classification {
  const decides =
    model !== null &&
    WEAK_STEPS.has(rules.step) &&
    model.category !== rules.category &&
    !isClientFacing(model.category) &&
    model.probability >= MODEL_CONFIDENCE &&
    model.evidence.some((f) => f.startsWith('h:') || f.startsWith('d:'));
  if (decides) return { category: model.category, rule: `model:${model.evidence.slice(0, 2).join('+')}` };
  return { category: rules.category, rule: rules.rule };
}

export function explainRole(input: RoleInput): Classification {
  const rules = explainByRules(input);
  const model = WEAK_STEPS.has(rules.step) ? predictRole(input.title, input.department) : null;
  return combine(rules, model);
}

/** The posting's role category; never throws, 'other' when nothing matches. */
export function classifyRole(
  title: string,
  department?: string | null,
  description?: string | null,
): RoleCategory {
  return explainRole({ title, department, description }).category;
}
