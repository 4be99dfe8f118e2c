import { type Provider, SourceError } from '../../sources/types.js';
import type { DetectedBoard } from '../boards/types.js';
import { upsertBoards } from '../store/boards.js';
import { setMarker } from '../store/markers.js';
import type { PipelineContext } from './context.js';
import type { CompanyRef, DiscoverOutcome } from './steps.js';

/**
 * The boards step of an onboarding that names its boards (`frontline track` passes the registry's): each named
 * board is confirmed with the vendor (one cheap listing call) and stored, with no guesswork. The careers page is
 * read only when a named board is gone, has moved or is of a vendor not allowed, so that a company that changed
 * vendor is still found. A vendor failure that may pass (429, 5xx, timeouts) propagates, so the step retries.
 */

export interface KnownBoard {
  provider: Provider;
  token: string;
}

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
    const ref = { ...b, url: ctx.boardUrl(b.provider, b.token) };
    try {
      const postingCount = await ctx.confirmBoard(ref);
      boards.push({ ...ref, evidence: 'registry', foundOn: ref.url, postingCount });
    } catch (err) {
      if (!(err instanceof SourceError) || err.retryable) throw err;
      rejected.push({ ...b, reason: err.message });
    }
  }
  let careersUrl: string | null = null;
  if (rejected.length > 0 || boards.length === 0) {
    const found = await ctx.discoverBoards(domain);
    careersUrl = found.careersUrl;
    const have = new Set(boards.map((b) => `${b.provider}:${b.token.toLowerCase()}`));
    for (const b of found.boards) {
      const key = `${b.provider}:${b.token.toLowerCase()}`;
      if (allowed.has(b.provider) && !have.has(key)) boards.push(b);
      have.add(key);
    }
    rejected.push(...found.rejected);
  }
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
