import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { statusOfError } from '../../src/http/error-handler.js';
import { SearchGate } from '../../src/search/admission.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { SEARCH_TEST_DATA_DIR } from './support.js';

/** A task the test finishes when it wants, to hold a gate's slot. */
function held(): { task: () => Promise<string>; finish: () => void } {
  let finish = () => {};
  const done = new Promise<string>((resolve) => {
    finish = () => resolve('done');
  });
  return { task: () => done, finish };
}

const status = (err: unknown) => (err instanceof AppError ? statusOfError(err) : undefined);

describe('SearchGate', () => {
  it('runs up to maxInFlight, queues up to maxQueued in order, and refuses the rest at once', async () => {
    const rejected: string[] = [];
    const gate = new SearchGate({ maxInFlight: 1, maxQueued: 1, maxWaitMs: 60_000 }, (r) => rejected.push(r));
    const first = held();
    const order: string[] = [];
    const a = gate.run(first.task).then(() => order.push('a'));
    const b = gate.run(async () => 'b').then(() => order.push('b'));
    const c = await gate.run(async () => 'c').catch((e: unknown) => e);
    expect(status(c)).toBe(503);
    expect((c as AppError).retryAfterS).toBe(1);
    expect(rejected).toEqual(['queue_full']);
    first.finish();
    await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
    // Capacity is back: the next search runs.
    await expect(gate.run(async () => 'd')).resolves.toBe('d');
  });

  it('sees searches that never wait for I/O: arrivals in later turns queue or are refused', async () => {
    const rejected: string[] = [];
    const gate = new SearchGate({ maxInFlight: 1, maxQueued: 2, maxWaitMs: 60_000 }, (r) => rejected.push(r));
    // Six requests, each arriving in a turn of its own, each search pure computation.
    const outcomes = await Promise.all(
      Array.from(
        { length: 6 },
        (_, i) =>
          new Promise<unknown>((resolve) =>
            setImmediate(() =>
              gate.run(async () => `search ${i}`).then(resolve, (err: unknown) => resolve(status(err))),
            ),
          ),
      ),
    );
    expect(outcomes.filter((o) => o === 503)).toHaveLength(3);
    expect(outcomes.slice(0, 3)).toEqual(['search 0', 'search 1', 'search 2']);
    expect(rejected).toEqual(['queue_full', 'queue_full', 'queue_full']);
  });

  it('gives up on a queued search after maxWaitMs, and a failed task still frees its slot', async () => {
    const rejected: string[] = [];
    const gate = new SearchGate({ maxInFlight: 1, maxQueued: 4, maxWaitMs: 20 }, (r) => rejected.push(r));
    const first = held();
    const running = gate.run(first.task);
    const waited = await gate.run(async () => 'late').catch((e: unknown) => e);
    expect(status(waited)).toBe(503);
    expect(rejected).toEqual(['queue_timeout']);
    first.finish();
    await running;
    await expect(
      gate.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(gate.run(async () => 'after')).resolves.toBe('after');
  });

  it('queues while the expected wait fits maxWaitMs, refuses beyond it at once, and re-learns the pace', async () => {
    let clock = 0;
    const rejected: string[] = [];
    const gate = new SearchGate(
      { maxInFlight: 2, maxQueued: 100, maxWaitMs: 100 },
      (r) => rejected.push(r),
      () => clock,
    );
    // Nothing measured yet: no estimate, so nothing is refused for its wait.
    expect(gate.expectedWaitMs()).toBe(0);
    // Searches that each hold their slot 40 ms of the injected clock.
    const slow = () => {
      clock += 40;
      return Promise.resolve('slow');
    };
    await gate.run(slow);
    await gate.run(slow);
    // Both slots busy: the first to wait expects (1 × 40) / 2 slots = 20 ms.
    const blockers = [held(), held()];
    const running = blockers.map((b) => gate.run(b.task));
    expect(gate.expectedWaitMs()).toBe(20);
    // Places 1..5 expect 20, 40, 60, 80, 100 ms: all fit 100 ms; the sixth would expect 120 ms and is refused.
    const queued = Array.from({ length: 5 }, (_, i) => gate.run(async () => `queued ${i}`));
    const refused = await gate.run(async () => 'too late').catch((e: unknown) => e);
    expect(status(refused)).toBe(503);
    expect(rejected).toEqual(['expected_wait']);
    for (const b of blockers) b.finish();
    await Promise.all(running);
    await expect(Promise.all(queued)).resolves.toEqual([0, 1, 2, 3, 4].map((i) => `queued ${i}`));
    // Fast searches since then (0 ms of the clock each) pull the estimate down: the same queue now fits.
    for (let i = 0; i < 40; i++) await gate.run(async () => 'fast');
    const again = [held(), held()];
    const busy = again.map((b) => gate.run(b.task));
    const fits = Array.from({ length: 6 }, (_, i) => gate.run(async () => `fits ${i}`));
    expect(gate.expectedWaitMs()).toBeLessThan(1);
    for (const b of again) b.finish();
    await Promise.all(busy);
    await expect(Promise.all(fits)).resolves.toHaveLength(6);
    expect(rejected).toEqual(['expected_wait']);
  });
});

describe('search admission through HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        DATA_DIR: SEARCH_TEST_DATA_DIR,
        SAMPLE_DATA: '1',
        SEARCH_MAX_IN_FLIGHT: '1',
        SEARCH_MAX_QUEUED: '0',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 with Retry-After in the envelope while search is at capacity; other reads are unaffected', async () => {
    const blocker = held();
    const busy = t.deps.searchGate.run(blocker.task);
    const refused = await t.get('/api/v1/jobs?search=solutions%20engineer');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({
      error: { code: 'SERVER_ERROR', message: expect.stringMatching(/Search is at capacity/) },
    });
    expect((await t.get('/api/v1/companies?search=anthropic')).statusCode).toBe(503);
    expect((await t.get('/api/v1/jobs?limit=5')).statusCode).toBe(200);
    blocker.finish();
    await busy;
    const served = await t.get('/api/v1/jobs?search=solutions%20engineer');
    expect(served.statusCode).toBe(200);
    expect(served.json().data.length).toBeGreaterThan(0);
    const counted = await t.deps.metrics.searchRejections.get();
    expect(counted.values.find((v) => v.labels.reason === 'queue_full')?.value).toBe(2);
  });

  it('answers another page of a search it has ranked without waiting for the gate', async () => {
    const first = await t.get('/api/v1/jobs?search=customer%20success&limit=2');
    expect(first.statusCode).toBe(200);
    const blocker = held();
    const busy = t.deps.searchGate.run(blocker.task);
    try {
      // Another URL (no response cache entry), the same ranking: the shortlist cache answers it.
      const second = await t.get('/api/v1/jobs?search=customer%20success&limit=2&page=2');
      expect(second.statusCode).toBe(200);
      expect(second.json().meta.total).toBe(first.json().meta.total);
      expect(second.json().data[0].id).not.toBe(first.json().data[0].id);
      // A search not ranked yet still waits for (here: is refused by) the gate.
      expect((await t.get('/api/v1/jobs?search=account%20executive')).statusCode).toBe(503);
    } finally {
      blocker.finish();
      await busy;
    }
  });
});
