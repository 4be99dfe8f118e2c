import { describe, expect, it } from 'vitest';
import { DomainError, normalizeDomain } from '../../src/pipeline/domain.js';

describe('normalizeDomain', () => {
  it.each([
    ['https://WWW.Acme.co.uk/careers?x=1', 'acme.co.uk'],
    ['acme.com', 'acme.com'],
    ['ACME.COM.', 'acme.com'],
    ['www.acme.com', 'acme.com'],
    ['jobs.eu.acme.com', 'acme.com'],
    ['acme.com/careers', 'acme.com'],
    ['http://user:pw@careers.acme.io:8080/x#y', 'acme.io'],
    ['  https://acme.ai  ', 'acme.ai'],
    ['bücher.de', 'xn--bcher-kva.de'],
    // A private PSL suffix keeps each tenant apart instead of merging every GitHub Pages site.
    ['acme.github.io', 'acme.github.io'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  it.each([
    ['', 'is empty'],
    ['localhost', 'single label'],
    ['http://localhost:3000', 'single label'],
    ['intranet', 'single label'],
    ['127.0.0.1', 'IP address'],
    ['http://10.0.0.1/admin', 'IP address'],
    ['2130706433', 'IP address'],
    ['0x7f.1', 'IP address'],
    ['[::1]', 'IP address'],
    ['http://[::ffff:127.0.0.1]/', 'IP address'],
    ['acme.internal', 'public suffix'],
    ['acme.local', 'public suffix'],
    ['co.uk', 'public suffix'],
    ['github.io', 'public suffix'],
    ['acme..com', 'invalid label'],
    ['-acme.com', 'invalid label'],
    ['acme_x.com', 'invalid label'],
    ['acme com.com', 'invalid characters'],
    [`${'a'.repeat(64)}.com`, 'invalid label'],
    [`${'abcdefghi.'.repeat(26)}com`, 'longer than 253'],
    ['ftp://acme.com', 'http(s) URL'],
    ['javascript:alert(1)', 'not a valid domain'],
  ])('refuses %s', (input, reason) => {
    expect(() => normalizeDomain(input)).toThrow(DomainError);
    expect(() => normalizeDomain(input)).toThrow(reason);
  });
});
