import type { RoleCategory } from '../../catalog/types.js';
import { lexemeOf, lexemes } from '../keyword-index/lexemes.js';

/**
 * Queries that describe a client-facing role without naming it ("technical person who demos the product to
 * prospects", "help customers get set up"). Each entry is what the role taxonomy says the role's people do
 * (shared with docs/search.md): the words a description of that work holds (`all`, and one of `any` when given).
 * A query that names no role phrase and holds such words asks for jobs of those categories; query-terms.ts reads
 * it as one unit met by the categories' role phrases or by any job of the categories.
 */

interface Paraphrase {
  roles: readonly RoleCategory[];
  all: readonly string[];
  any?: readonly string[];
}

/** Whom the work is for. */
const CUSTOMERS = ['customer', 'customers', 'client', 'clients', 'user', 'users', 'account', 'accounts'];
const BUYERS = [
  ...CUSTOMERS,
  'prospect',
  'prospects',
  'buyer',
  'buyers',
  'product',
  'sales',
  'deal',
  'deals',
];

const PARAPHRASES: readonly Paraphrase[] = [
  // Technical sellers and solution designers: show the product to buyers.
  { roles: ['sales_engineer', 'solutions_engineer'], all: ['demos'], any: BUYERS },
  {
    roles: ['sales_engineer', 'solutions_engineer'],
    all: ['technical'],
    any: ['seller', 'sells', 'selling'],
  },
  { roles: ['solutions_engineer'], all: ['designs', 'solutions'], any: BUYERS },
  // Onboarding: get customers set up on the product and configure it for them.
  { roles: ['implementation'], all: ['setup'], any: CUSTOMERS },
  { roles: ['implementation'], all: ['onboards'], any: CUSTOMERS },
  { roles: ['implementation'], all: ['configures'], any: CUSTOMERS },
  // Adoption, retention and renewal.
  { roles: ['csm'], all: ['renewals'], any: CUSTOMERS },
  { roles: ['csm'], all: ['retention'], any: CUSTOMERS },
  { roles: ['csm'], all: ['adoption'], any: CUSTOMERS },
  // A named technical contact for accounts.
  { roles: ['tam'], all: ['technical', 'contact'], any: CUSTOMERS },
  // Engineers who build in the customer's environment.
  { roles: ['fde'], all: ['builds', 'onsite'], any: CUSTOMERS },
  // Billable delivery.
  { roles: ['professional_services'], all: ['billable'] },
  { roles: ['professional_services'], all: ['delivers', 'projects'], any: CUSTOMERS },
];

interface Cues {
  roles: readonly RoleCategory[];
  all: string[];
  any: Set<string> | undefined;
}

const CUES: Cues[] = PARAPHRASES.map((p) => ({
  roles: p.roles,
  all: p.all.map(lexemeOf),
  any: p.any && new Set(p.any.map(lexemeOf)),
}));

/** The role categories a query describes without naming them (empty when it describes none). */
export function paraphrasedRoles(text: string): RoleCategory[] {
  const words = new Set(lexemes(text).map((l) => l.lexeme));
  const out = new Set<RoleCategory>();
  for (const c of CUES) {
    if (!c.all.every((w) => words.has(w))) continue;
    if (c.any && ![...c.any].some((w) => words.has(w))) continue;
    for (const r of c.roles) out.add(r);
  }
  return [...out];
}
