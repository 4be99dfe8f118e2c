import { refreshActiveJobCounts } from '../../../catalog/company-writes.js';
import { getAdapter } from '../../../sources/index.js';
import { type NormalizedPosting, type Provider, SourceError } from '../../../sources/types.js';
import { discoverBoards } from '../../boards/discover.js';
import { explainRole } from '../../classify/classify.js';
import { type BoardOutcomeKind, recordBoardFailure } from '../../store/board-health.js';
import { deactivateBoard, markBoardScraped, type StoredBoard, upsertBoards } from '../../store/boards.js';
import { settleDuplicates } from '../../store/duplicates.js';
import { deactivateBoardJobs, knownPostings, writeBoardPostings } from '../../store/jobs.js';
import { publishCompany } from '../../store/publication.js';
import type { PipelineContext } from '../context.js';
import { type RefusedUrls, withWebUrls } from './posting-urls.js';

/**
 * The `scrape:<provider>/<token>` step: one board's scrape, and what happens when a board dies or moves. A board that answers 404, redirects to another
 * host, or lists nothing where it had postings is not believed at once: the company's careers page is read again
 * first. When the page names another board (the company changed vendor), that board is recorded and scraped, and
 * only then is the old one closed, so every posting stays listed throughout; duplicates between the two boards are
 * settled by store/duplicates.ts. An empty listing with no other board named is held (jobs kept) until it has been
 * seen EMPTY_CONFIRMATIONS times in a row, because some vendors (SmartRecruiters, Breezy) answer an empty list for
 * any name: one bad answer must not close a whole board.
 */

/** Postings a board must have had for an empty listing to be doubted. */
export const MANY_POSTINGS = 3;
/** Empty listings in a row, with no other board on the careers page, before the board's jobs are closed. */
export const EMPTY_CONFIRMATIONS = 3;

export type Company = { companyId: string; name: string };

export interface BoardOutcome {
  board: string;
  postings: number;
  inserted: number;
  updated: number;
  deactivated: number;
  /** The vendor answered 404 (or redirected away) and the careers page named no other board: all jobs closed. */
  gone: boolean;
  outcome: BoardOutcomeKind;
  /** Boards the careers page names instead (provider/token), scraped in this step. */
  replacedBy?: BoardOutcome[];
  /** Postings whose URL was not an absolute http(s) URL (posting-urls.ts); present when there were any. */
  refusedUrls?: RefusedUrls;
}

const counted = (ctx: PipelineContext, vendor: Provider, outcome: BoardOutcomeKind) =>
  ctx.counters?.boardScrapes.inc({ vendor, outcome });

/**
 * Every posting the board lists; throws SourceError (board_not_found when it is gone). Adapters that pay a request
 * per posting for details get what the store holds for the board, to skip unchanged ones.
 */
async function fetchPostings(ctx: PipelineContext, board: StoredBoard): Promise<NormalizedPosting[]> {
  const adapter = getAdapter(board.provider);
  const known = adapter.usesKnown ? await knownPostings(ctx.db, board.id, ctx.now()) : undefined;
  return adapter.fetchPostings(board, ctx.http, known);
}

/** Postings whose URL was refused are counted by vendor and action, and logged. */
function refusedUrls(ctx: PipelineContext, vendor: Provider, refused: RefusedUrls): void {
  ctx.logger.warn({ vendor, ...refused }, 'posting URLs that are not absolute http(s) were refused');
  ctx.counters?.refusedUrls.inc({ vendor, action: 'replaced' }, refused.replaced);
  ctx.counters?.refusedUrls.inc({ vendor, action: 'dropped' }, refused.dropped);
}

const labelOf = (b: { provider: string; token: string }) => `${b.provider}/${b.token}`;
const sameBoard = (a: { provider: string; token: string }, b: { provider: string; token: string }) =>
  a.provider === b.provider && a.token.toLowerCase() === b.token.toLowerCase();

/** Writes a board's listing: jobs upserted, missing ones closed, duplicates with other boards settled. */
async function storePostings(
  ctx: PipelineContext,
  company: Company,
  board: StoredBoard,
  postings: NormalizedPosting[],
  outcome: 'ok' | 'emptied',
  superseded: readonly string[] = [],
): Promise<BoardOutcome> {
  const checked = withWebUrls(board.url, postings);
  const { replaced, dropped } = checked.refused;
  if (replaced + dropped > 0) refusedUrls(ctx, board.provider, checked.refused);
  const classified = checked.postings.map((p) => {
    const c = explainRole({ title: p.title, department: p.department, description: p.descriptionText });
    return { ...p, roleCategory: c.category, classificationRule: c.rule };
  });
  const counts = await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const c = await writeBoardPostings(
      tx,
      {
        companyId: company.companyId,
        companyName: company.name,
        boardId: board.id,
        provider: board.provider,
        postings: classified,
      },
      now,
    );
    const settled = await settleDuplicates(tx, company.companyId, board.id, now, superseded);
    await markBoardScraped(tx, board.id, postings.length, now, outcome);
    await refreshActiveJobCounts(tx, [company.companyId], now);
    // A stored listing makes the company public with its jobs, in one commit: no job is ever shown without it.
    const published = await publishCompany(tx, company.companyId, now);
    return { ...c, deactivated: c.deactivated + settled.length, published };
  });
  await ctx.indexer.embedIds('job', counts.changedIds);
  // Search embeds active companies only: the enrichment's embedding of an unpublished one was skipped.
  if (counts.published) await ctx.indexer.embedIds('company', [company.companyId]);
  counted(ctx, board.provider, outcome);
  return {
    board: labelOf(board),
    postings: postings.length,
    inserted: counts.inserted,
    updated: counts.updated,
    deactivated: counts.deactivated,
    gone: false,
    outcome,
    ...(replaced + dropped > 0 && { refusedUrls: checked.refused }),
  };
}

