/**
 * `npm run bench:classify`: accuracy of the role classifier on the labelled sets in this directory, with
 * per-category precision/recall and every miss. dev.json is what the rules were written against; holdout.json
 * was written first and never used for tuning, so its accuracy is the honest estimate. Exits 1 below 95%.
 */
import { readFileSync } from 'node:fs';
import { ROLE_CATEGORIES, type RoleCategory } from '../../src/catalog/types.js';
import { explainRole } from '../../src/pipeline/classify/classify.js';

interface Item {
  title: string;
  department?: string;
  category: RoleCategory;
}

const TARGET = 0.95;

function load(name: string): Item[] {
  const data = JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), 'utf8')) as {
    items: Item[];
  };
  for (const item of data.items) {
    if (!ROLE_CATEGORIES.includes(item.category))
      throw new Error(`${name}.json: unknown category ${item.category}`);
  }
  return data.items;
}

const pct = (n: number, d: number) => (d === 0 ? '   -  ' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);

function report(name: string, items: Item[]): number {
  const tp = new Map<RoleCategory, number>();
  const predicted = new Map<RoleCategory, number>();
  const actual = new Map<RoleCategory, number>();
  const misses: string[] = [];
  let correct = 0;
  for (const item of items) {
    const got = explainRole(item.title, item.department);
    predicted.set(got.category, (predicted.get(got.category) ?? 0) + 1);
    actual.set(item.category, (actual.get(item.category) ?? 0) + 1);
    if (got.category === item.category) {
      correct += 1;
      tp.set(got.category, (tp.get(got.category) ?? 0) + 1);
    } else {
      const dept = item.department ? ` [${item.department}]` : '';
      misses.push(
        `  ${item.title}${dept}: expected ${item.category}, got ${got.category} (${got.pass}: ${got.pattern ?? '-'})`,
      );
    }
  }
  console.log(
    `\n== ${name}: ${correct}/${items.length} correct, accuracy ${pct(correct, items.length).trim()}`,
  );
  console.log('  category                 n   precision  recall');
  for (const c of ROLE_CATEGORIES) {
    const n = actual.get(c) ?? 0;
    if (n === 0 && !predicted.get(c)) continue;
    console.log(
      `  ${c.padEnd(22)} ${String(n).padStart(4)}   ${pct(tp.get(c) ?? 0, predicted.get(c) ?? 0)}   ${pct(tp.get(c) ?? 0, n)}`,
    );
  }
  if (misses.length > 0) console.log(`  misses:\n${misses.join('\n')}`);
  return correct / items.length;
}

const dev = load('dev');
const holdout = load('holdout');
const devAcc = report('dev (rules written against it)', dev);
const holdAcc = report('holdout (never tuned on)', holdout);
const all = report('all', [...dev, ...holdout]);
console.log(
  `\nSummary: dev ${(devAcc * 100).toFixed(1)}%, holdout ${(holdAcc * 100).toFixed(1)}%, all ${(all * 100).toFixed(1)}% (target ${TARGET * 100}%)`,
);
if (all < TARGET) process.exitCode = 1;
