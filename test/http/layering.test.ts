import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const imports = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^import[^;]*?from '([^']+)'/gms)].map((m) => m[1] as string);

/** Process entry points (the CLI's commands included): the only modules that may reach src/runtime/. */
const ENTRY_FILES = new Set(['server.ts', 'cli.ts', 'main.ts', 'deps.ts']);
const isEntry = (rel: string): boolean => ENTRY_FILES.has(rel) || rel.startsWith('cli/');

describe('layering', () => {
  const files = sources(SRC).map((f) => ({ file: f, rel: relative(SRC, f) }));

  it('keeps process tuning (src/runtime/) out of routes and domain code', () => {
    const offenders = files
      .filter(({ rel }) => !rel.startsWith('runtime/') && !isEntry(rel))
      .filter(({ file }) => imports(file).some((i) => /(^|\/)runtime\//.test(i)))
      .map(({ rel }) => rel);
    expect(offenders).toEqual([]);
  });

  it('keeps the HTTP framework out of domain code', () => {
    const offenders = files
      .filter(({ rel }) => !rel.startsWith('http/') && rel !== 'app.ts' && !isEntry(rel))
      .filter(({ file }) => imports(file).some((i) => i === 'fastify' || i.startsWith('@fastify/')))
      .map(({ rel }) => rel);
    expect(offenders).toEqual([]);
  });
});
