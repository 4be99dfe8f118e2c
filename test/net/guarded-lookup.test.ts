import { describe, expect, it } from 'vitest';
import { guardedLookup } from '../../src/net/guard.js';
import { OutboundError, type Resolver } from '../../src/net/types.js';

/**
 * The connect-time lookup (src/net/guard.ts guardedLookup), called as net.connect calls it: every answer must be
 * public, an empty answer is a permanent DNS failure, and a failed lookup is retryable unless the name does not
 * exist.
 */

type Answer = { err: NodeJS.ErrnoException | null; address: unknown; family?: number };

function lookup(resolver: Resolver, all: boolean): Promise<Answer> {
  return new Promise((resolve) => {
    guardedLookup(resolver)('acme.test', { all }, (err, address, family) =>
      resolve({ err, address, family }),
    );
  });
}

const answers =
  (...list: [string, 4 | 6][]): Resolver =>
  async () =>
    list.map(([address, family]) => ({ address, family }));

const failing =
  (code: string | undefined, message = 'lookup failed'): Resolver =>
  async () => {
    throw Object.assign(new Error(message), code ? { code } : {});
  };

describe('guarded lookup', () => {
  it('hands every public address to the connection, or the first one with its family', async () => {
    const resolver = answers(['93.184.216.34', 4], ['2606:4700::6810:85e5', 6]);
    expect(await lookup(resolver, true)).toEqual({
      err: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700::6810:85e5', family: 6 },
      ],
      family: undefined,
    });
    expect(await lookup(answers(['2606:4700::6810:85e5', 6]), false)).toEqual({
      err: null,
      address: '2606:4700::6810:85e5',
      family: 6,
    });
  });

  it('refuses a name when any of its addresses is private (a rebinding setup), not saying which', async () => {
    const out = await lookup(answers(['93.184.216.34', 4], ['10.0.0.7', 4]), true);
    expect(out.err).toBeInstanceOf(OutboundError);
    expect(out.err).toMatchObject({
      reason: 'blocked_address',
      retryable: false,
      message: 'acme.test does not resolve to a public address',
    });
    expect(out.address).toEqual([]);
  });

  it('fails permanently on an empty answer', async () => {
    const out = await lookup(answers(), false);
    expect(out.err).toMatchObject({ reason: 'dns', retryable: false, message: 'No address for acme.test' });
    expect(out.address).toEqual([]);
  });

  it.each([
    ['ENOTFOUND', false],
    ['ENODATA', false],
    ['EAI_AGAIN', true],
    ['ESERVFAIL', true],
  ])('a lookup failing with %s is retryable: %s', async (code, retryable) => {
    const out = await lookup(failing(code), true);
    expect(out.err).toMatchObject({
      reason: 'dns',
      retryable,
      message: `DNS lookup of acme.test failed (${code})`,
    });
    expect(out.address).toEqual([]);
  });

  it('names the error message when the failure has no code', async () => {
    const out = await lookup(failing(undefined, 'resolver exploded'), true);
    expect(out.err).toMatchObject({
      reason: 'dns',
      retryable: true,
      message: 'DNS lookup of acme.test failed (resolver exploded)',
    });
  });
});
