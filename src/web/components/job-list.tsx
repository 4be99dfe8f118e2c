import type { JobCard } from '../../catalog/sql/jobs.js';
import type { JobListItem } from '../../catalog/types.js';
import { ROLE_LABELS, salaryText } from '../format.js';
import { MarkupMemo } from '../markup-memo.js';
import { TimeAgo } from './time-ago.js';

/** What a listing shows beyond the list items: each job's pay and first sighting, and since when a job is new. */
export interface JobCards {
  byId: ReadonlyMap<string, JobCard>;
  /** ISO 8601: a job first seen at or after this instant is marked new. */
  newSince: string;
}

/** Everything a card shows, as it shows it: the card's markup is a function of these alone. */
interface CardFacts {
  job: JobListItem;
  showCompany: boolean;
  isNew: boolean;
  pay: string | undefined;
}

function Card({ job, showCompany, isNew, pay }: CardFacts) {
  return (
    <li>
      <a class="title" href={`/jobs/${job.id}`}>
        {job.title}
      </a>{' '}
      {isNew ? <span class="new">New</span> : null}
      <div class="meta">
        {showCompany ? <a href={`/companies/${job.company.slug}`}>{job.company.name}</a> : null}
        <span>{job.location || 'Location not stated'}</span>
        {job.remote ? <span>Remote</span> : null}
        {pay ? <span class="pay">{pay}</span> : null}
        <span>{ROLE_LABELS[job.roleCategory]}</span>
        <TimeAgo iso={job.postedAt} />
      </div>
    </li>
  );
}

/**
 * Cards rendered, remembered by everything they show (CardFacts): the same jobs appear on many filtered and paged
 * listings. A job that changes has another key, so an older card is never served; it ages out of the memo. An
 * entry (a card and its key, counted at two bytes a character) takes ~1.1 KB: 16 MB hold ~14,000 cards
 * (docs/performance.md, "Where a miss of the HTML page goes").
 */
const cards = new MarkupMemo<CardFacts>(
  16 * 1024 * 1024,
  (f) =>
    JSON.stringify([
      f.job.id,
      f.job.title,
      f.job.company.slug,
      f.job.company.name,
      f.job.location,
      f.job.remote,
      f.job.roleCategory,
      f.job.postedAt,
      f.showCompany,
      f.isNew,
      f.pay ?? '',
    ]),
  Card,
);

/**
 * Jobs as a list: title (to its page), company (to its page), place, category and when it was posted; with `cards`,
 * its pay when stated and a "New" mark when the catalog first saw it recently.
 */
export function JobList(props: { jobs: JobListItem[]; showCompany?: boolean; cards?: JobCards }) {
  let html = '';
  for (const job of props.jobs) {
    const card = props.cards?.byId.get(job.id);
    html += cards.render({
      job,
      showCompany: props.showCompany !== false,
      isNew: card !== undefined && card.firstSeenAt >= (props.cards?.newSince ?? ''),
      pay: card?.salary ? salaryText(card.salary) : undefined,
    });
  }
  // Each card's markup is preact-render-to-string's, which escaped every value in it.
  return <ol class="jobs" dangerouslySetInnerHTML={{ __html: html }} />;
}
