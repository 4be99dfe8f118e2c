import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AppError } from '../../src/errors.js';
import { DEFAULT_REGISTRY_FILE, loadRegistry, sourcesFileOf } from '../../src/registry/load.js';
import { REGISTRY_VENDORS } from '../../src/registry/schema.js';
import { validateRegistry } from '../../src/registry/validate.js';

/** The shipped registry of AI companies, and the validator CI runs on it, proven to refuse each kind of bad row. */

const SOURCES = {
  'list-a': {
    repository: 'owner/list-a',
    paths: ['boards.csv'],
    commit: 'a'.repeat(40),
    licence: 'MIT',
    contributes: 'boards',
  },
};

const board = (over: Record<string, unknown> = {}) => ({
  vendor: 'ashby',
  board: 'acme',
  lastSeen: '2026-03-02',
  evidence: 'board-url',
  sources: ['list-a'],
  ...over,
});

const row = (over: Record<string, unknown> = {}) => ({
  name: 'Acme AI',
  domain: 'acme.ai',
  category: 'ai_native',
  boards: [board()],
  ...over,
});

const beta = (over: Record<string, unknown> = {}) =>
  row({ name: 'Beta Labs', domain: 'beta.com', boards: [board({ board: 'beta' })], ...over });

const messages = (companies: unknown, sources: unknown = SOURCES) =>
  validateRegistry(companies, sources).map((p) => `${p.at}: ${p.message}`);

