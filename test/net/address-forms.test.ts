import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isBlockedAddress, isBlockedHostname, parseIPv6 } from '../../src/net/address.js';
import { systemResolver } from '../../src/net/guard.js';

/**
 * The address policy on the forms an attacker can choose (src/net/address.ts): IPv6 written with an embedded
 * IPv4 tail, a zone or brackets, prefixes that only look like the special ones, and near-misses of the blocked
 * IPv4 ranges. What the tests of address.test.ts check by category, these check digit by digit.
 */

describe('IPv6 parsing', () => {
  it.each([
    ['::ffff:1.2.3.4', [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
    ['[::ffff:1.2.3.4]', [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
    ['1:2:3:4:5:6:203.0.113.9', [1, 2, 3, 4, 5, 6, 0xcb00, 0x7109]],
    // The zone goes before the tail is read: its digits do not leak into the last group.
    ['::ffff:1.2.3.4%eth0', [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
    ['fe80::1%eth0', [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
    ['2606:4700::1111', [0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111]],
    ['::', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['1:2:3:4:5:6:7:8', [1, 2, 3, 4, 5, 6, 7, 8]],
  ])('%s has the groups it names', (text, groups) => {
    expect(parseIPv6(text)).toEqual(groups);
  });

  it.each([
    'g:0:0:0:0:0:0:1',
    '1.2.3.4',
    // Brackets are stripped only around the whole address.
    '::[1]',
    '[::1]]',
    '[[::1]',
    '',
  ])('%j is not an IPv6 address', (text) => {
    expect(parseIPv6(text)).toBeNull();
  });
});

describe('addresses judged digit by digit', () => {
  it.each([
    // Next to the blocked /24s and /15s of IPv4: public.
    '192.0.1.1',
    '192.0.3.1',
    '198.20.0.1',
    '192.88.98.1',
    '203.0.112.255',
    '100.128.0.1',
    '172.32.0.1',
    // Global unicast IPv6, and the public IPv4 addresses its special prefixes embed.
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it.each([
    // An embedded IPv4 address counts only under the exact mapped and NAT64 prefixes.
    '::abcd:8.8.8.8',
    '::1:0:8.8.8.8',
    '64:1::8.8.8.8',
    '64:ff9b:0:0:0:1:808:808',
    '65:ff9b::808:808',
    // Unparseable: brackets or zones anywhere but around and after the address.
    '1.1.1.1]]',
    '1.1[.1.1',
    '[8.8.8.8',
    'not an address',
  ])('%s is refused', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });
});

describe('host names', () => {
  it.each([
    'metadata.google.internal.',
    'LOCALHOST.',
    'printer.local.',
    'db.internal',
  ])('%s is refused before any lookup', (name) => {
    expect(isBlockedHostname(name)).toBe(true);
  });

  it.each([
    'example.com.',
    'Example.COM',
    'internal.example.com',
    'local.example.org',
  ])('%s is a public name', (name) => {
    expect(isBlockedHostname(name)).toBe(false);
  });
});

describe('the system resolver', () => {
  it('answers every address of a name with its family', async () => {
    const found = await systemResolver('localhost');
    expect(found.length).toBeGreaterThan(0);
    for (const a of found) expect(a).toEqual({ address: a.address, family: isIP(a.address) });
    expect(found.map((a) => a.address)).toContain('127.0.0.1');
  });
});
