import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HostileBoards, listing, STEP_ATTEMPTS, startHostileBoards } from './ats-faults-support.js';

/**
 * Job boards that never finish answering: one that hangs before its headers, one that trickles its body (slow
 * loris). The outbound client's call budget (OUTBOUND_TIMEOUT_CAP_MS) is what ends each attempt: the step fails
 * after its retries and the run ends `failed` naming the board, with nothing half-written and everything else
 * still served (ats-faults-support.ts).
 *
 * Nothing here races a clock. The header / body-stall timeout is set far past the call budget, so the only timer
 * in play is the budget, and it ends an attempt whatever the machine's load: later on a loaded machine, never
 * earlier, never a different way. Each attempt is seen ending at the fake (the client closed its connection
 * before the next attempt arrived) and the step's retries are counted in requests. Boards that fail at once
 * (500s, oversized bodies, redirects to private addresses) are in ats-faults-refused.test.ts, with no short
 * budget at all.
 */

vi.setConfig({ testTimeout: 600_000 });

const CALL_CAP_MS = 10_000;

let boards: HostileBoards;

beforeAll(async () => {
  boards = await startHostileBoards(['hang', 'loris'], {
    // The longest the configuration allows: a stall between body chunks never ends an attempt here.
    OUTBOUND_HEADERS_TIMEOUT_MS: '600000',
    OUTBOUND_TIMEOUT_CAP_MS: String(CALL_CAP_MS),
  });
});

afterAll(async () => {
  await boards?.close();
});

describe('a job board that never answers', () => {
  it('is abandoned at the call budget, retried per the step policy, then fails the run; others carry on', async () => {
    const out = await boards.scenario('hang', { kind: 'hang' });
    expect(out.step.error).toMatch(/time budget/i);
    // A spent budget leaves no room for a client retry: one request per step attempt, each abandoned (its
    // connection closed) before the next arrived.
    expect(boards.ats.hits(listing('hang'))).toBe(STEP_ATTEMPTS);
    expect(boards.ats.openAtArrival(listing('hang'))).toEqual(Array(STEP_ATTEMPTS).fill(0));
  });

  it('gives up on a slow-loris body at the call budget, though bytes keep arriving', async () => {
    const out = await boards.scenario('loris', { kind: 'trickle', everyMs: 200 });
    expect(out.step.error).toMatch(/time budget/i);
    expect(boards.ats.hits(listing('loris'))).toBe(STEP_ATTEMPTS);
    expect(boards.ats.openAtArrival(listing('loris'))).toEqual(Array(STEP_ATTEMPTS).fill(0));
  });
});
