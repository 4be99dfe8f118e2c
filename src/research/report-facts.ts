import type { DossierFacts, ResearchSubject } from './types.js';

/**
 * A Markdown report rendered from dossier facts, for a provider answer that carried structured fields but no
 * report. Unknown facts are printed as unknown.
 */
export function factsReport(subject: ResearchSubject, facts: DossierFacts, by: string): string {
  const unknown = '_unknown_';
  const l: string[] = [
    `# ${subject.name} (${subject.domain})`,
    '',
    `> Research by ${by}.`,
    '',
    '## Summary',
    '',
    facts.summary || unknown,
  ];
  l.push(
    '',
    '## Key facts',
    '',
    `- Founded: ${facts.foundedYear ?? unknown}`,
    `- Headquarters: ${facts.headquarters ?? unknown}`,
    `- Employees: ${facts.employeeCount ?? unknown}`,
    '',
    '## Founders',
    '',
  );
  if (facts.founders.length === 0) l.push(unknown);
  for (const f of facts.founders)
    l.push(`- **${f.name}**${f.role ? `, ${f.role}` : ''}${f.background ? ` — ${f.background}` : ''}`);
  l.push('', '## Leadership', '');
  if (facts.leadership.length === 0) l.push(unknown);
  for (const p of facts.leadership) l.push(`- **${p.name}**${p.title ? `, ${p.title}` : ''}`);
  l.push('', '## Funding', '');
  if (facts.fundingRounds.length === 0) l.push(unknown);
  for (const r of facts.fundingRounds) {
    const amount = r.amountUsd === null ? 'undisclosed' : `$${r.amountUsd.toLocaleString('en-US')}`;
    l.push(
      `- ${r.date ?? 'date unknown'}: ${r.round ?? 'round'} ${amount}${r.investors.length ? ` (${r.investors.join(', ')})` : ''}`,
    );
  }
  const m = facts.marketAnalysis;
  l.push(
    '',
    '## Market',
    '',
    `- Market: ${m.market ?? unknown}`,
    `- Positioning: ${m.positioning ?? unknown}`,
    `- Customers: ${m.customers ?? unknown}`,
    `- Trends: ${m.trends ?? unknown}`,
    '',
    '## Competitors',
    '',
  );
  if (facts.competitors.length === 0) l.push(unknown);
  for (const c of facts.competitors)
    l.push(`- **${c.name}**${c.domain ? ` (${c.domain})` : ''}${c.note ? `: ${c.note}` : ''}`);
  if (facts.sources.length > 0) {
    l.push('', '## Sources', '');
    for (const s of facts.sources) l.push(`- [${s.title ?? s.url}](${s.url})`);
  }
  return `${l.join('\n')}\n`;
}
