/**
 * Writes the served OpenAPI document to a file (default dist/openapi.json): builds the app as the server does, on
 * a throwaway embedded database, and asks it for its document. `npm run lint:openapi` lints the result.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buildApp } from '../src/app.js';
import { parseConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';

const out = resolve(process.argv[2] ?? 'dist/openapi.json');
const dataDir = mkdtempSync(join(tmpdir(), 'frontline-openapi-'));
try {
  const deps = await createDeps(parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  try {
    const app = await buildApp(deps);
    await app.ready();
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
    await app.close();
  } finally {
    await deps.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`OpenAPI document written to ${out}`);
