import { type CompanyFields, upsertCompanyByDomain } from '../catalog/company-writes.js';
import type { Queryable } from '../db/port.js';
import type { Dossier, FundingRound } from './dossier.js';

/**
 * The dossier feeds the company page: its summary and the facts the catalog shows (founded year, headcount,
 * headquarters, funding). Written through the catalog's own company write, which bumps catalog_version, inside
 * the transaction that stores the run. A fact the dossier does not know (null) never erases a known one.
 */

const money = (n: number): string =>
  n >= 1e9
    ? `$${+(n / 1e9).toFixed(1)}B`
    : n >= 1e6
      ? `$${+(n / 1e6).toFixed(1)}M`
      : `$${n.toLocaleString('en-US')}`;

/** "Series B (2024-03), $72M total over 3 rounds" from the known rounds; null when none is known. */
export function fundingSummary(rounds: readonly FundingRound[]): {
  summary: string | null;
  totalUsd: number | null;
} {
  if (rounds.length === 0) return { summary: null, totalUsd: null };
  const amounts = rounds.map((r) => r.amountUsd).filter((a): a is number => a !== null);
  const totalUsd = amounts.length > 0 ? amounts.reduce((a, b) => a + b, 0) : null;
  // Latest round: the one with the greatest date; undated rounds count as oldest.
  const latest = [...rounds].sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''))[0];
  const parts: string[] = [];
  if (latest?.round) parts.push(`${latest.round}${latest.date ? ` (${latest.date})` : ''}`);
  if (totalUsd !== null)
    parts.push(`${money(totalUsd)} total${rounds.length > 1 ? ` over ${rounds.length} rounds` : ''}`);
  return { summary: parts.length > 0 ? parts.join(', ') : null, totalUsd };
}

/**
 * The research summary stored on the company. It is part of the company's search text (keyword and embedding),
 * so besides the dossier summary it names the founders and the market: research terms become searchable.
 */
export function researchSummaryOf(d: Dossier): string {
  const parts = [d.summary.trim()];
  if (d.founders.length > 0) parts.push(`Founders: ${d.founders.map((f) => f.name).join(', ')}.`);
  if (d.marketAnalysis.market) parts.push(`Market: ${d.marketAnalysis.market}`);
  return parts.filter(Boolean).join(' ').slice(0, 4000);
}

export async function applyDossier(
  tx: Queryable,
  company: { name: string; domain: string },
  dossier: Dossier,
  nowMs: number,
): Promise<void> {
  const funding = fundingSummary(dossier.fundingRounds);
  const fields: CompanyFields = { name: company.name, researchSummary: researchSummaryOf(dossier) };
  if (dossier.foundedYear !== null) fields.foundedYear = dossier.foundedYear;
  if (dossier.employeeCount !== null) fields.employeeCount = dossier.employeeCount;
  if (dossier.headquarters !== null) fields.headquarters = dossier.headquarters;
  if (funding.summary !== null) fields.fundingSummary = funding.summary;
  if (funding.totalUsd !== null) fields.totalFundingUsd = funding.totalUsd;
  await upsertCompanyByDomain(tx, company.domain, fields, nowMs);
}
