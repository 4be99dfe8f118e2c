/**
 * Rebuilds registry/companies.yaml and registry/sources.yaml from the public sources of sources.ts, reading each
 * at its pinned commit from a local git directory. Deterministic: the same snapshots give byte-identical files.
 * For maintainers only; nothing at run time or in CI reads the sources (docs/registry.md).
 *
 *   npx tsx scripts/registry/build.ts [--mirror DIR] [--out DIR] [--check]
 *
 * --mirror  folder holding one git directory per repository, named `owner+name` (a bare repository, or one with
 *           a `repo` or `.git` folder inside); default /work/.mirror
 * --out     folder to write both files to; default registry/ of this package
 * --check   write nothing; exit 1 when the files on disk differ from what the sources give
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Document, isSeq, visit } from 'yaml';
import { packagePath } from '../../src/package-root.js';
import { validateRegistry } from '../../src/registry/validate.js';
import type { Facts } from './facts.js';
import { type BuildResult, buildRegistry, type SourceInfo } from './identity.js';
import { SOURCES, type SourceSpec } from './sources.js';

function gitDir(mirror: string, repository: string): string {
  const base = join(mirror, repository.replace('/', '+'));
  for (const dir of [join(base, 'repo'), join(base, '.git'), base])
    if (existsSync(join(dir, 'HEAD'))) return dir;
  throw new Error(`no git directory for ${repository} under ${mirror} (looked for ${base})`);
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });
}

/**
 * The files a source path names at the commit: a path ending in `/` is every file of that folder, a path with a
 * `*` segment every file it matches (`*` stands for one folder name), any other path itself.
 */
function expand(dir: string, commit: string, path: string): string[] {
  if (path.endsWith('/')) return git(dir, 'ls-tree', '--name-only', commit, path).split('\n');
  if (!path.includes('*')) return [path];
  const prefix = path.slice(0, path.indexOf('*'));
  const literal = (s: string) => s.replace(/[.+?^$()|[\]{}\\]/g, (c) => `\\${c}`);
  const pattern = new RegExp(`^${path.split('*').map(literal).join('[^/]+')}$`);
  return git(dir, 'ls-tree', '-r', '--name-only', commit, prefix)
    .split('\n')
    .filter((p) => pattern.test(p));
}

function readSource(mirror: string, spec: SourceSpec): { facts: Facts; info: SourceInfo } {
  const dir = gitDir(mirror, spec.repository);
  const skip = new Set(spec.exclude ?? []);
  const paths = spec.paths
    .flatMap((p) => expand(dir, spec.commit, p))
    .filter((p) => p !== '' && !skip.has(p));
  const files = new Map(paths.map((p) => [p, git(dir, 'show', `${spec.commit}:${p}`)]));
  const date = new Date(git(dir, 'show', '-s', '--format=%cI', spec.commit).trim())
    .toISOString()
    .slice(0, 10);
  const info = { id: spec.id, date, discovered: spec.discovered };
  return { facts: spec.read(files), info: spec.picks === undefined ? info : { ...info, picks: spec.picks } };
}

function yamlText(value: unknown, header: string, flowKey?: string): string {
  const doc = new Document(value);
  if (flowKey)
    visit(doc, {
      Pair(_, pair) {
        if (isSeq(pair.value) && (pair.key as { value?: unknown })?.value === flowKey) pair.value.flow = true;
      },
    });
  doc.commentBefore = header;
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

function sourcesDocument(): Record<string, unknown> {
  return Object.fromEntries(
    SOURCES.map((s) => [
      s.id,
      {
        repository: s.repository,
        paths: s.paths,
        ...(s.exclude ? { exclude: s.exclude } : {}),
        commit: s.commit,
        licence: s.licence,
        contributes: s.contributes,
      },
    ]),
  );
}

function report(r: BuildResult): string {
  const lines = [
    `AI companies with a domain: ${r.aiCompanies} (${r.withoutBoard} in no board list)`,
    `candidates (company, board): ${r.candidates}`,
    `accepted companies: ${r.entries.length}`,
    `rejected candidates: ${[...r.rejected.values()].reduce((n, l) => n + l.length, 0)}`,
  ];
  for (const [reason, examples] of [...r.rejected].sort(([a], [b]) => (a < b ? -1 : 1)))
    lines.push(`  ${reason}: ${examples.length} (e.g. ${examples.slice(0, 3).join('; ')})`);
  const count = (f: (b: { vendor: string; evidence: string }) => string) => {
    const m = new Map<string, number>();
    for (const e of r.entries) for (const b of e.boards) m.set(f(b), (m.get(f(b)) ?? 0) + 1);
    return [...m]
      .sort(([, a], [, b]) => b - a)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  };
  const cats = new Map<string, number>();
  for (const e of r.entries) cats.set(e.category, (cats.get(e.category) ?? 0) + 1);
  lines.push(`boards by vendor: ${count((b) => b.vendor)}`);
  lines.push(`boards by evidence: ${count((b) => b.evidence)}`);
  lines.push(
    `companies by category: ${[...cats]
      .sort(([, a], [, b]) => b - a)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  return lines.join('\n');
}

function main(): void {
  const { values } = parseArgs({
    options: {
      mirror: { type: 'string', default: '/work/.mirror' },
      out: { type: 'string' },
      check: { type: 'boolean' },
    },
  });
  const out = values.out ?? packagePath('registry');
  const read = SOURCES.map((s) => readSource(values.mirror, s));
  const result = buildRegistry(
    read.map((r) => r.facts),
    read.map((r) => r.info),
  );
  const sources = sourcesDocument();
  const problems = validateRegistry(result.entries, sources);
  if (problems.length > 0)
    throw new Error(`the build broke a registry rule: ${JSON.stringify(problems.slice(0, 5))}`);
  const files = {
    'companies.yaml': yamlText(
      result.entries,
      ' AI companies and their job boards; rebuilt by scripts/registry/build.ts (docs/registry.md).',
      'sources',
    ),
    'sources.yaml': yamlText(
      sources,
      ' Public sources of companies.yaml, each pinned to the commit the build reads (docs/registry.md).',
    ),
  };
  console.log(report(result));
  if (values.check) {
    const stale = Object.entries(files).filter(
      ([f, text]) => !existsSync(join(out, f)) || readFileSync(join(out, f), 'utf8') !== text,
    );
    if (stale.length > 0) {
      console.error(`differs from the sources: ${stale.map(([f]) => f).join(', ')}`);
      process.exitCode = 1;
    }
    return;
  }
  for (const [f, text] of Object.entries(files)) writeFileSync(join(out, f), text);
}

main();
