import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
// @ts-expect-error: a plain ESM build script, no type declarations
import { bundle, SOURCE_HASH_FILE, sourceHash } from '../../scripts/build.mjs';
import { SERVICE_ENTRY_ENV } from './service-entry.js';

/**
 * Vitest's global set-up: the bundle every child process of the run starts from (service-entry.ts), built from
 * the sources as they are (rebuilt when their hash moved), inside the package so its paths resolve as in dist/.
 * Worker processes inherit the variable naming it.
 */
const OUT = resolve(import.meta.dirname, '../../.test-build/service');

export default async function setup(): Promise<void> {
  const hashFile = join(OUT, SOURCE_HASH_FILE);
  const stored = existsSync(hashFile) ? readFileSync(hashFile, 'utf8').trim() : undefined;
  if (stored !== sourceHash()) await bundle(OUT);
  process.env[SERVICE_ENTRY_ENV] = join(OUT, 'main.js');
}
