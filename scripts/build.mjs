// `npm run build`: bundles the service into dist/ with esbuild, then type-checks with tsc.
//
// Why a bundle: a start spent ~0.2 s resolving and compiling typebox's ~680 ESM files plus ~170 of our own; one
// file per entry point loads in a fraction of that. Packages other than typebox stay external: several locate
// files beside their own code (PGlite's WASM, swagger-ui's assets, pino's transports), and node_modules is
// needed at run time anyway. The bundle is written even when the type-check fails (the bench reports that
// and measures what was built); the exit code still says it failed.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUNDLED = /^typebox(\/|$)/;

/** Writes main.js (the process entry) and cli.js (bin/frontline.mjs) to `outdir`, which must be inside the package. */
export async function bundle(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: { main: 'src/main.ts', cli: 'src/cli.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-packages',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            BUNDLED.test(args.path) ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await bundle(`${ROOT}dist`);
  const tsc = spawnSync('npx', ['tsc', '--noEmit', '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  process.exit(tsc.status ?? 1);
}
