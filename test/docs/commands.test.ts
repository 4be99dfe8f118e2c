import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildCli } from '../../src/cli.js';

/**
 * Every command the documents tell a reader to type exists as written: an `npm run <script>` (and `npm start`,
 * `npm test`) names a script of package.json, and a `frontline <command> [subcommand] [--option]` in code (a code
 * span or a fenced block), like each row of docs/operations.md's command table, names a command of the CLI
 * (src/cli.ts) with options that command declares.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

const documents = [
  ...readdirSync(join(ROOT, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .map((n) => `docs/${n}`),
  'README.md',
  'CONTRIBUTING.md',
];

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The code of a Markdown text: its fenced blocks' lines and its code spans. */
function code(text: string): string[] {
  const fenced = [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].flatMap((m) =>
    (m[1] as string).split('\n'),
  );
  const prose = text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  return [...fenced, ...[...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string)];
}

/** The npm scripts `text` cites that package.json does not define. */
function missingScripts(text: string, scripts: Record<string, string>): string[] {
  const cited = [
    ...[...text.matchAll(/\bnpm run (?:--silent )?([a-z][\w:-]*)/g)].map((m) => m[1] as string),
    ...[...text.matchAll(/\bnpm (start|test)\b/g)].map((m) => m[1] as string),
  ];
  return [...new Set(cited)].filter((s) => !(s in scripts));
}

/**
 * What is wrong with one command line (`track --only D --dry-run`, `tokens create/list/revoke`): an unknown
 * command or subcommand, or an option the command does not declare.
 */
function commandProblems(program: Command, line: string): string[] {
  const [, name, rest = ''] = /^([a-z][\w-]*)(.*)$/.exec(line.trim()) ?? [];
  if (!name) return [];
  const command = program.commands.find((c) => c.name() === name);
  if (!command) return [`frontline ${name}: no such command`];
  const sub = /^\s+([a-z][\w/|-]*)/.exec(rest)?.[1];
  const targets =
    command.commands.length > 0 && sub
      ? sub.split(/[/|]/).map((s) => command.commands.find((c) => c.name() === s) ?? s)
      : [command];
  const flags = [...rest.split(/\s#|\s\|\s/)[0]!.matchAll(/(?<![\w-])--([a-z][\w-]*)/g)].map(
    (m) => `--${m[1]}`,
  );
  return targets.flatMap((target) => {
    if (typeof target === 'string') return [`frontline ${name} ${target}: no such subcommand`];
    const declared = new Set(['--help', ...target.options.map((o) => o.long)]);
    return flags.filter((f) => !declared.has(f)).map((f) => `frontline ${name}: no option ${f}`);
  });
}

/** The command lines of a document: each `frontline …` in its code, and the first cells of operations.md's table. */
function commandLines(file: string, text: string): string[] {
  const lines = code(text).flatMap((c) =>
    [...c.matchAll(/(?<![\w./-])frontline\s+([a-z][^`\n]*)/g)].map((m) => m[1] as string),
  );
  if (file !== 'docs/operations.md') return lines;
  const table = /## Commands\n([\s\S]*?)\n## /.exec(text)?.[1] ?? '';
  const rows = [...table.matchAll(/^\| `([^|]*?)`(?: \/ `([^|]*?)`)? \|/gm)].flatMap((m) =>
    [m[1], m[2]].filter((c): c is string => c !== undefined && c !== 'Command'),
  );
  return [...lines, ...rows.map((r) => r.replace(/\\\|/g, '|'))];
}

describe('commands the documents cite', () => {
  const program = buildCli();
  const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;

  it('finds an unknown script, command, subcommand or option, and accepts the real ones', () => {
    expect(missingScripts('npm run check:sizes, npm run bench:nothing, npm start', scripts)).toEqual([
      'bench:nothing',
    ]);
    expect(commandProblems(program, 'track --only a.com --dry-run --json')).toEqual([]);
    expect(commandProblems(program, 'tokens create/list/revoke')).toEqual([]);
    expect(commandProblems(program, 'track --bogus')).toEqual(['frontline track: no option --bogus']);
    expect(commandProblems(program, 'tokens mint --name x')).toEqual([
      'frontline tokens mint: no such subcommand',
    ]);
    expect(commandProblems(program, 'rebuild')).toEqual(['frontline rebuild: no such command']);
    expect(commandLines('docs/x.md', 'run `npx frontline boards --company acme` or `frontline.pid`')).toEqual(
      ['boards --company acme'],
    );
  });

  it('every npm script and frontline command the documents cite exists, with the options given', () => {
    const found = documents.flatMap((file) => {
      const text = read(file);
      const lines = commandLines(file, text);
      return [
        ...missingScripts(text, scripts).map((s) => `${file}: npm run ${s}`),
        ...lines.flatMap((l) => commandProblems(program, l).map((p) => `${file}: ${p}`)),
      ];
    });
    const cited = documents.flatMap((file) => commandLines(file, read(file)));
    expect(cited.length).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });
});
