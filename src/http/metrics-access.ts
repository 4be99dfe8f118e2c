import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The whole loopback range: 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (::ffff:127.x.y.z). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

const SCHEME = /^bearer[ ]+(\S+)[ ]*$/i;

export type MetricsVerdict =
  | { ok: true }
  | { ok: false; refused: 'UNAUTHORIZED' | 'FORBIDDEN' | 'guess'; message: string };

export interface MetricsAccess {
  check(authorization: string | undefined, remoteAddress: string | undefined): MetricsVerdict;
}

/**
 * Who may scrape /metrics. With METRICS_TOKEN set: `Authorization: Bearer <METRICS_TOKEN>` (scheme in any case),
 * a separate secret from API tokens, so a scraper cannot call the API; a wrong one is a guess, counted against the
 * IP's failed-authentication budget. Without it: loopback clients only, which suits a sidecar or node-local agent.
 */
export function metricsAccess(token: string | undefined): MetricsAccess {
  const expected = token ? digest(token) : undefined;
  return {
    check(authorization, remoteAddress) {
      if (!expected) {
        if (isLoopback(remoteAddress)) return { ok: true };
        return {
          ok: false,
          refused: 'FORBIDDEN',
          message: 'Metrics are served to loopback clients only unless METRICS_TOKEN is set',
        };
      }
      if (authorization === undefined) {
        return { ok: false, refused: 'UNAUTHORIZED', message: 'Metrics need the METRICS_TOKEN bearer token' };
      }
      const presented = SCHEME.exec(authorization)?.[1];
      if (presented && timingSafeEqual(digest(presented), expected)) return { ok: true };
      return { ok: false, refused: 'guess', message: 'Invalid metrics token' };
    },
  };
}
