import { getDomain } from 'tldts';

/**
 * Registrable domains of the services we call by name, and the label each gets in the outbound metrics. Every
 * other host (a company's own site, a page a crawl follows) is "other": one series per host a crawl touches would
 * grow the metrics without bound.
 */
const VENDORS: Record<string, string> = {
  'greenhouse.io': 'greenhouse',
  'lever.co': 'lever',
  'ashbyhq.com': 'ashby',
  'smartrecruiters.com': 'smartrecruiters',
  'workable.com': 'workable',
  'recruitee.com': 'recruitee',
  'myworkdayjobs.com': 'workday',
  'bamboohr.com': 'bamboohr',
  'parallel.ai': 'parallel',
  'openai.com': 'openai',
};

/** The metrics label of an outbound request's host: its vendor's name, or "other". */
export function hostLabel(host: string): string {
  const domain = getDomain(host.replace(/:\d+$/, ''), { allowPrivateDomains: true });
  return (domain && VENDORS[domain]) || 'other';
}
