import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A link to a section (`catalog.md#listings-and-details-from-memory`, `#memory`) names a heading the target
 * document has, slugged as GitHub slugs headings. Links into docs/performance.md are left out: its headings name
 * the commit their figures were measured on, so they change with each measurement; cite its sections by name.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const UNSTABLE = new Set(['docs/performance.md']);

/** GitHub's heading slug: lower case, punctuation dropped (hyphens and underscores kept), each space a hyphen. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

const headings = (text: string) =>
  new Set([...text.matchAll(/^#+\s+(.*)$/gm)].map((m) => slug(m[1] as string)));

/** The `[text](file#anchor)` links of `text` (in `file`) whose anchor the target's headings lack. */
function brokenAnchors(file: string, text: string, read: (file: string) => string | undefined): string[] {
  const out: string[] = [];
  for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)) {
    const to = target ? normalize(join(dirname(file), target as string)) : file;
    if (UNSTABLE.has(to) || !to.endsWith('.md')) continue;
    const doc = read(to);
    if (doc !== undefined && !headings(doc).has(anchor as string)) out.push(`${file}: ${target}#${anchor}`);
  }
  return out;
}

const docs = [
  ...readdirSync(join(ROOT, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .map((n) => `docs/${n}`),
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
];

function read(file: string): string | undefined {
  try {
    return readFileSync(join(ROOT, file), 'utf8');
  } catch {
    return undefined;
  }
}

describe('section links', () => {
  it('slugs headings as GitHub does, and finds a link to a missing section', () => {
    expect(slug('Search results: highlight and explain')).toBe('search-results-highlight-and-explain');
    expect(slug('`npm start`')).toBe('npm-start');
    const files: Record<string, string> = { 'docs/a.md': '## Which search mode\n' };
    const get = (f: string) => files[f];
    expect(brokenAnchors('docs/b.md', '[x](a.md#which-search-mode) [y](a.md#memory)', get)).toEqual([
      'docs/b.md: a.md#memory',
    ]);
  });

  it('every section a document links to exists', () => {
    expect(docs.length).toBeGreaterThan(10);
    const found = docs.flatMap((f) => brokenAnchors(f, read(f) ?? '', read));
    expect(found).toEqual([]);
  });
});
