import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md's layout names every folder of src/ and every folder one level below those (`catalog/`,
 * `catalog/replica/` as `replica/`), so a folder added, moved or renamed shows up there. Deeper folders (a route's
 * resource, `replica/sync/`) are the business of the folder above them and may be left out.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

function folders(dir: string, depth: number): string[] {
  if (depth === 0) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [join(dir, e.name), ...folders(join(dir, e.name), depth - 1)]);
}

/** The fenced layout block at the top of the document. */
function layout(doc: string): string {
  const block = /```\n(src\/[\s\S]*?)```/.exec(doc);
  return block?.[1] ?? '';
}

/** The folders of src/ (to `depth` levels) whose name, as `name/`, the layout does not mention. */
function unnamedFolders(text: string, depth: number): string[] {
  return folders(join(ROOT, 'src'), depth)
    .map((f) => relative(join(ROOT, 'src'), f))
    .filter((f) => !new RegExp(`(?<![\\w-])${f.split('/').at(-1)}/`).test(text));
}

describe('the architecture layout', () => {
  it('reports a folder the layout leaves out', () => {
    expect(unnamedFolders('src/\n  catalog/\n', 1)).toContain('http');
    expect(unnamedFolders('src/\n  catalog/\n', 1)).not.toContain('catalog');
  });

  it('names every folder of src/ and those one level below', () => {
    const text = layout(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
    expect(text).not.toBe('');
    expect(unnamedFolders(text, 2)).toEqual([]);
  });
});
