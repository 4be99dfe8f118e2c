/**
 * The world `frontline track` meets offline: a fake of every vendor holding a board for every board of a registry
 * (generated postings, each vendor's real format), a fake site per company, and the planted faults the proof asks
 * for. Shared by test/pipeline/track.test.ts and bench/track/run.ts.
 *
 * Planted, chosen from the registry by rule so any registry works (single-board entries in domain order):
 * - gone: the board answers 404 and the careers page names none: the one company expected to fail (no_board);
 * - moved: the board answers 404 and the careers page links the company's board on another vendor;
 * - a 429 storm on the most used vendor's host (each with Retry-After), and a slow host (every answer late).
 */

import type { RegistryEntry } from '../../src/registry/load.js';
import { ADAPTERS, isProvider } from '../../src/sources/index.js';
import type { Provider } from '../../src/sources/types.js';
import { companySite, hostMapEnv } from '../pipeline/support.js';
import { type FakeAts, generatePostings, startFakeAts } from './fake-ats.js';
import { type FakeSites, startFakeSites } from './fake-site.js';

export interface TrackWorldOptions {
  /** Postings on every board. */
  postings: number;
  /** 429 answers, one per request, on the most used vendor's host before normal service. */
  storm?: number;
  /** How late every answer of the slow host is, ms. */
  slowMs?: number;
}

export interface TrackWorld {
  ats: FakeAts;
  sites: FakeSites;
  /** OUTBOUND_HOST_MAP for the processes under test. */
  hostMap: string;
  gone: string;
  moved: string;
  stormVendor: Provider;
  slowVendor: Provider;
  /** Active jobs once every company but the gone one is tracked. */
  expectedJobs: number;
  close(): Promise<void>;
}

/** The vendor a board moved to: one of the vendors every fake serves at a plain board name. */
const movedTo = (from: Provider): Provider => (from === 'ashby' ? 'greenhouse' : 'ashby');

export async function startTrackWorld(
  registry: readonly RegistryEntry[],
  opts: TrackWorldOptions,
): Promise<TrackWorld> {
  const ats = await startFakeAts();
  const usage = new Map<Provider, number>();
  let expectedJobs = 0;
  const single = registry.filter((e) => e.boards.length === 1 && isProvider(e.boards[0]?.vendor ?? ''));
  const [gone, moved] = single;
  if (!gone || !moved) throw new Error('the registry needs two single-board companies to plant faults in');
  const sites: Record<string, Record<string, string>> = {};
  for (const [i, e] of registry.entries()) {
    const links: string[] = [];
    for (const b of e.boards) {
      if (!isProvider(b.vendor)) continue;
      usage.set(b.vendor, (usage.get(b.vendor) ?? 0) + 1);
      if (e === gone || e === moved) continue;
      ats.setBoard(b.vendor, b.board, generatePostings(opts.postings, `${i}`));
      expectedJobs += opts.postings;
    }
    if (e === moved) {
      const to = movedTo(moved.boards[0]?.vendor as Provider);
      const token = `${moved.boards[0]?.board}-moved`;
      ats.setBoard(to, token, generatePostings(opts.postings, `${i}`));
      links.push(ADAPTERS[to].boardUrl(token));
      expectedJobs += opts.postings;
    }
    sites[e.domain] = companySite(e.name, links);
  }
  const ranked = [...usage.entries()].sort((a, b) => b[1] - a[1]).map(([v]) => v);
  const stormVendor = ranked[0] as Provider;
  const slowVendor = (ranked[1] ?? stormVendor) as Provider;
  ats.failNext(
    stormVendor,
    ...Array.from({ length: opts.storm ?? 6 }, () => ({ status: 429, retryAfter: '1' })),
  );
  ats.slow(slowVendor, opts.slowMs ?? 150);
  const fakeSites = await startFakeSites(sites);
  return {
    ats,
    sites: fakeSites,
    hostMap: hostMapEnv(fakeSites.hostMap, ats.hostMap),
    gone: gone.domain,
    moved: moved.domain,
    stormVendor,
    slowVendor,
    expectedJobs,
    close: async () => {
      await ats.close();
      await fakeSites.close();
    },
  };
}

/** The vendor API hosts of the fakes, each with the starts of its requests in order (ms). */
export function startsByHost(ats: FakeAts): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of ats.requests) {
    const host = r.host.toLowerCase().replace(/:\d+$/, '');
    out.set(host, [...(out.get(host) ?? []), r.at]);
  }
  return out;
}
