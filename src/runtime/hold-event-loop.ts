/**
 * Keeps the event loop alive until the returned release is called.
 *
 * Why: whenever libuv has nothing left to wait on, Node blocks the main thread until V8's background tasks have
 * all finished (NodePlatform::DrainTasks) before it looks again. Right after PGlite starts, that queue holds the
 * optimising compiles of PostgreSQL's hot WASM functions, so the first turn of an idle loop stalled
 * (measured with perf's sched_switch stacks; docs/deployment.md, Start-up). Before a server listens, a start is
 * mostly promises with nothing for libuv to wait on, so every start and CLI command paid it.
 */
export function holdEventLoop(): () => void {
  const timer = setInterval(() => {}, 2 ** 30);
  return () => clearInterval(timer);
}
