/**
 * Scoring of the role classifier on one labelled set: accuracy, client-facing precision and recall (a posting
 * counts as client-facing when its category is one of the seven client-facing ones), mix-ups between two
 * client-facing categories, and the confusion list (expected → got, with counts).
 */
import { readFileSync } from 'node:fs';
import { isClientFacing, ROLE_CATEGORIES, type RoleCategory } from '../../src/catalog/types.js';
import { explainRole } from '../../src/pipeline/classify/classify.js';

export interface Item {
  title: string;
  department?: string;
  description?: string;
  category: RoleCategory;
  source?: string;
}

export interface Miss {
  item: Item;
  got: RoleCategory;
  rule: string;
}

export interface SetScore {
  name: string;
  n: number;
  correct: number;
  /** Of the postings predicted client-facing, the share that are. */
  cfPrecision: number;
  /** Of the client-facing postings, the share predicted client-facing. */
  cfRecall: number;
  /** Client-facing postings filed under another client-facing category. */
  cfMixups: number;
  /** "expected → got" with its count, most frequent first. */
  confusion: Array<[string, number]>;
  misses: Miss[];
}

export function loadSet(name: string): Item[] {
  const data = JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), 'utf8')) as {
    items: Item[];
  };
  for (const item of data.items) {
    if (!ROLE_CATEGORIES.includes(item.category)) {
      throw new Error(`${name}.json: unknown category ${item.category} for "${item.title}"`);
    }
  }
  return data.items;
}

const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);

export function scoreSet(name: string, items: Item[]): SetScore {
  let correct = 0;
  let cfTrue = 0;
  let cfPredicted = 0;
  let cfBoth = 0;
  let cfMixups = 0;
  const confusion = new Map<string, number>();
  const misses: Miss[] = [];
  for (const item of items) {
    const got = explainRole({
      title: item.title,
      department: item.department,
      description: item.description,
    });
    const expectedCf = isClientFacing(item.category);
    const gotCf = isClientFacing(got.category);
    if (expectedCf) cfTrue += 1;
    if (gotCf) cfPredicted += 1;
    if (expectedCf && gotCf) cfBoth += 1;
    if (got.category === item.category) {
      correct += 1;
      continue;
    }
    if (expectedCf && gotCf) cfMixups += 1;
    const key = `${item.category} → ${got.category}`;
    confusion.set(key, (confusion.get(key) ?? 0) + 1);
    misses.push({ item, got: got.category, rule: got.rule });
  }
  return {
    name,
    n: items.length,
    correct,
    cfPrecision: ratio(cfBoth, cfPredicted),
    cfRecall: ratio(cfBoth, cfTrue),
    cfMixups,
    confusion: [...confusion.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    misses,
  };
}
