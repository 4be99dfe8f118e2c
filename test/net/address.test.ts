import { describe, expect, it } from 'vitest';
import { isBlockedAddress, isBlockedHostname } from '../../src/net/address.js';
import { vetUrl } from '../../src/net/guard.js';
import { OutboundError } from '../../src/net/types.js';

describe('address policy', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '100.100.100.200',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '198.18.0.1',
    '192.0.2.10',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b:1::1',
    '2002:7f00:1::',
    '2002:c0a8:101::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    '2001::1',
    '100::1',
    '3fff::1',
    '3fff:fff::1',
    '64:ff9b:1::808:808', // not the NAT64 well-known /96: outside global unicast
    '[::1]',
    'not-an-ip',
  ])('%s is blocked', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::6810:85e5',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    // Next to the refused IPv6 ranges, and global addresses whose low bits spell a private IPv4 address (only
    // the mapped, NAT64 and 6to4 prefixes embed one).
    '2001:200::1',
    '2001:4860:4860::8888',
    '2001:db9::1',
    '2a00:db8::1',
    '2a00:100::1',
    '2a00:fff::1',
    '3fff:1000::1',
    '2606:4700::a00:1',
    '2606:ff9b::a00:1',
    '2606:4700::ffff:a00:1',
    '2606:4700:0:0:0:0:6810:85e5',
    '[2606:4700::6810:85e5]',
    '2606:4700::6810:85e5%eth0',
  ])('%s is allowed', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it.each([
    'localhost',
    'app.localhost',
    'metadata.google.internal',
    'printer.local',
    'intranet',
    'x.internal',
    'LOCALHOST.',
    'metadata',
    'instance-data',
  ])('host name %s is refused before DNS', (h) => {
    expect(isBlockedHostname(h)).toBe(true);
  });

  it('public names pass the name check', () => {
    expect(isBlockedHostname('acme.co.uk')).toBe(false);
  });
});

describe('URL vetting', () => {
  const notMapped = () => false;
  const reason = (url: string) => {
    try {
      vetUrl(url, notMapped);
      return 'allowed';
    } catch (err) {
      expect(err).toBeInstanceOf(OutboundError);
      expect((err as OutboundError).retryable).toBe(false);
      return (err as OutboundError).reason;
    }
  };

  it.each([
    ['http://127.0.0.1/', 'blocked_address'],
    ['http://2130706433/', 'blocked_address'], // decimal dword
    ['http://0x7f000001/', 'blocked_address'], // hex
    ['http://0177.0.0.1/', 'blocked_address'], // octal
    ['http://0x7f.1/', 'blocked_address'], // mixed short form
    ['http://127.1/', 'blocked_address'],
    ['http://[::1]/', 'blocked_address'],
    ['http://[::ffff:127.0.0.1]/', 'blocked_address'],
    ['http://[::ffff:169.254.169.254]/', 'blocked_address'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'blocked_address'], // NAT64 form of the metadata address
    ['http://169.254.169.254/latest/meta-data/', 'blocked_address'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'blocked_address'],
    ['http://localhost:3000/', 'blocked_address'],
    ['http://intranet/', 'blocked_address'],
    ['file:///etc/passwd', 'blocked_scheme'],
    ['gopher://acme.com:70/_x', 'blocked_scheme'],
    ['ftp://acme.com/', 'blocked_scheme'],
    ['javascript:alert(1)', 'blocked_scheme'],
    ['http://user@evil@acme.com/', 'invalid_url'],
    ['http://user:pw@acme.com/', 'invalid_url'],
    ['http://acme.com:8080/', 'blocked_port'],
    ['http://user@acme.com/', 'invalid_url'],
    ['http://:pw@acme.com/', 'invalid_url'],
    ['http://[2606:4700::6810:85e5]/', 'allowed'],
    ['https://acme.com:443/', 'allowed'],
    ['not a url', 'invalid_url'],
    ['https://acme.com/careers', 'allowed'],
    ['http://93.184.216.34/', 'allowed'],
  ])('%s → %s', (url, expected) => {
    expect(reason(url)).toBe(expected);
  });

  it.each([
    [`not a url ${'x'.repeat(300)}`, `Not a valid URL: not a url ${'x'.repeat(190)}`],
    ['http://user:pw@acme.com/', 'URLs with credentials (user@host) are refused'],
    ['http://[::ffff:10.0.0.1]/', 'Address ::ffff:a00:1 is not a public address'],
    ['http://Printer.Local/', 'Host printer.local is not a public host name'],
    ['http://acme.com:8443/', 'Port 8443 is not allowed (only 80 and 443)'],
  ])('%s is refused with a message naming what is wrong', (url, message) => {
    expect(() => vetUrl(url, notMapped)).toThrow(message);
    try {
      vetUrl(url, notMapped);
    } catch (err) {
      expect((err as Error).message).toBe(message);
    }
  });

  it('a host-mapped host skips the address checks but never the scheme check', () => {
    expect(vetUrl('http://acme.test:8080/x', (h) => h === 'acme.test').href).toBe('http://acme.test:8080/x');
    expect(() => vetUrl('ftp://acme.test/', (h) => h === 'acme.test')).toThrow(/Only http and https/);
  });
});
