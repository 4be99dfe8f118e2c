/**
 * robots.txt per origin, cached (RFC 9309 as summarised in docs/sources.md): 2xx → obey; 4xx → everything
 * allowed; 5xx or a network failure → everything disallowed, cached briefly so a flaky site is retried soon.
 */
import robotsParserModule from 'robots-parser';
import type { HttpClient } from './types.js';
import { OutboundError } from './types.js';

export interface RobotsPolicy {
  allowed: boolean;
  /** Crawl-delay for our agent in ms, when the file states one. */
  crawlDelayMs: number | null;
}

interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
}

// robots-parser is CommonJS typed as an ES default export; whichever shape the loader hands us, take the function.
const robotsParser = ((robotsParserModule as unknown as { default?: unknown }).default ??
  robotsParserModule) as unknown as (url: string, body: string) => Robot;

interface Entry {
  expiresAt: number;
  check: (url: string) => RobotsPolicy;
}

/** RFC 9309 asks crawlers to parse at least 500 KiB. */
const ROBOTS_MAX_BYTES = 512 * 1024;
/** How long an unreachable robots.txt (5xx, network) blocks the origin before we ask again. */
const UNREACHABLE_TTL_MS = 10 * 60_000;

export class RobotsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly opts: {
      /** Product token matched against user-agent groups, e.g. FrontlineBot. */
      agent: string;
      ttlMs: number;
      now: () => number;
    },
  ) {}

  async policy(url: string, client: HttpClient): Promise<RobotsPolicy> {
    const origin = new URL(url).origin;
    let entry = this.entries.get(origin);
    if (!entry || entry.expiresAt <= this.opts.now()) {
      entry = await this.load(origin, client);
      this.entries.set(origin, entry);
    }
    return entry.check(url);
  }

  private async load(origin: string, client: HttpClient): Promise<Entry> {
    const robotsUrl = `${origin}/robots.txt`;
    const now = this.opts.now();
    const blockAll: Entry = {
      expiresAt: now + UNREACHABLE_TTL_MS,
      check: () => ({ allowed: false, crawlDelayMs: null }),
    };
    try {
      const res = await client.request(robotsUrl, { kind: 'api', maxBytes: ROBOTS_MAX_BYTES, retry: false });
      if (res.status >= 500) return blockAll;
      if (res.status >= 400) {
        return { expiresAt: now + this.opts.ttlMs, check: () => ({ allowed: true, crawlDelayMs: null }) };
      }
      const robots = robotsParser(robotsUrl, res.status >= 200 && res.status < 300 ? res.body : '');
      const delay = robots.getCrawlDelay(this.opts.agent);
      return {
        expiresAt: now + this.opts.ttlMs,
        check: (u) => ({
          allowed: robots.isAllowed(u, this.opts.agent) !== false,
          crawlDelayMs: typeof delay === 'number' && delay > 0 ? delay * 1000 : null,
        }),
      };
    } catch (err) {
      // Policy refusals (blocked address, scheme) are about the target itself: surface them, do not cache.
      if (err instanceof OutboundError && !err.retryable) throw err;
      return blockAll;
    }
  }
}
