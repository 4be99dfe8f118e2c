/** Small in-memory sources for the registry build's identity rules, shared by its test files. */
import type { BoardFact, CompanyFact, Facts } from '../../scripts/registry/facts.js';
import type { buildRegistry, SourceInfo } from '../../scripts/registry/identity.js';

export const SOURCES: SourceInfo[] = [
  { id: 'new-list', date: '2026-06-30', discovered: true },
  { id: 'old-list', date: '2025-12-24', discovered: true },
  { id: 'hand-list', date: '2026-08-22', discovered: false },
  { id: 'ai-list', date: '2026-08-03', discovered: false },
  { id: 'postings', date: '2025-10-28', discovered: true },
];

export const company = (name: string, domain: string): CompanyFact => ({
  source: 'ai-list',
  name,
  domain,
  category: 'ai_native',
});
export const board = (
  source: string,
  vendor: BoardFact['vendor'],
  id: string,
  name: string | null,
): BoardFact => ({
  source,
  vendor,
  board: id,
  name,
});
export const facts = (
  companies: CompanyFact[],
  boards: BoardFact[],
  hints: Facts['hints'] = [],
  links: Facts['links'] = [],
): Facts[] => [{ companies, boards, hints, links }];

export const link = (id: string, domain: string, linking = 5, postings = 6): Facts['links'][number] => ({
  source: 'postings',
  vendor: 'ashby',
  board: id,
  domain,
  linking,
  postings,
});

export const boardsOf = (r: ReturnType<typeof buildRegistry>) =>
  Object.fromEntries(
    r.entries.map((e) => [e.domain, e.boards.map((b) => `${b.vendor}:${b.board}:${b.evidence}`)]),
  );
export const reasons = (r: ReturnType<typeof buildRegistry>) =>
  Object.fromEntries([...r.rejected].map(([k, v]) => [k, [...v].sort()]));
