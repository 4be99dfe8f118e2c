/**
 * Reads the registry of AI companies shipped in registry/ (docs/registry.md). The file is validated on every
 * load, so a caller never sees a row that breaks the registry's rules.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { AppError } from '../errors.js';
import { packagePath } from '../package-root.js';
import type { RegistryEntry } from './schema.js';
import { validateRegistry } from './validate.js';

export type { RegistryBoard, RegistryEntry } from './schema.js';

/** The registry shipped with the package. */
export const DEFAULT_REGISTRY_FILE = packagePath('registry', 'companies.yaml');

/** The sources file sits beside the companies file it backs. */
export function sourcesFileOf(companiesFile: string): string {
  return join(dirname(companiesFile), 'sources.yaml');
}

/**
 * The entries of a companies file (default: the shipped registry), sorted by domain. Throws AppError
 * BAD_REQUEST listing the first problems when the file or the registry/sources.yaml beside it breaks a rule.
 */
export async function loadRegistry(file: string = DEFAULT_REGISTRY_FILE): Promise<RegistryEntry[]> {
  const [companies, sources] = await Promise.all([readYaml(file), readYaml(sourcesFileOf(file))]);
  const problems = validateRegistry(companies, sources);
  if (problems.length > 0) {
    const shown = problems.slice(0, 10).map((p) => `${p.at}: ${p.message}`);
    const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
    throw new AppError('BAD_REQUEST', `registry ${file} is invalid: ${shown.join('; ')}${more}`);
  }
  return companies as RegistryEntry[];
}

async function readYaml(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new AppError('BAD_REQUEST', `cannot read registry file ${file}: ${(err as Error).message}`);
  }
  try {
    return parse(text);
  } catch (err) {
    throw new AppError('BAD_REQUEST', `registry file ${file} is not YAML: ${(err as Error).message}`);
  }
}
