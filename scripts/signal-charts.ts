import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { parseConfig } from '../src/config.js';
import { PgliteDb } from '../src/db/pglite.js';
import { createDeps } from '../src/deps.js';

/**
 * `npx tsx scripts/signal-charts.ts`: renders the example charts of docs/signals.md (docs/screenshots/*.svg) from
 * the sample catalog and its generated history, loaded into a scratch database on a fixed day so the files only
 * change when the sample or the renderer does.
 */

const DAY = Date.UTC(2026, 10, 22, 12);
const CHARTS: [string, string][] = [
  ['trends.svg', '/api/v1/trends?interval=week&from=2025-11-24&format=svg'],
  ['trends-client-facing.svg', '/api/v1/trends?interval=month&from=2025-12-01&client_facing=true&format=svg'],
  ['company-hiring.svg', '/api/v1/companies/anthropic/hiring?interval=week&from=2025-11-24&format=svg'],
];

const dir = mkdtempSync(join(tmpdir(), 'frontline-charts-'));
const out = join(import.meta.dirname, '..', 'docs', 'screenshots');
try {
  const db = await PgliteDb.open(dir);
  const config = parseConfig({ LOG_LEVEL: 'silent', DATA_DIR: dir, SAMPLE_DATA: '1' });
  const deps = await createDeps(config, { db, now: () => DAY, deferCatchUp: true });
  const app = await buildApp(deps);
  await app.ready();
  mkdirSync(out, { recursive: true });
  for (const [file, url] of CHARTS) {
    const res = await app.inject({ method: 'GET', url });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    writeFileSync(join(out, file), `${res.body}\n`);
    process.stdout.write(`${file} <- ${url}\n`);
  }
  await app.close();
  await deps.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
