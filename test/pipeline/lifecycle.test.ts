import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { serverUrl } from '../support/db.js';

describe('pipeline start and stop', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('leaves no scheduler ticking when stopped while the engine is launching, and starts again after', async () => {
    t = await startTestApp();
    const { pipeline } = t.deps;
    // A SIGTERM during a server's launch: stop() comes before the engine's launch has finished.
    const starting = pipeline.start();
    const stopping = pipeline.stop();
    await Promise.all([starting, stopping]);
    expect(pipeline.scheduler.ticking).toBe(false);

    await pipeline.start();
    expect(pipeline.scheduler.ticking).toBe(true);
    await pipeline.stop();
    expect(pipeline.scheduler.ticking).toBe(false);
  });

  it('launches the engine at start only where other processes share its queue, or runs are waiting', async () => {
    t = await startTestApp();
    const { pipeline } = t.deps;
    const launched = await pipeline.startOnDemand();
    expect(pipeline.scheduler.ticking).toBe(true);
    if (serverUrl()) {
      // On PostgreSQL another process may enqueue at any time: this worker polls from the start.
      expect(launched).toBe(true);
      expect(pipeline.engine.started).toBe(true);
      return;
    }
    // Embedded, fresh: DBOS has no tables yet, so no run can be waiting.
    expect(launched).toBe(false);
    expect(pipeline.engine.started).toBe(false);
    expect(await pipeline.engine.hasActiveRuns()).toBe(false);
    // The first pipeline call launches it, and waits for it.
    expect(await pipeline.engine.get('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(pipeline.engine.started).toBe(true);
    // DBOS's tables exist now and hold no run; a restart of this process would defer again.
    expect(await pipeline.engine.hasActiveRuns()).toBe(false);
    await pipeline.stop();
    expect(await pipeline.startOnDemand()).toBe(false);
    expect(pipeline.engine.started).toBe(false);
  });
});
