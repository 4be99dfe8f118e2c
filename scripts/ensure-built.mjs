// `npm start`'s first step: bundles the service into dist/ (or the directory given) only when it is missing or was
// built from other sources (a hash of src/, package.json, package-lock.json and the build script, written by the
// build beside the bundle), and says so; otherwise it returns at once. No type-check: `npm run build` and CI run it.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, SOURCE_HASH_FILE, sourceHash } from './build.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const outdir = resolve(ROOT, process.argv[2] ?? 'dist');

const stored = (() => {
  try {
    return readFileSync(join(outdir, SOURCE_HASH_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
})();

if (!existsSync(join(outdir, 'main.js')) || stored === undefined) {
  await build('first start: no bundle yet');
} else if (stored !== sourceHash()) {
  await build('the sources changed since the last build');
}

async function build(why) {
  const started = performance.now();
  process.stderr.write(`building ${outdir} (${why}) ...\n`);
  await bundle(outdir);
  process.stderr.write(`built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
