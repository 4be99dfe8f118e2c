import { Feed } from 'feed';
import type { JobListItem } from '../../catalog/types.js';
import { ROLE_LABELS } from '../../catalog/vocabulary.js';
import { webUrlOr } from '../../net/web-url.js';

/**
 * Atom 1.0 (RFC 4287) for a job listing. Entries are newest first and keyed by the job's id, so a reader shows a
 * job once however often the feed is polled, and a job that changes rank in a search is not a new entry.
 */

export interface JobFeedInput {
  /** The feed's own URL, with its filters: its id and rel="self" link. */
  selfUrl: string;
  /** The same listing as JSON. */
  listingUrl: string;
  /** Base URL of the API, for each entry's detail link. */
  apiBase: string;
  title: string;
  jobs: JobListItem[];
  /** The feed's `updated` when it has no entry. */
  emptyUpdated: Date;
}

/** The library writes titles and summaries as type="html": text is escaped so a reader shows it as written. */
const html = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function summary(job: JobListItem): string {
  return [
    job.company.name,
    job.location,
    job.remote ? 'Remote' : null,
    `Role: ${ROLE_LABELS[job.roleCategory]}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function jobFeed(input: JobFeedInput): string {
  const jobs = [...input.jobs].sort((a, b) =>
    a.postedAt < b.postedAt ? 1 : a.postedAt > b.postedAt ? -1 : 0,
  );
  const newest = jobs[0];
  const feed = new Feed({
    id: input.selfUrl,
    title: input.title,
    link: input.listingUrl,
    updated: newest ? new Date(newest.postedAt) : input.emptyUpdated,
    generator: 'Frontline',
    feedLinks: { atom: input.selfUrl },
  });
  for (const job of jobs) {
    feed.addItem({
      id: `urn:uuid:${job.id}`,
      title: html(`${job.title} at ${job.company.name}`),
      // A posting URL that is not http(s) is refused: the entry links to the job's API detail instead.
      link: webUrlOr(job.url, `${input.apiBase}/jobs/${job.id}`),
      date: new Date(job.postedAt),
      published: new Date(job.postedAt),
      description: html(summary(job)),
      author: [{ name: job.company.name, link: `${input.apiBase}/companies/${job.company.slug}` }],
      // The category's term is the slug a client filters by; its label is the vocabulary's name.
      category: [{ term: job.roleCategory, name: ROLE_LABELS[job.roleCategory] }],
    });
  }
  return feed.atom1();
}
