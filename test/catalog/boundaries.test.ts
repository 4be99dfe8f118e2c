import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The catalog's dependency rules, read from the source: the catalog depends on neither search nor HTTP (search
 * implements the catalog's search port, src/catalog/search-port.ts), save the replica keeping its vectors in search's
 * vector store (src/search/vectors/), which imports nothing of the catalog; the catalog outside replica/ stands without
 * the replica (SQL is the reference read model); and the replica read model is chosen in the composition root
 * alone.
 */

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Module specifiers of static imports, re-exports (`export … from`) and dynamic imports. */
function specifiers(code: string): string[] {
  const found = [
    ...code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*'([^']+)'/gms),
    ...code.matchAll(/^\s*import\s*'([^']+)'/gm),
    ...code.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ];
  return found.map((m) => m[1] as string);
}

/** What a module imports inside src/, as paths relative to src/ (packages are left out). */
function localImports(file: string): string[] {
  return specifiers(readFileSync(file, 'utf8'))
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(SRC, resolve(dirname(file), s)).replace(/\.js$/, '.ts'));
}

const graph = sources(SRC).map((file) => ({ rel: relative(SRC, file), imports: localImports(file) }));

const offenders = (from: (rel: string) => boolean, to: (target: string, rel: string) => boolean) =>
  graph.flatMap(({ rel, imports }) =>
    from(rel) ? imports.filter((t) => to(t, rel)).map((t) => `${rel} -> ${t}`) : [],
  );

describe('catalog boundaries', () => {
  it('reads every kind of import the rules below rely on', () => {
    const code = [
      "import type { A } from '../search/a.js';",
      "import {\n  B,\n  C,\n} from '../http/b.js';",
      "export { D } from './replica/d.js';",
      "export type { E } from '../e.js';",
      "import './side-effect.js';",
      "const f = await import('../search/f.js');",
    ].join('\n');
    expect(specifiers(code)).toEqual([
      '../search/a.js',
      '../http/b.js',
      './replica/d.js',
      '../e.js',
      './side-effect.js',
      '../search/f.js',
    ]);
    expect(graph.length).toBeGreaterThan(100);
    expect(graph.find((m) => m.rel === 'deps.ts')?.imports).toContain('catalog/service.ts');
  });

  it('src/catalog never imports src/search or src/http, save the replica the vector store', () => {
    const found = offenders(
      (rel) => rel.startsWith('catalog/'),
      (t, rel) =>
        (t.startsWith('search/') &&
          !(rel.startsWith('catalog/replica/') && t.startsWith('search/vectors/'))) ||
        t.startsWith('http/'),
    );
    expect(found).toEqual([]);
  });

  it('src/catalog never imports src/signals (the composition root hands the sample its history)', () => {
    expect(
      offenders(
        (rel) => rel.startsWith('catalog/'),
        (t) => t.startsWith('signals/'),
      ),
    ).toEqual([]);
  });

  it('the vector store imports nothing of the catalog', () => {
    const found = offenders(
      (rel) => rel.startsWith('search/vectors/'),
      (t) => t.startsWith('catalog/'),
    );
    expect(found).toEqual([]);
  });

  it('the catalog outside replica/ never imports the replica', () => {
    const found = offenders(
      (rel) => rel.startsWith('catalog/') && !rel.startsWith('catalog/replica/'),
      (t) => t.startsWith('catalog/replica/'),
    );
    expect(found).toEqual([]);
  });

  it('the replica read model is wired in the composition root only', () => {
    const found = offenders(
      (rel) => rel !== 'deps.ts' && !rel.startsWith('catalog/replica/'),
      (t) => t === 'catalog/replica/read-model.ts' || t === 'catalog/replica/replica-gate.ts',
    );
    expect(found).toEqual([]);
  });
});

describe('hiring signals boundaries', () => {
  it('signals outside replica/ never import the in-process copy of the rollups (SQL stands alone)', () => {
    const found = offenders(
      (rel) => rel.startsWith('signals/') && !rel.startsWith('signals/replica/'),
      (t) => t.startsWith('signals/replica/'),
    );
    expect(found).toEqual([]);
  });

  it('the copy is wired in the composition root only', () => {
    const found = offenders(
      (rel) => rel !== 'deps.ts' && !rel.startsWith('signals/replica/'),
      (t) => t.startsWith('signals/replica/'),
    );
    expect(found).toEqual([]);
  });
});