describe('the shipped registry', () => {
  it('loads, every row valid, sorted by domain, each vendor one the registry knows', async () => {
    const entries = await loadRegistry();
    expect(entries.length).toBeGreaterThan(0);
    const domains = entries.map((e) => e.domain);
    expect(domains).toEqual([...domains].sort());
    for (const e of entries) for (const b of e.boards) expect(REGISTRY_VENDORS).toContain(b.vendor);
  });

  it('passes the validator as parsed from the files, with no problem at all', async () => {
    const companies = parse(await readFile(DEFAULT_REGISTRY_FILE, 'utf8'));
    const sources = parse(await readFile(sourcesFileOf(DEFAULT_REGISTRY_FILE), 'utf8'));
    expect(validateRegistry(companies, sources)).toEqual([]);
  });

  it('names a source for every board, and every source pins a commit and a licence', async () => {
    const sources = parse(await readFile(sourcesFileOf(DEFAULT_REGISTRY_FILE), 'utf8')) as Record<
      string,
      { commit: string; licence: string }
    >;
    const used = new Set((await loadRegistry()).flatMap((e) => e.boards.flatMap((b) => b.sources)));
    expect([...used].sort()).toEqual(
      Object.keys(sources)
        .filter((id) => used.has(id))
        .sort(),
    );
    for (const s of Object.values(sources)) {
      expect(s.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(s.licence.length).toBeGreaterThan(0);
    }
  });
});

describe('validateRegistry', () => {
  it('accepts a small valid document', () => {
    expect(messages([row(), beta()])).toEqual([]);
  });

  it('refuses a document that is not a list', () => {
    expect(messages({ name: 'Acme' })).toEqual(['companies: must be a list of companies']);
  });

  it.each([
    ['a missing category', { category: undefined }, /category/],
    ['an unknown category', { category: 'robots' }, /category/],
    ['an unknown vendor', { boards: [board({ vendor: 'taleo' })] }, /vendor/],
    ['a domain with a scheme', { domain: 'https://acme.ai' }, /domain/],
    ['an upper-case domain', { domain: 'Acme.ai' }, /domain/],
    ['no board', { boards: [] }, /boards/],
    ['an empty board identifier', { boards: [board({ board: '' })] }, /board/],
    ['an unknown evidence kind', { boards: [board({ evidence: 'gut-feeling' })] }, /evidence/],
    ['a board without sources', { boards: [board({ sources: [] })] }, /sources/],
    ['a date in another format', { boards: [board({ lastSeen: '02/03/2026' })] }, /lastSeen/],
    ['an unknown field', { founded: 2021 }, /founded|additional/i],
  ])('refuses a row with %s', (_what, over, pattern) => {
    const problems = messages([row(over as Record<string, unknown>)]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\[0\]/);
    expect(problems[0]).toMatch(pattern);
  });

  it('refuses a date that is not on the calendar', () => {
    expect(messages([row({ boards: [board({ lastSeen: '2026-02-30' })] })])).toEqual([
      '[0] acme.ai boards[0]: lastSeen 2026-02-30 is not a date',
    ]);
  });

  it('refuses a source id that sources.yaml does not declare', () => {
    expect(messages([row({ boards: [board({ sources: ['list-a', 'list-z'] })] })])).toEqual([
      '[0] acme.ai boards[0]: source list-z is not in sources.yaml',
    ]);
  });

  it('refuses a source id listed twice on one board', () => {
    expect(messages([row({ boards: [board({ sources: ['list-a', 'list-a'] })] })])).toEqual([
      '[0] acme.ai boards[0]: sources lists an id twice',
    ]);
  });

  it('refuses a domain listed twice', () => {
    expect(messages([row(), beta({ domain: 'acme.ai' })])).toContain(
      '[1] acme.ai: domain acme.ai is also at [0] acme.ai',
    );
  });

  it('refuses a name listed twice, whatever its case and punctuation', () => {
    expect(messages([row(), beta({ name: 'ACME-AI' })])).toEqual([
      '[1] beta.com: name ACME-AI is also at [0] acme.ai',
    ]);
  });

  it('refuses one board claimed by two companies, whatever its case', () => {
    expect(messages([row(), beta({ boards: [board({ board: 'ACME' })] })])).toEqual([
      '[1] beta.com boards[0]: board ashby:ACME is also at [0] acme.ai boards[0]',
    ]);
  });

  it('allows the same identifier on two vendors', () => {
    expect(messages([row(), beta({ boards: [board({ vendor: 'lever' })] })])).toEqual([]);
  });

  it('refuses rows out of domain order', () => {
    expect(messages([beta(), row()])).toEqual(['[1] acme.ai: not sorted by domain (after beta.com)']);
  });

  it('refuses a sources document that breaks its schema', () => {
    const bad = { 'list-a': { ...SOURCES['list-a'], commit: 'main' } };
    const problems = messages([row()], bad);
    expect(problems[0]).toMatch(/^sources: .*commit/);
    expect(problems).toContain('[0] acme.ai boards[0]: source list-a is not in sources.yaml');
  });
});

describe('loadRegistry', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'registry-'));
    await writeFile(join(dir, 'sources.yaml'), JSON.stringify(SOURCES));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('returns the typed entries of a valid file', async () => {
    const file = join(dir, 'good.yaml');
    await writeFile(file, JSON.stringify([row(), beta()]));
    const entries = await loadRegistry(file);
    expect(entries.map((e) => [e.domain, e.boards[0]?.board])).toEqual([
      ['acme.ai', 'acme'],
      ['beta.com', 'beta'],
    ]);
  });

  it('throws BAD_REQUEST naming the row and the rule a file breaks', async () => {
    const file = join(dir, 'dup.yaml');
    await writeFile(file, JSON.stringify([row(), row()]));
    const err = await loadRegistry(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('BAD_REQUEST');
    expect((err as AppError).message).toMatch(/\[1\] acme\.ai: domain acme\.ai is also at \[0\]/);
  });

  it('throws BAD_REQUEST for a missing file and for text that is not YAML', async () => {
    await expect(loadRegistry(join(dir, 'absent.yaml'))).rejects.toThrow(/cannot read registry file/);
    const file = join(dir, 'broken.yaml');
    await writeFile(file, 'companies: [unclosed');
    await expect(loadRegistry(file)).rejects.toThrow(/is not YAML/);
  });
});
