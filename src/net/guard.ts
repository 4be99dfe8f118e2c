/**
 * URL and address policy of the outbound client: which URLs may be requested at all, and the DNS lookup that
 * undici's connector uses, which refuses blocked addresses at connect time. Because the address that passed the
 * check is the very address the socket connects to, there is no window for DNS rebinding between check and use.
 */

import type { LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { isBlockedAddress, isBlockedHostname } from './address.js';
import { OutboundError, type Resolver } from './types.js';

/** Ports an unmapped host may be reached on (OWASP: allow-list 80 and 443). */
const ALLOWED_PORTS = new Set(['', '80', '443']);

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Parses and vets a URL; `mapped` hosts (OUTBOUND_HOST_MAP) skip the address checks, never the scheme check. */
export function vetUrl(raw: string, mapped: (host: string) => boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('invalid_url', `Not a valid URL: ${raw.slice(0, 200)}`, false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('blocked_scheme', `Only http and https are allowed, not ${url.protocol}`, false);
  }
  if (url.username !== '' || url.password !== '') {
    throw new OutboundError('invalid_url', 'URLs with credentials (user@host) are refused', false);
  }
  // WHATWG URL parsing already turned decimal, octal and hex IPv4 forms (2130706433, 0177.0.0.1, 0x7f000001)
  // into dotted quads, so the literal checks below see the real address.
  const host = url.hostname.toLowerCase();
  if (mapped(host)) return url;
  // Stryker disable next-line Regex: equivalent, URL.hostname has brackets only around an IPv6 address
  const literal = host.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0) {
    if (isBlockedAddress(literal)) {
      throw new OutboundError('blocked_address', `Address ${literal} is not a public address`, false);
    }
  } else if (isBlockedHostname(host)) {
    throw new OutboundError('blocked_address', `Host ${host} is not a public host name`, false);
  }
  if (!ALLOWED_PORTS.has(url.port)) {
    throw new OutboundError('blocked_port', `Port ${url.port} is not allowed (only 80 and 443)`, false);
  }
  return url;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for net/tls.connect: resolves with the injected resolver and fails unless every address is public.
 * Refusing when any address is private (not just filtering) is the stricter Discourse option: a name that
 * mixes public and private answers is a rebinding setup, not a real site.
 */
export function guardedLookup(resolver: Resolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolver(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(new OutboundError('dns', `No address for ${hostname}`, false), []);
          return;
        }
        const bad = addresses.find((a) => isBlockedAddress(a.address));
        if (bad) {
          // The message names the host only: it reaches callers (a webhook's owner, a workflow's error), and
          // what an internal name resolves to is not theirs to learn.
          const err = new OutboundError(
            'blocked_address',
            `${hostname} does not resolve to a public address`,
            false,
          );
          callback(err, []);
          return;
        }
        if (options.all) {
          callback(null, addresses);
          return;
        }
        // Stryker disable next-line OptionalChaining,StringLiteral: equivalent, an empty answer was refused above
        callback(null, addresses[0]?.address ?? '', addresses[0]?.family);
      },
      (err: NodeJS.ErrnoException) => {
        const permanent = err.code === 'ENOTFOUND' || err.code === 'ENODATA';
        callback(
          new OutboundError(
            'dns',
            `DNS lookup of ${hostname} failed (${err.code ?? err.message})`,
            !permanent,
          ),
          [],
        );
      },
    );
  };
}
