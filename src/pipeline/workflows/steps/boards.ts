import { getAdapter } from '../../../sources/index.js';
import { type Provider, SourceError } from '../../../sources/types.js';
import { discoverBoards } from '../../boards/discover.js';
import type { DetectedBoard } from '../../boards/types.js';
import { upsertBoards } from '../../store/boards.js';
import { readMarkers, setMarker } from '../../store/markers.js';
import type { PipelineContext } from '../context.js';
import type { CompanyRef, Skipped } from './company.js';

/**
 * The `discover-boards` step: the company's job boards, read from its careers page, or, when the onboarding names
 * them (`frontline track` passes the registry's), confirmed with their vendors. Stored with the step's marker.
 */

export interface DiscoverOutcome {
  careersUrl: string | null;
  boards: Array<{ provider: string; token: string; url: string; postingCount: number | null }>;
  rejected: Array<{ provider: string; token: string; reason: string }>;
}

export interface KnownBoard {
  provider: Provider;
  token: string;
}

/** The boards the careers page names, with the homepage the enrich step fetched when it is still at hand. */
function boardsOnCareersPage(ctx: PipelineContext, domain: string) {
  return discoverBoards(domain, ctx.http, { homepage: ctx.homepages.take(domain) });
}

/** Boards read from the careers page; skipped when they were discovered before, unless `force`. */
export async function discoverStep(
  ctx: PipelineContext,
  company: CompanyRef,
  domain: string,
  force: boolean,
): Promise<DiscoverOutcome | Skipped> {
  const markers = await readMarkers(ctx.db, company.companyId);
  if (markers.boardsDiscoveredAt && !force) {
    return { skipped: true, reason: `boards discovered at ${markers.boardsDiscoveredAt.toISOString()}` };
  }
  const found = await boardsOnCareersPage(ctx, domain);
  return storeBoards(ctx, company, found.careersUrl, found.boards, found.rejected);
}

/**
 * Boards named beforehand: each is confirmed with the vendor (one cheap listing call) and stored, with no
 * guesswork. The careers page is read only when a named board is gone, has moved or is of a vendor not allowed,
 * so that a company that changed vendor is still found. A vendor failure that may pass (429, 5xx, timeouts)
 * propagates, so the step retries.
 */
export async function knownBoardsStep(
  ctx: PipelineContext,
  company: CompanyRef,
  domain: string,
  named: readonly KnownBoard[],
  allowed: ReadonlySet<Provider>,
): Promise<DiscoverOutcome> {
  const boards: DetectedBoard[] = [];
  const rejected: DiscoverOutcome['rejected'] = [];
  for (const b of named) {
    if (!allowed.has(b.provider)) {
      rejected.push({ ...b, reason: `${b.provider} is not tracked (TRACK_VENDORS)` });
      continue;
    }
    const adapter = getAdapter(b.provider);
    const ref = { ...b, url: adapter.boardUrl(b.token) };
    try {
      const postingCount = await adapter.countPostings(ref, ctx.http);
      boards.push({ ...ref, evidence: 'registry', foundOn: ref.url, postingCount });
    } catch (err) {
      if (!(err instanceof SourceError) || err.retryable) throw err;
      rejected.push({ ...b, reason: err.message });
    }
  }
  let careersUrl: string | null = null;
  if (rejected.length > 0 || boards.length === 0) {
    const found = await boardsOnCareersPage(ctx, domain);
    careersUrl = found.careersUrl;
    const have = new Set(boards.map((b) => `${b.provider}:${b.token.toLowerCase()}`));
    for (const b of found.boards) {
      const key = `${b.provider}:${b.token.toLowerCase()}`;
      if (allowed.has(b.provider) && !have.has(key)) boards.push(b);
      have.add(key);
    }
    rejected.push(...found.rejected);
  }
  return storeBoards(ctx, company, careersUrl, boards, rejected);
}

async function storeBoards(
  ctx: PipelineContext,
  company: CompanyRef,
  careersUrl: string | null,
  boards: readonly DetectedBoard[],
  rejected: DiscoverOutcome['rejected'],
): Promise<DiscoverOutcome> {
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    await upsertBoards(
      tx,
      company.companyId,
      boards.map((b) => ({ provider: b.provider, token: b.token, url: b.url, evidence: b.evidence })),
      now,
    );
    await setMarker(tx, company.companyId, 'boards_discovered_at', now, { careersUrl });
  });
  return {
    careersUrl,
    boards: boards.map((b) => ({
      provider: b.provider,
      token: b.token,
      url: b.url,
      postingCount: b.postingCount,
    })),
    rejected,
  };
}
