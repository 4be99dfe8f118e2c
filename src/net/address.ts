/**
 * Which IP addresses and host names an outbound request may reach. The deny-list follows the IANA
 * special-purpose registries (as Discourse's SSRF detector does, docs/sources.md): anything that is not a
 * globally routable unicast address is refused. IPv6 forms that embed an IPv4 address (mapped, compatible,
 * NAT64, 6to4) are judged by the embedded IPv4 address, so `[::ffff:127.0.0.1]` is loopback.
 */
import { isIP } from 'node:net';

type Cidr4 = readonly [number, number];

// [network as uint32, prefix length]
const BLOCKED_V4: readonly Cidr4[] = [
  ['0.0.0.0', 8], // "this network", includes the unspecified address
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT, includes Alibaba metadata 100.100.100.200
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, includes cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112 direct delegation
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast 255.255.255.255
].map(([net, len]) => [v4ToInt(net as string), len as number] as const);

/** Host names refused outright, whatever they resolve to (cloud metadata services, local names). */
const BLOCKED_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'instance-data']);
const BLOCKED_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa', '.arpa'];

function v4ToInt(ip: string): number {
  const parts = ip.split('.').map(Number);
  return (((parts[0] ?? 0) << 24) | ((parts[1] ?? 0) << 16) | ((parts[2] ?? 0) << 8) | (parts[3] ?? 0)) >>> 0;
}

function inCidr4(ip: number, [net, len]: Cidr4): boolean {
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent, BLOCKED_V4 has no /0 entry
  if (len === 0) return true;
  // Stryker disable next-line ConditionalExpression: equivalent, ~0 << 0 is the /32 mask too
  const mask = len === 32 ? 0xffffffff : (~0 << (32 - len)) >>> 0;
  return (ip & mask) >>> 0 === (net & mask) >>> 0;
}

function isBlockedV4Int(ip: number): boolean {
  return BLOCKED_V4.some((c) => inCidr4(ip, c));
}

/** Parses an IPv6 address (with optional embedded dotted IPv4 tail and zone) into 8 16-bit groups. */
export function parseIPv6(input: string): number[] | null {
  let s = input.replace(/^\[|\]$/g, '');
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (isIP(s) !== 6) return null;
  // Stryker disable next-line ArrayDeclaration: equivalent, only a two-group tail is ever read
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = v4ToInt(last);
    tail = [v4 >>> 16, v4 & 0xffff];
    // Stryker disable next-line MethodExpression: equivalent, the placeholder groups are overwritten by the tail
    s = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = s.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => Number.parseInt(h, 16)));
  const a = parse(head);
  // Stryker disable next-line ArrayDeclaration,ConditionalExpression: equivalent, b is empty or unused without '::'
  const b = rest === undefined ? [] : parse(rest);
  // Stryker disable next-line ConditionalExpression: equivalent, without '::' isIP guarantees eight groups
  const groups = rest === undefined ? a : [...a, ...new Array(8 - a.length - b.length).fill(0), ...b];
  // Stryker disable next-line ConditionalExpression: equivalent, isIP above only passes eight-group forms
  if (groups.length !== 8) return null;
  if (tail.length === 2) {
    groups[6] = tail[0] ?? 0;
    groups[7] = tail[1] ?? 0;
  }
  return groups;
}

function isBlockedV6(groups: number[]): boolean {
  const g = (i: number) => groups[i] ?? 0;
  const embedded = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0;
  const firstSixZero = [0, 1, 2, 3, 4].every((i) => g(i) === 0);
  // ::/96 (unspecified, loopback, deprecated IPv4-compatible) and ::ffff:0:0/96 (IPv4-mapped).
  // Stryker disable next-line ConditionalExpression: equivalent, ::/96 is also outside 2000::/3 below
  if (firstSixZero && g(5) === 0) return true;
  if (firstSixZero && g(5) === 0xffff) return isBlockedV4Int(embedded(g(6), g(7)));
  // 64:ff9b::/96 NAT64 well-known prefix: the last 32 bits are the IPv4 destination.
  if (g(0) === 0x64 && g(1) === 0xff9b && [2, 3, 4, 5].every((i) => g(i) === 0)) {
    return isBlockedV4Int(embedded(g(6), g(7)));
  }
  // 6to4 2002::/16: bits 16..48 are the IPv4 address.
  if (g(0) === 0x2002) return isBlockedV4Int(embedded(g(1), g(2)));
  // Only global unicast 2000::/3 is reachable; this refuses fc00::/7, fe80::/10, ff00::/8, 64:ff9b:1::/48, 100::/64...
  if ((g(0) & 0xe000) !== 0x2000) return true;
  if (g(0) === 0x2001 && g(1) < 0x200) return true; // 2001::/23 IETF protocol assignments (Teredo, ORCHID...)
  if (g(0) === 0x2001 && g(1) === 0x0db8) return true; // documentation
  if (g(0) === 0x3fff && (g(1) & 0xf000) === 0) return true; // 3fff::/20 documentation
  return false;
}

/** True when the address (IPv4 or IPv6 text form) must never be connected to. Unparseable input is blocked. */
export function isBlockedAddress(address: string): boolean {
  // Stryker disable next-line Regex: equivalent for /%.*/, an address holds no line break for $ to stop at
  const kind = isIP(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (kind === 4) return isBlockedV4Int(v4ToInt(address));
  // Stryker disable next-line ConditionalExpression: equivalent, parseIPv6 answers null for anything else
  if (kind === 6) {
    const groups = parseIPv6(address);
    // Stryker disable next-line ConditionalExpression: equivalent, parseIPv6 accepts whatever isIP called IPv6
    return groups === null || isBlockedV6(groups);
  }
  return true;
}

/** True when a host name is refused before any DNS lookup (local and metadata names, single labels). */
export function isBlockedHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  // Stryker disable next-line ConditionalExpression: equivalent, each listed name is also a single label or suffix
  if (BLOCKED_NAMES.has(h)) return true;
  if (BLOCKED_SUFFIXES.some((s) => h.endsWith(s))) return true;
  return !h.includes('.');
}