/** The boards the company's careers page names now, other than `board`, recorded (active) and loaded. */
async function replacementsOf(ctx: PipelineContext, company: Company, board: StoredBoard) {
  const rows = await ctx.db.query<{ domain: string }>('SELECT domain FROM companies WHERE id = $1', [
    company.companyId,
  ]);
  const domain = rows[0]?.domain;
  if (!domain) return { named: false, others: [] as StoredBoard[] };
  const found = await discoverBoards(domain, ctx.http, { homepage: ctx.homepages.take(domain) });
  const named = found.boards.some((b) => sameBoard(b, board));
  const fresh = found.boards.filter((b) => !sameBoard(b, board));
  if (fresh.length === 0) return { named, others: [] };
  const others = await ctx.db.transaction(async (tx) => {
    await upsertBoards(
      tx,
      company.companyId,
      fresh.map((b) => ({ provider: b.provider, token: b.token, url: b.url, evidence: b.evidence })),
      ctx.now(),
    );
    return tx.query<StoredBoard>(
      `SELECT id, provider, token, url, active FROM boards
       WHERE company_id = $1 AND active AND id <> $2 ORDER BY created_at, id`,
      [company.companyId, board.id],
    );
  });
  return { named, others: others.filter((o) => fresh.some((b) => sameBoard(b, o))) };
}

/** Scrapes the boards that replace `old`; a replacement that is itself gone is skipped, not recursed into. */
async function scrapeReplacements(
  ctx: PipelineContext,
  company: Company,
  old: StoredBoard,
  others: StoredBoard[],
) {
  const out: BoardOutcome[] = [];
  for (const other of others) {
    try {
      out.push(await storePostings(ctx, company, other, await fetchPostings(ctx, other), 'ok', [old.id]));
    } catch (err) {
      if (!isGone(err)) throw err;
    }
  }
  return out;
}

/** Closes a board and its remaining jobs, recording why. */
async function closeBoard(
  ctx: PipelineContext,
  company: Company,
  board: StoredBoard,
  outcome: 'gone' | 'moved',
  reason: string,
): Promise<number> {
  const closed = await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    await recordBoardFailure(tx, board.id, outcome, reason, now);
    await deactivateBoard(tx, board.id, reason, now);
    const n = await deactivateBoardJobs(tx, board.id, now);
    await refreshActiveJobCounts(tx, [company.companyId], now);
    return n;
  });
  counted(ctx, board.provider, outcome);
  return closed;
}

/**
 * Whether the boards that replace a dead one list anything: an empty replacement (SmartRecruiters answers an empty
 * list for any name) is no evidence that the company moved.
 */
const listsPostings = (replacedBy: BoardOutcome[]) => replacedBy.some((r) => r.postings > 0);

const isGone = (err: unknown): err is SourceError =>
  err instanceof SourceError && (err.code === 'board_not_found' || err.code === 'board_moved');

const outcomeOf = (
  board: StoredBoard,
  deactivated: number,
  outcome: BoardOutcomeKind,
  replacedBy?: BoardOutcome[],
) => ({
  board: labelOf(board),
  postings: 0,
  inserted: 0,
  updated: 0,
  deactivated,
  gone: outcome === 'gone',
  outcome,
  ...(replacedBy && replacedBy.length > 0 ? { replacedBy } : {}),
});

/** The vendor says the board is gone (404, or a redirect away): re-detect, move to a named board, else close. */
async function boardGone(ctx: PipelineContext, company: Company, board: StoredBoard, err: SourceError) {
  const { others } = await replacementsOf(ctx, company, board);
  const replacedBy = await scrapeReplacements(ctx, company, board, others);
  const outcome = listsPostings(replacedBy) ? 'moved' : 'gone';
  const closed = await closeBoard(ctx, company, board, outcome, err.message);
  return outcomeOf(board, closed, outcome, replacedBy);
}

/** An empty listing where there were postings: move to a board the careers page names, else hold or confirm. */
async function boardEmptied(ctx: PipelineContext, company: Company, board: StoredBoard) {
  const had = board.lastPostingCount ?? 0;
  const { others } = await replacementsOf(ctx, company, board);
  const replacedBy = await scrapeReplacements(ctx, company, board, others);
  if (listsPostings(replacedBy)) {
    const closed = await closeBoard(ctx, company, board, 'moved', `listed 0 postings where it had ${had}`);
    return outcomeOf(board, closed, 'moved', replacedBy);
  }
  const seen = (board.emptyScrapes ?? 0) + 1;
  if (seen >= EMPTY_CONFIRMATIONS) return storePostings(ctx, company, board, [], 'emptied');
  await ctx.db.transaction((tx) =>
    recordBoardFailure(
      tx,
      board.id,
      'empty_held',
      `listed 0 postings where it had ${had}; jobs kept (${seen} of ${EMPTY_CONFIRMATIONS} empty listings)`,
      ctx.now(),
      { emptyScrapes: seen },
    ),
  );
  counted(ctx, board.provider, 'empty_held');
  return outcomeOf(board, 0, 'empty_held');
}

export async function scrapeBoardStep(
  ctx: PipelineContext,
  company: Company,
  board: StoredBoard,
): Promise<BoardOutcome> {
  let postings: NormalizedPosting[];
  try {
    postings = await fetchPostings(ctx, board);
  } catch (err) {
    if (!isGone(err)) throw err;
    return boardGone(ctx, company, board, err);
  }
  if (postings.length === 0 && (board.lastPostingCount ?? 0) >= MANY_POSTINGS) {
    return boardEmptied(ctx, company, board);
  }
  return storePostings(ctx, company, board, postings, 'ok');
}
