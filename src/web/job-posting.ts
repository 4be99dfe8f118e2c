import type { JobDetail, PostingLocation } from '../catalog/types.js';
import { isWebUrl } from '../net/web-url.js';
import { renderMarkdown } from './markdown.js';

const UNIT: Record<string, string> = { year: 'YEAR', month: 'MONTH', week: 'WEEK', day: 'DAY', hour: 'HOUR' };

/** A posting's place as a schema.org Place, with only the parts of its address that are known. */
function place(l: PostingLocation) {
  const address = {
    '@type': 'PostalAddress',
    ...(l.city && { addressLocality: l.city }),
    ...(l.region && { addressRegion: l.region }),
    ...(l.country && { addressCountry: l.country }),
  };
  return { '@type': 'Place', name: l.name, address };
}

/**
 * schema.org JobPosting for a job page: every field the catalog knows, none it does not. Not known, so never
 * written: validThrough (postings state no closing date) and employmentType (not recorded).
 */
export function jobPostingLd(job: JobDetail, pageUrl: string, logoUrl: string | null) {
  const onSite = job.locations.filter((l) => !l.remote && (l.city || l.region || l.country));
  const scopes = [
    ...new Set(job.locations.flatMap((l) => (l.remote && l.remoteScope ? [l.remoteScope] : []))),
  ];
  const s = job.salary;
  return {
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    title: job.title,
    description: renderMarkdown(job.description),
    datePosted: job.postedAt,
    ...(isWebUrl(pageUrl) && { url: pageUrl }),
    identifier: { '@type': 'PropertyValue', name: 'Frontline', value: job.id },
    directApply: false,
    hiringOrganization: {
      '@type': 'Organization',
      name: job.company.name,
      ...(isWebUrl(job.company.website) && { sameAs: job.company.website }),
      ...(isWebUrl(logoUrl) && { logo: logoUrl }),
    },
    ...(onSite.length > 0 && { jobLocation: onSite.map(place) }),
    ...(job.remote && { jobLocationType: 'TELECOMMUTE' }),
    ...(job.remote &&
      scopes.length > 0 && {
        applicantLocationRequirements: scopes.map((name) => ({ '@type': 'AdministrativeArea', name })),
      }),
    ...(s && {
      baseSalary: {
        '@type': 'MonetaryAmount',
        currency: s.currency,
        value: { '@type': 'QuantitativeValue', minValue: s.min, maxValue: s.max, unitText: UNIT[s.period] },
      },
    }),
  };
}
