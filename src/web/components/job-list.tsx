import type { JobCard } from '../../catalog/sql/jobs.js';
import type { JobListItem } from '../../catalog/types.js';
import { ROLE_LABELS, salaryText } from '../format.js';
import { TimeAgo } from './time-ago.js';

/** What a listing shows beyond the list items: each job's pay and first sighting, and since when a job is new. */
export interface JobCards {
  byId: ReadonlyMap<string, JobCard>;
  /** ISO 8601: a job first seen at or after this instant is marked new. */
  newSince: string;
}

/**
 * Jobs as a list: title (to its page), company (to its page), place, category and when it was posted; with `cards`,
 * its pay when stated and a "New" mark when the catalog first saw it recently.
 */
export function JobList(props: { jobs: JobListItem[]; showCompany?: boolean; cards?: JobCards }) {
  return (
    <ol class="jobs">
      {props.jobs.map((job) => {
        const card = props.cards?.byId.get(job.id);
        const isNew = card !== undefined && card.firstSeenAt >= (props.cards?.newSince ?? '');
        return (
          <li key={job.id}>
            <a class="title" href={`/jobs/${job.id}`}>
              {job.title}
            </a>{' '}
            {isNew ? <span class="new">New</span> : null}
            <div class="meta">
              {props.showCompany === false ? null : (
                <a href={`/companies/${job.company.slug}`}>{job.company.name}</a>
              )}
              <span>{job.location || 'Location not stated'}</span>
              {job.remote ? <span>Remote</span> : null}
              {card?.salary ? <span class="pay">{salaryText(card.salary)}</span> : null}
              <span>{ROLE_LABELS[job.roleCategory]}</span>
              <TimeAgo iso={job.postedAt} />
            </div>
          </li>
        );
      })}
    </ol>
  );
}
