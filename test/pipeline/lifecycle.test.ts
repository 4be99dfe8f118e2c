import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

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
});
