/**
 * Checks of a registry beyond what one row's schema says: the rules that span rows (unique domains, names and
 * boards, sorted by domain), calendar dates, and source ids that registry/sources.yaml declares. Pure: the loader
 * and the CI test call it on parsed YAML.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { RegistryEntry, SourcesDocument } from './schema.js';

export interface RegistryProblem {
  /** Where: `sources`, or the row's index and domain and, for a board, its position, e.g. `[3] ai21.com boards[0]`. */
  at: string;
  message: string;
}

/** Every problem of a parsed companies document against a parsed sources document; empty when both are valid. */
export function validateRegistry(companies: unknown, sources: unknown): RegistryProblem[] {
  const problems: RegistryProblem[] = [];
  if (!Value.Check(SourcesDocument, sources)) {
    problems.push({ at: 'sources', message: firstError(SourcesDocument, sources) });
  }
  const sourceIds = new Set(Value.Check(SourcesDocument, sources) ? Object.keys(sources) : []);
  if (!Array.isArray(companies))
    return [...problems, { at: 'companies', message: 'must be a list of companies' }];
  const rows: { at: string; entry: RegistryEntry }[] = [];
  companies.forEach((row: unknown, i) => {
    const label = `[${i}]${isNamed(row) ? ` ${row.domain}` : ''}`;
    if (Value.Check(RegistryEntry, row)) rows.push({ at: label, entry: row });
    else problems.push({ at: label, message: firstError(RegistryEntry, row) });
  });
  problems.push(...rowProblems(rows, sourceIds), ...crossRowProblems(rows));
  return problems;
}

function rowProblems(
  rows: { at: string; entry: RegistryEntry }[],
  sourceIds: Set<string>,
): RegistryProblem[] {
  const problems: RegistryProblem[] = [];
  for (const { at, entry } of rows) {
    entry.boards.forEach((b, j) => {
      const where = `${at} boards[${j}]`;
      if (!isCalendarDate(b.lastSeen))
        problems.push({ at: where, message: `lastSeen ${b.lastSeen} is not a date` });
      for (const id of b.sources) {
        if (!sourceIds.has(id)) problems.push({ at: where, message: `source ${id} is not in sources.yaml` });
      }
      if (new Set(b.sources).size !== b.sources.length)
        problems.push({ at: where, message: 'sources lists an id twice' });
    });
  }
  return problems;
}

function crossRowProblems(rows: { at: string; entry: RegistryEntry }[]): RegistryProblem[] {
  const problems: RegistryProblem[] = [];
  const domains = new Map<string, string>();
  const names = new Map<string, string>();
  const boards = new Map<string, string>();
  const seen = (map: Map<string, string>, key: string, at: string, what: string) => {
    const first = map.get(key);
    if (first === undefined) map.set(key, at);
    else problems.push({ at, message: `${what} is also at ${first}` });
  };
  let previous = '';
  for (const { at, entry } of rows) {
    seen(domains, entry.domain, at, `domain ${entry.domain}`);
    seen(names, nameKey(entry.name), at, `name ${entry.name}`);
    entry.boards.forEach((b, j) => {
      seen(
        boards,
        `${b.vendor}:${b.board.toLowerCase()}`,
        `${at} boards[${j}]`,
        `board ${b.vendor}:${b.board}`,
      );
    });
    if (entry.domain < previous) problems.push({ at, message: `not sorted by domain (after ${previous})` });
    previous = entry.domain;
  }
  return problems;
}

/** Names that differ only in case, accents, spacing or punctuation are the same name. */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

function isCalendarDate(s: string): boolean {
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return y >= 2000 && t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

function isNamed(row: unknown): row is { domain: string } {
  return typeof row === 'object' && row !== null && typeof (row as { domain?: unknown }).domain === 'string';
}

function firstError(schema: TSchema, value: unknown): string {
  const e = Value.Errors(schema, value)[0];
  if (!e) return 'does not match the schema';
  return `${e.instancePath || '/'} ${e.message}`;
}
