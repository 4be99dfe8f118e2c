/**
 * The vendors served by fake-ats.ts through one module each (test/support/fake-<vendor>.ts): each says which hosts
 * it answers and renders its wire format from vendor-neutral FakePostings. fake-ats.ts keeps boards, raw bodies,
 * failures and the request log for all of them.
 */
import { createOutboundClient, type OutboundClient } from '../../src/net/client.js';
import type { Provider } from '../../src/sources/types.js';
import type { FakePosting } from './fake-ats-render.js';
import { bamboohrFake } from './fake-bamboohr.js';
import { breezyFake } from './fake-breezy.js';
import { gemFake } from './fake-gem.js';
import { personioFake } from './fake-personio.js';
import { pinpointFake } from './fake-pinpoint.js';
import { ripplingFake } from './fake-rippling.js';
import { workdayFake } from './fake-workday.js';

export interface VendorRequest {
  /** Host without port, lower case. */
  host: string;
  method: string;
  url: URL;
  /** Decoded path segments. */
  seg: string[];
  body: string;
}

export interface VendorIo {
  /** The postings of a board by token, or undefined when the vendor has no such board. */
  board(token: string): FakePosting[] | undefined;
  /** A raw body set with setRaw under this key (a board token, or a token plus a detail path). */
  raw(key: string): { status: number; body: string } | undefined;
  /** Whether the vendor has the board (postings or a raw body set for it). */
  known(token: string): boolean;
  /** Answers the board's list endpoint: the raw body set for the token, else `render` of its postings, else 404. */
  serve(token: string, render: (postings: FakePosting[]) => string, contentType?: string): void;
  send(status: number, body: string, headers?: Record<string, string>): void;
  notFound(): void;
}

export interface VendorFake {
  provider: Provider;
  /** OUTBOUND_HOST_MAP keys (a leading '.' covers every subdomain). */
  hosts: string[];
  owns(host: string): boolean;
  handle(req: VendorRequest, io: VendorIo): void;
}

/** The VendorIo of one request, over fake-ats.ts's boards, raw bodies and response writer. */
export function vendorIo(o: {
  board: VendorIo['board'];
  raw: VendorIo['raw'];
  send: VendorIo['send'];
  notFound: () => void;
}): VendorIo {
  const typed = (type?: string): Record<string, string> => (type ? { 'content-type': type } : {});
  return {
    ...o,
    known: (t) => o.board(t) !== undefined || o.raw(t) !== undefined,
    serve: (t, render, type) => {
      const r = o.raw(t);
      if (r) return o.send(r.status, r.body, typed(type));
      const ps = o.board(t);
      return ps ? o.send(200, render(ps), typed(type)) : o.notFound();
    },
  };
}

export const VENDOR_FAKES: readonly VendorFake[] = [
  workdayFake,
  personioFake,
  bamboohrFake,
  breezyFake,
  pinpointFake,
  gemFake,
  ripplingFake,
];

export const vendorFakeFor = (host: string): VendorFake | undefined => VENDOR_FAKES.find((f) => f.owns(host));

/** A board name as a token of the provider: Workday boards are `{tenant}.wd{N}/{site}`. */
export const tokenFor = (provider: Provider, name: string): string =>
  provider === 'workday' ? `${name}.wd5/External` : name;

/** Vendors that send an unknown company's board to their own site instead of answering 404. */
export const REDIRECTS_UNKNOWN: ReadonlySet<Provider> = new Set(['personio', 'bamboohr', 'breezy']);

/** The vendor's marketing page an unknown board is redirected to (served by the same fake). */
export const MARKETING_PAGE = '<!doctype html><html><body><h1>Hiring software</h1></body></html>';

export const slugOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
export const cityOf = (p: FakePosting) => (p.location ?? '').split(',')[0]?.trim() ?? '';
export const postedOf = (p: FakePosting) => p.postedAt ?? '2026-11-01T09:00:00Z';

/**
 * A guarded client for adapter tests: every vendor host is host-mapped to the fakes, nothing may reach real DNS,
 * no politeness spacing, and the client's waits (Retry-After, backoff) are recorded instead of slept.
 */
export function offlineClient(hostMap: Record<string, string>, sleeps: number[] = []): OutboundClient {
  return createOutboundClient({
    userAgentContact: 'https://frontline.test/bot',
    hostMap,
    perHostDelayMs: 0,
    apiHostDelayMs: 0,
    resolver: async (h) => {
      throw new Error(`unexpected DNS lookup of ${h}`);
    },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
}
