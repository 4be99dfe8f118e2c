import { fileURLToPath } from 'node:url';

/**
 * How a test runs `frontline` as a real process. The suite's global set-up (test/support/build-service.ts) bundles
 * the sources once per run, as `npm run build` does, and names the bundle in FRONTLINE_TEST_ENTRY: a child then
 * loads a few files instead of compiling and resolving ~850 modules through tsx (about 1.5 s of CPU less per
 * process; the suite starts over a hundred). Without it (a file run under another config, such as the mutation
 * runner's) children run the sources through tsx.
 */
export const SERVICE_ENTRY_ENV = 'FRONTLINE_TEST_ENTRY';

const SOURCES = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** Node's arguments before the command: preloads (`--import`; tsx first for a TypeScript one), then the entry. */
export function serviceArgs(preload: readonly string[] = []): string[] {
  const built = process.env[SERVICE_ENTRY_ENV];
  const loaders = built && !preload.some((p) => p.endsWith('.ts')) ? [] : ['tsx'];
  return [...[...loaders, ...preload].flatMap((m) => ['--import', m]), built || SOURCES];
}
