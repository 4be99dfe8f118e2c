/**
 * The features the learned role model reads from a posting: the title's words and word pairs, the words of its
 * main segment (before the first separator) and its head noun (the main segment's last word or two: "engineer",
 * "success manager"), and the department's words. Seniority and level words, numbers and single letters are
 * dropped: they never change a role's category (docs/sources.md). Shared by the model at run time and by the
 * trainer (scripts/train-classifier.ts), so both read a title the same way.
 */
import { normalizeTitle } from './normalize.js';

const DROPPED = new Set([
  'senior',
  'sr',
  'junior',
  'jr',
  'staff',
  'principal',
  'associate',
  'intern',
  'internship',
  'ii',
  'iii',
  'iv',
  'the',
  'of',
  'and',
  'for',
  'to',
  'in',
  'at',
  'a',
  'an',
  'with',
  'remote',
  'hybrid',
  'contract',
  'temporary',
  'fixed',
  'term',
  'month',
  'months',
  'ftc',
  'part',
  'time',
  'full',
  'summer',
  'fall',
  'winter',
  'spring',
]);

const words = (s: string): string[] =>
  normalizeTitle(s)
    .replace(/[^a-z0-9+#/ ]+/g, ' ')
    .replace(/\//g, ' ')
    .split(' ')
    .filter((w) => w.length > 1 && !/^\d+$/.test(w) && !/^l\d+$/.test(w) && !DROPPED.has(w));

/** The title before its first separator (" - ", ",", "|", ":", " / ", "(" ), where its function usually is. */
const mainSegment = (title: string): string =>
  title.split(/\s[-–—|]\s|[,:|(\u2013\u2014]|\s\/\s/)[0] ?? title;

/** Feature names of one posting; each appears once. */
export function roleFeatures(title: string, department?: string | null): string[] {
  const out = new Set<string>();
  const all = words(title);
  for (const w of all) out.add(`t:${w}`);
  for (let i = 1; i < all.length; i += 1) out.add(`t:${all[i - 1]} ${all[i]}`);
  const main = words(mainSegment(title));
  for (const w of main) out.add(`m:${w}`);
  const last = main.at(-1);
  if (last) out.add(`h:${last}`);
  if (main.length >= 2) out.add(`h:${main.at(-2)} ${last}`);
  const dept = words((department ?? '').replace(/^\d+\s+/, ''));
  for (const w of dept) out.add(`d:${w}`);
  if (dept.length === 0) out.add('d:none');
  return [...out];
}
