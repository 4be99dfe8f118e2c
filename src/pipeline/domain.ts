import { parse } from 'tldts';

/**
 * Company domains: whatever a caller sends (a bare domain or any http(s) URL) becomes the registrable domain
 * under the Public Suffix List, lower-case, without `www.`: `https://WWW.Acme.co.uk/careers?x=1` -> `acme.co.uk`.
 *
 * Private PSL sections count as suffixes (`acme.github.io` stays itself rather than collapsing into every other
 * GitHub Pages site), and anything that is not a public host name is refused: IP literals in any notation,
 * `localhost`, single labels, suffixes that are not on the list (`.internal`, `.local`), bare public suffixes,
 * invalid characters and over-long names.
 */

export class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DomainError';
  }
}

/** RFC 1035 limits: 253 characters in a name, 63 in a label. */
const MAX_NAME = 253;
const MAX_INPUT = 2048;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Extracts and checks the host name; the WHATWG URL parser punycodes IDNs and canonicalises IPv4 forms. */
function hostOf(input: string): string {
  const trimmed = input.trim();
  if (trimmed.length === 0) throw new DomainError('is empty');
  if (trimmed.length > MAX_INPUT) throw new DomainError(`is longer than ${MAX_INPUT} characters`);
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  if (hasScheme && !/^https?:\/\//i.test(trimmed))
    throw new DomainError('must be a domain or an http(s) URL');
  if (!hasScheme && /[/?#@\s]/.test(trimmed.split(/[/?#]/)[0] ?? '')) {
    throw new DomainError('contains invalid characters');
  }
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `http://${trimmed}`);
  } catch {
    throw new DomainError('is not a valid domain or URL');
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') || /^[0-9.]+$/.test(host))
    throw new DomainError('must be a domain name, not an IP address');
  return host;
}

/**
 * Top-level names reserved for special use, never a company's public site: `.arpa` (infrastructure, and
 * `home.arpa` for home networks, RFC 8375), `.local` (mDNS, RFC 6762), `.internal` (private use, ICANN 2024),
 * `.test`, `.invalid`, `.example`, `.localhost` (RFC 6761), `.onion` (RFC 7686) and `.alt` (RFC 9476).
 */
const SPECIAL_USE = new Set([
  'arpa',
  'local',
  'internal',
  'test',
  'invalid',
  'example',
  'localhost',
  'onion',
  'alt',
]);

export function normalizeDomain(input: string): string {
  const host = hostOf(input);
  if (host.length > MAX_NAME) throw new DomainError(`is longer than ${MAX_NAME} characters`);
  const labels = host.split('.');
  if (labels.length < 2) throw new DomainError(`'${host}' is not a public domain (a single label)`);
  for (const label of labels) {
    if (!LABEL.test(label)) throw new DomainError(`'${host}' contains an invalid label '${label}'`);
  }
  const info = parse(host, { allowPrivateDomains: true });
  if (info.isIp) throw new DomainError('must be a domain name, not an IP address');
  if (!info.isIcann && !info.isPrivate) {
    throw new DomainError(`'${host}' does not end in a public suffix`);
  }
  if (!info.domain) throw new DomainError(`'${host}' is a public suffix, not a company domain`);
  // Most special-use names already fail above (not on the list); `.arpa` is on it, as an infrastructure TLD.
  const tld = host.slice(host.lastIndexOf('.') + 1);
  if (SPECIAL_USE.has(tld))
    throw new DomainError(`'${host}' is a special-use name (.${tld}), not a public domain`);
  return info.domain;
}
