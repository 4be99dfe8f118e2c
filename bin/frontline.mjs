#!/usr/bin/env node
// Runs the compiled CLI when built (npm run build), otherwise the TypeScript sources through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let cli;
if (existsSync(built)) {
  cli = await import(built);
} else {
  const { tsImport } = await import('tsx/esm/api');
  cli = await tsImport('../src/cli.ts', import.meta.url);
}
await cli.runCli(process.argv);
