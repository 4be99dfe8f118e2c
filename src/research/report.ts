import type { HiringProfile } from './dossier.js';
import type { Extraction, Fact } from './extract.js';
import type { DossierFacts, ResearchSubject } from './types.js';

/**
 * The local composer's Markdown report. It says plainly what was found, where, and what is unknown: a reader
 * must never mistake an empty section for "the company has no founders".
 */

export interface ReportInput {
  subject: ResearchSubject;
  facts: Omit<DossierFacts, 'markdownReport'>;
  extraction: Extraction;
  hiring: HiringProfile;
  failures: { url: string; reason: string }[];
}

const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const cite = (url: string): string => `[${new URL(url).pathname || '/'}](${url})`;
const usd = (n: number): string =>
  n >= 1e9
    ? `$${(n / 1e9).toFixed(n % 1e9 === 0 ? 0 : 1)}B`
    : `$${(n / 1e6).toFixed(n % 1e6 === 0 ? 0 : 1)}M`;

function factRow<T>(label: string, fact: Fact<T> | null): string {
  return fact
    ? `| ${label} | ${esc(String(fact.value))} | ${cite(fact.url)} (${fact.how}) |`
    : `| ${label} | unknown | not stated on the pages read |`;
}

/** Which dossier facts were established and which stay unknown (also used for coverage figures). */
export function coverage(facts: Omit<DossierFacts, 'markdownReport'>): {
  found: string[];
  unknown: string[];
} {
  const checks: [string, boolean][] = [
    ['summary', facts.summary.length > 0],
    ['founders', facts.founders.length > 0],
    ['leadership', facts.leadership.length > 0],
    ['foundedYear', facts.foundedYear !== null],
    ['employeeCount', facts.employeeCount !== null],
    ['headquarters', facts.headquarters !== null],
    ['fundingRounds', facts.fundingRounds.length > 0],
    ['marketAnalysis', Object.values(facts.marketAnalysis).some((v) => v !== null)],
    ['competitors', facts.competitors.length > 0],
  ];
  return {
    found: checks.filter(([, ok]) => ok).map(([k]) => k),
    unknown: checks.filter(([, ok]) => !ok).map(([k]) => k),
  };
}

export function localReport(input: ReportInput): string {
  const { subject, facts, extraction: x, hiring } = input;
  const lines: string[] = [];
  const push = (...l: string[]) => lines.push(...l);
  push(
    `# ${subject.name} (${subject.domain})`,
    '',
    `> Composed locally from ${facts.sources.length} page(s) of ${subject.domain} and the catalog's own job data. ` +
      'No web search and no language model were used: every fact below was found on the company’s own pages or ' +
      'in our job data, and anything not found is marked unknown rather than guessed.',
    '',
    '## Summary',
    '',
    facts.summary,
    '',
    '## Key facts',
    '',
    '| Fact | Value | Source |',
    '|---|---|---|',
    factRow('Founded', x.foundedYear),
    factRow('Headquarters', x.headquarters),
    factRow('Employees', x.employeeCount),
    '',
    '## Founders',
    '',
  );
  if (x.founders.length === 0) push('_Unknown: no founders are named on the pages read._');
  for (const f of x.founders) {
    push(
      `- **${f.name}**${f.role ? `, ${f.role}` : ''}${f.background ? ` — ${f.background}` : ''} (${cite(f.url)})`,
    );
  }
  push('', '## Leadership', '');
  if (x.leadership.length === 0) push('_Unknown: no leadership team is listed on the pages read._');
  for (const l of x.leadership) push(`- **${l.name}**${l.title ? `, ${l.title}` : ''} (${cite(l.url)})`);
  push('', '## Funding', '');
  if (x.fundingRounds.length === 0) push('_Unknown: no funding announcements were found on the pages read._');
  for (const r of x.fundingRounds) {
    const amount = r.amountUsd !== null ? usd(r.amountUsd) : 'undisclosed amount';
    const led = r.investors.length > 0 ? `, led by ${r.investors.join(', ')}` : '';
    push(`- ${r.round ?? 'Round of unstated type'}: ${amount}${led} (${cite(r.url)})`);
  }
  push('', '## Hiring profile (catalog data)', '');
  if (hiring.activeJobs === 0) push('No active postings in the catalog.');
  else {
    push(
      `- ${hiring.activeJobs} active posting(s), ${hiring.clientFacingJobs} client-facing.`,
      `- Top categories: ${hiring.topCategories.map((c) => `${c.category} (${c.count})`).join(', ')}.`,
    );
    if (hiring.locations.length > 0) push(`- Main locations: ${hiring.locations.join('; ')}.`);
    if (hiring.remoteShare !== null) push(`- Remote share: ${Math.round(hiring.remoteShare * 100)}%.`);
  }
  push('', '## Market analysis', '');
  push(
    facts.marketAnalysis.positioning
      ? `Positioning, in the company’s own words: “${facts.marketAnalysis.positioning}”. Market, customers and trends: unknown (a local run does not research the market).`
      : 'Unknown: a local run does not research the market.',
  );
  push('', '## Competitors', '', '_Unknown: a local run does not research competitors._');
  const cov = coverage(facts);
  push(
    '',
    '## Coverage',
    '',
    `- Found: ${cov.found.join(', ') || 'nothing'}.`,
    `- Unknown: ${cov.unknown.join(', ') || 'nothing'}.`,
  );
  push('', '## Sources', '');
  for (const s of facts.sources) push(`- [${esc(s.title ?? s.url)}](${s.url})`);
  if (input.failures.length > 0) {
    push('', '## Pages that could not be read', '');
    for (const f of input.failures) push(`- ${f.url}: ${f.reason}`);
  }
  return `${lines.join('\n')}\n`;
}
