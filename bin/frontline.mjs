#!/usr/bin/env node
// Runs the compiled CLI when the bundle in dist/ is current (npm run build or npm start wrote it from these
// sources), otherwise the TypeScript sources through tsx: a stale bundle never runs commands the sources changed.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SOURCE_HASH_FILE, sourceHash } from '../scripts/build.mjs';

const built = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const hashFile = fileURLToPath(new URL(`../dist/${SOURCE_HASH_FILE}`, import.meta.url));
const current =
  existsSync(built) && existsSync(hashFile) && readFileSync(hashFile, 'utf8').trim() === sourceHash();
let cli;
if (current) {
  cli = await import(built);
} else {
  const { tsImport } = await import('tsx/esm/api');
  cli = await tsImport('../src/cli.ts', import.meta.url);
}
await cli.runCli(process.argv);
