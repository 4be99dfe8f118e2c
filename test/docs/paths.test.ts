import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every repository path the prose cites resolves to a file or folder: the comments of src/, test/, scripts/,
 * bench/ and migrations/, and docs/, README.md and CONTRIBUTING.md. A path is cited from the repository root (`src/catalog/service.ts`; a migration by its number,
 * `migrations/0154`), relative to the citing file or one of its folders (`replica/read-model.ts`, `../tags.ts`),
 * or, in a source file, by a bare name that sits in its folder or one above it (`app.ts`). Documents cite
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
  // Documents cite source folders as the architecture names them (`catalog/fields/`); a test, bench or script
  // cites the sources of its area by bare name (test/db/ those of src/db/) and the test harnesses by bare name.
  if (!file.includes('/src/')) {
    out.push(join(ROOT, 'src'), join(ROOT, 'test/support'));
    const area = relative(ROOT, dirname(file)).split('/').slice(1);
    if (area.length > 0) out.push(join(ROOT, 'src', ...area));
  }
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
    // Build output exists only after `npm run build`, so a checkout may or may not hold it.
    if (first === 'dist') continue;
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
  return [...code.matchAll(/(?<!\*)\/\*[\s\S]*?\*\/|(?<![:'"`\w])\/\/[^\n]*/g)].map((m) => m[0]).join('\n');
}

/** The comments of a migration (`-- ...` lines). */
const sqlComments = (sql: string) => [...sql.matchAll(/--[^\n]*/g)].map((m) => m[0]).join('\n');

/**
 * Shipped migrations whose comments cite a file that no longer exists. The runner refuses a migration whose
 * checksum changed (docs/deployment.md), so these comments stay as shipped; each is listed with what it cites.
 */
const SHIPPED_MIGRATIONS: Record<string, readonly string[]> = {
  'migrations/0001_catalog.sql': ['catalog/job-counts.ts'],
  'migrations/0008_listing_feed.sql': ['src/search/catalog-index.ts'],
  'migrations/0030_job_salary_range.sql': ['src/sources/salary.ts'],
  'migrations/0040_board_health.sql': ['src/pipeline/boards/redetect.ts'],
  'migrations/0154_jobs_active_versions.sql': ['src/catalog/replica/job-versions.ts'],
  'migrations/0155_job_embeddings_versions.sql': ['src/catalog/replica/job-versions.ts'],
  // The bare name of a store module the migration cites by its full path a few lines before.
  'migrations/0157_posting_lifecycle.sql': ['reposts.ts'],
};

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

  it('every path cited in comments (src/, test/, scripts/, bench/, migrations/) and documents exists', () => {
    const code = ['src', 'test', 'scripts', 'bench'].flatMap((dir) =>
      files(join(ROOT, dir), (n) => /\.(tsx?|mjs)$/.test(n)),
    );
    const sources = code.map((f) => ({ file: f, text: comments(readFileSync(f, 'utf8')) }));
    const migrations = files(join(ROOT, 'migrations'), (n) => n.endsWith('.sql')).map((f) => ({
      file: f,
      text: sqlComments(readFileSync(f, 'utf8')),
    }));
    const documents = [
      ...files(join(ROOT, 'docs'), (n) => n.endsWith('.md')),
      join(ROOT, 'README.md'),
      join(ROOT, 'CONTRIBUTING.md'),
    ].map((f) => ({ file: f, text: readFileSync(f, 'utf8') }));
    expect(sources.length).toBeGreaterThan(400);
    const found = [...sources, ...migrations, ...documents].flatMap(({ file, text }) => {
      const exempt = SHIPPED_MIGRATIONS[relative(ROOT, file)] ?? [];
      return missingPaths(file, text)
        .filter((p) => !exempt.includes(p))
        .map((p) => `${relative(ROOT, file)}: ${p}`);
    });
    expect(found).toEqual([]);
  });
});
