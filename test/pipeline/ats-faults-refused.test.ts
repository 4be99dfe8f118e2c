import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CLIENT_ATTEMPTS,
  type HostileBoards,
  listing,
  STEP_ATTEMPTS,
  startHostileBoards,
} from './ats-faults-support.js';

/**
 * Job boards that answer, wrongly: 500s, a 10 MB body that is not a board, a body past the 20 MB vendor cap, a
 * redirect to a private address. Each fails its scrape step (at once when the failure is not retryable) and the
 * run ends `failed` naming the board, with nothing half-written and everything else still served
 * (ats-faults-support.ts).
 *
 * None of these is about time, so no short budget is in play: the header / body-stall timeout is the longest the
 * configuration allows and the call budget is the vendor adapters' own. Whatever the machine's load, what ends
 * each case is the fault itself (the status, the size cap, the address guard), never a timer.
 */

vi.setConfig({ testTimeout: 600_000 });

const BAD = ['fivehundred', 'huge', 'oversize', 'trap', 'metadata', 'private', 'local'];
let boards: HostileBoards;

beforeAll(async () => {
  boards = await startHostileBoards(BAD, { OUTBOUND_HEADERS_TIMEOUT_MS: '600000' });
});

afterAll(async () => {
  await boards?.close();
});

describe('a job board that answers 500', () => {
  it('is retried by the client and by the step, then fails the run', async () => {
    const out = await boards.scenario('fivehundred', { kind: 'status', status: 500 });
    expect(out.step.error).toContain('answered 500 after retries');
    expect(boards.ats.hits(listing('fivehundred'))).toBe(STEP_ATTEMPTS * CLIENT_ATTEMPTS);
  });
});

// Faults that fail at once are independent of each other: their cases run side by side.
describe.concurrent('a job board that answers a huge body', () => {
  it('reads 10 MB (under the 20 MB vendor cap), rejects it as malformed at once, without retrying', async () => {
    const out = await boards.scenario('huge', { kind: 'huge', bytes: 10 * 1024 * 1024 });
    expect(out.step.error).toContain('malformed');
    expect(boards.ats.hits(listing('huge'))).toBe(1);
  });

  it('stops reading a body past the vendor cap and fails at once, without retrying', async () => {
    const out = await boards.scenario('oversize', { kind: 'huge', bytes: 24 * 1024 * 1024 });
    expect(out.step.error).toContain('exceeds 20971520 bytes');
    expect(boards.ats.hits(listing('oversize'))).toBe(1);
  });
});

describe.concurrent('a job board that redirects to a private address', () => {
  it.each([
    ['trap', () => `${boards.trap.origin}/steal`, 'not a public address'],
    ['metadata', () => 'http://169.254.169.254/latest/meta-data/', 'not a public address'],
    ['private', () => 'http://10.0.0.1/v1/boards/private/jobs', 'not a public address'],
    ['local', () => `http://localhost:${new URL(boards.trap.origin).port}/steal`, 'not a public host name'],
  ])('refuses the hop to %s before connecting, without retrying', async (token, location, message) => {
    const out = await boards.scenario(token, { kind: 'redirect', location: location() });
    expect(out.step.error).toContain(message);
    expect(boards.ats.hits(listing(token))).toBe(1);
    expect(boards.trap.hits).toBe(0);
  });
});
