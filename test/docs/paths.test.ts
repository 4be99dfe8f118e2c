import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every repository path the prose cites resolves to a file or folder: comments of src/, docs/, README.md and
 * CONTRIBUTING.md. A path is cited from the repository root (`src/catalog/service.ts`; a migration by its number,
 * `migrations/0154`), relative to the citing file or one of its folders (`replica/read-model.ts`, `../tags.ts`),
 * or, in a source file, by a bare name that sits in its folder or one above it (`guard.ts`). Documents cite
 * other documents by bare name (`catalog.md`, in docs/ or the root); their bare source names are read in the
 * context of their section and are not checked. Placeholders (`NNNN_name.sql`, `fake-*.ts`) and import
 * specifiers (the compiler checks those; `.js` names are left out) are not paths.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const ROOTS = ['src', 'test', 'docs', 'bench', 'scripts', 'migrations'];
const EXT = 'tsx?|md|mjs|sql|json|sh|ya?ml|css';

function files(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), keep) : keep(e.name) ? [join(dir, e.name)] : [],
  );
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/** The folders a path in `file` may be relative to: the file's own and each one above it up to the root. */
function bases(file: string): string[] {
  const out: string[] = [];
  for (let d = dirname(file); d.startsWith(ROOT); d = dirname(d)) out.push(d);
  // Documents cite source folders as the architecture names them (`catalog/fields/`).
  if (!file.includes('/src/')) out.push(join(ROOT, 'src'));
  return out;
}

const ROOTED = new RegExp(`(?<![\\w@./-])((?:${ROOTS.join('|')})/[\\w./-]*[\\w/])(?![\\w./-]*[*<{])`, 'g');
const RELATIVE = new RegExp(`(?<![\\w@./-])((?:\\.\\.?/)*(?:[\\w-]+/)+[\\w.-]+\\.(?:${EXT}))(?![\\w-])`, 'g');
const BARE = new RegExp(`(?<![\\w@./*}>-])([\\w-]+\\.(?:${EXT}))(?![\\w./-])`, 'g');
const PLACEHOLDER = /NNNN|<|\*/;

/** A rooted path exists, or names a migration by its number (`migrations/0154`). */
function rootedExists(p: string): boolean {
  if (existsSync(join(ROOT, p))) return true;
  const dir = join(ROOT, dirname(p));
  const name = p.slice(p.lastIndexOf('/') + 1);
  return p.startsWith('migrations/') && isDir(dir) && readdirSync(dir).some((f) => f.startsWith(`${name}_`));
}

/** The paths `text` (found in `file`) cites that resolve to nothing. */
function missingPaths(file: string, text: string): string[] {
  const missing = new Set<string>();
  for (const [, path] of text.matchAll(ROOTED)) {
    const p = (path as string).replace(/\.$/, '');
    if (!PLACEHOLDER.test(p) && !rootedExists(p)) missing.add(p);
  }
  for (const [, path] of text.matchAll(RELATIVE)) {
    const p = path as string;
    if (ROOTS.some((r) => p.startsWith(`${r}/`))) continue;
    const from = p.startsWith('.') ? [dirname(file)] : bases(file);
    // A path whose first folder is none of ours is another project's (a vendor's repository).
    const first = p.replace(/^(\.\.?\/)*/, '').split('/')[0] as string;
    if (!p.startsWith('.') && !from.some((b) => isDir(join(b, first)))) continue;
    if (!from.some((b) => existsSync(resolve(b, p)))) missing.add(p);
  }
  const document = file.endsWith('.md');
  for (const [, name] of text.matchAll(BARE)) {
    const n = name as string;
    if (PLACEHOLDER.test(n) || (document && !n.endsWith('.md'))) continue;
    const from = n.endsWith('.md') ? [ROOT, join(ROOT, 'docs'), dirname(file)] : bases(file);
    if (!from.some((b) => existsSync(join(b, n)))) missing.add(n);
  }
  return [...missing];
}

/** The comments of a source file: the prose in it, without code and import specifiers. */
function comments(code: string): string {
  return [...code.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\w])\/\/[^\n]*/g)].map((m) => m[0]).join('\n');
}

describe('cited paths', () => {
  it('finds a cited path that resolves to nothing, and accepts one that resolves', () => {
    const file = join(ROOT, 'src/catalog/fields/define.ts');
    expect(missingPaths(file, 'derived from the lists (derive.ts)')).toEqual(['derive.ts']);
    expect(missingPaths(file, 'see src/pipeline/index.ts and boards/redetect.ts')).toEqual([
      'src/pipeline/index.ts',
    ]);
    expect(missingPaths(file, 'see job-filters.ts, ../filters.ts and replica/read-model.ts')).toEqual([]);
    expect(
      missingPaths(join(ROOT, 'docs/x.md'), 'test/malloc-env.test.ts, catalog.md, spec.md, x.ts'),
    ).toEqual(['test/malloc-env.test.ts', 'spec.md']);
  });

  it('every path cited in src/ comments, docs/, README.md and CONTRIBUTING.md exists', () => {
    const sources = files(join(ROOT, 'src'), (n) => /\.tsx?$/.test(n)).map((f) => ({
      file: f,
      text: comments(readFileSync(f, 'utf8')),
    }));
    const documents = [
      ...files(join(ROOT, 'docs'), (n) => n.endsWith('.md')),
      join(ROOT, 'README.md'),
      join(ROOT, 'CONTRIBUTING.md'),
    ].map((f) => ({ file: f, text: readFileSync(f, 'utf8') }));
    expect(sources.length).toBeGreaterThan(200);
    const found = [...sources, ...documents].flatMap(({ file, text }) =>
      missingPaths(file, text).map((p) => `${relative(ROOT, file)}: ${p}`),
    );
    expect(found).toEqual([]);
  });
});
