import { execFile } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * `npm start` bundles only when the bundle is missing or was built from other sources, and says so; a start on
 * a current bundle goes straight to the server. Run here as a real process on a bundle directory of its own.
 */
describe('npm start: build only when needed', () => {
  const outdir = join(ROOT, '.test-build', `start-${process.pid}`);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  const ensureBuilt = async () =>
    (await run(process.execPath, ['scripts/ensure-built.mjs', outdir], { cwd: ROOT })).stderr;

  it('builds on the first start, not on the next, and again when the sources changed', async () => {
    expect(await ensureBuilt()).toMatch(
      /^building .*start-\d+ \(first start: no bundle yet\) \.\.\.\nbuilt in/,
    );
    const built = statSync(join(outdir, 'main.js')).mtimeMs;
    // Nothing to say and nothing written when the bundle is current.
    expect(await ensureBuilt()).toBe('');
    expect(statSync(join(outdir, 'main.js')).mtimeMs).toBe(built);
    // The hash the build wrote stands for the sources it read: another hash is other sources.
    const hashFile = join(outdir, '.source-hash');
    expect(readFileSync(hashFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    writeFileSync(hashFile, `${'0'.repeat(64)}\n`);
    expect(await ensureBuilt()).toMatch(/\(the sources changed since the last build\)/);
    expect(await ensureBuilt()).toBe('');
  });

  it('starts the bundle without a type-check (that is npm run build and CI)', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.start).toMatch(/^node scripts\/ensure-built\.mjs && .*node dist\/main\.js serve$/);
    expect(scripts.start).not.toMatch(/tsc|npm run build/);
    expect(scripts.build).toBe('node scripts/build.mjs');
  });
});
