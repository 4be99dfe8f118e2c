import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every environment variable src/ reads is documented in docs/operations.md's configuration: the settings
 * config.ts parses (`r.int('PORT', ...)`), the few read where they are used (`process.env.NODE_ENV`) and the
 * CLI options that fall back on one (`.env('FRONTLINE_TOKEN')`). And the other way: every variable that
 * configuration table lists is named in the code of src/ (its comments aside), so a setting the code dropped is not
 * still offered.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** Set by the process that spawns the embedded database's initdb child, for that child alone (src/db/pglite.ts). */
const INTERNAL = new Set(['PGLITE_ENTRY', 'PGLITE_DIR', 'PGLITE_PARAMS']);

const READS = [
  /\br\.(?:raw|str|int|bool|oneOf|url)\(\s*'([A-Z][A-Z0-9_]*)'/g,
  /process\.env\.([A-Z][A-Z0-9_]*)/g,
  /process\.env\[\s*'([A-Z][A-Z0-9_]*)'/g,
  /\.env\(\s*'([A-Z][A-Z0-9_]*)'\s*\)/g,
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The variables the first column of the configuration table in `doc` lists (`HOST`, `PORT` of one row). */
function variablesListed(doc: string): string[] {
  const table = /## Configuration\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';
  return [...table.matchAll(/^\| ([^|]*) \|/gm)].flatMap((row) =>
    [...(row[1] as string).matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] as string),
  );
}

/** `code` without its comments. */
const withoutComments = (code: string) =>
  code.replace(/(?<!\*)\/\*[\s\S]*?\*\/|(?<![:'"`\w])\/\/[^\n]*/g, '');

/** The names of the environment variables `code` reads. */
function variablesRead(code: string): string[] {
  return READS.flatMap((re) => [...code.matchAll(re)].map((m) => m[1] as string));
}

describe('environment variables', () => {
  it('finds the reads of each kind', () => {
    const code = `r.int('PORT', 3000); process.env.NODE_ENV; new Option('--t').env('FRONTLINE_TOKEN')`;
    expect(variablesRead(code)).toEqual(['PORT', 'NODE_ENV', 'FRONTLINE_TOKEN']);
  });

  it('lists the variables of the configuration table', () => {
    const doc =
      '## Configuration\n\n| Variable | Default |\n|---|---|\n| `HOST`, `PORT` | `0.0.0.0`, `3000` |\n\n## Next\n';
    expect(variablesListed(doc)).toEqual(['HOST', 'PORT']);
  });

  it('every variable docs/operations.md lists is named in the code of src/', () => {
    const source = files(join(ROOT, 'src'))
      .map((f) => withoutComments(readFileSync(f, 'utf8')))
      .join('\n');
    const listed = variablesListed(readFileSync(join(ROOT, 'docs/operations.md'), 'utf8'));
    expect(listed.length).toBeGreaterThan(50);
    expect(listed.filter((v) => !new RegExp(`\\b${v}\\b`).test(source))).toEqual([]);
  });

  it('every variable src/ reads appears in docs/operations.md', () => {
    const read = new Set(files(join(ROOT, 'src')).flatMap((f) => variablesRead(readFileSync(f, 'utf8'))));
    expect(read.size).toBeGreaterThan(50);
    const doc = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
    const missing = [...read].filter((v) => !INTERNAL.has(v) && !new RegExp(`\`${v}\``).test(doc));
    expect(missing).toEqual([]);
  });
});
