/**
 * The glibc malloc settings a Frontline process should start with. glibc reads them from the environment when
 * the process starts, so the process cannot apply them to itself: `npm start`, the Docker image and the bench
 * set them (test/fleet/malloc-env.test.ts keeps those in step with this list), and `serve` logs which are missing.
 *
 * - MALLOC_ARENA_MAX=2: without it every thread that allocates (V8's compiler and GC helpers, libuv's pool)
 *   gets its own arena, and freed memory stays in them: much of the service's RSS after start-up was in such
 *   arenas (docs/deployment.md, Memory).
 * - MALLOC_MMAP_THRESHOLD_=131072: pins the threshold above which blocks are mapped on their own and returned
 *   to the system when freed. By default glibc raises it to the largest block freed so far (up to 32 MB), so
 *   after the start-up's big reads (the search snapshot's header) every later large buffer came from the
 *   arenas, which do not shrink. Its cost: native code that allocates and frees blocks of several MB per call
 *   maps them afresh each time (brotli's encoder), which is one reason responses prefer gzip (src/app.ts).
 *
 * What they save at idle and at the peak of the mixed load: docs/performance.md (Figures behind the HTTP layer and
 * the process) and docs/deployment.md ("Memory").
 */
export const MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/** The MALLOC_ENV names the environment does not set (none off Linux, where glibc's variables mean nothing). */
export function missingMallocEnv(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string[] {
  if (platform !== 'linux') return [];
  return Object.keys(MALLOC_ENV).filter((name) => env[name] === undefined);
}
