import type { JobListItem } from '../../catalog/types.js';
import { ROLE_LABELS } from '../format.js';
import { TimeAgo } from './time-ago.js';

/** Jobs as a list: title (to its page), company (to its page), place, category and when it was posted. */
export function JobList(props: { jobs: JobListItem[]; showCompany?: boolean }) {
  return (
    <ol class="jobs">
      {props.jobs.map((job) => (
        <li key={job.id}>
          <a class="title" href={`/jobs/${job.id}`}>
            {job.title}
          </a>
          <div class="meta">
            {props.showCompany === false ? null : (
              <a href={`/companies/${job.company.slug}`}>{job.company.name}</a>
            )}
            <span>{job.location || 'Location not stated'}</span>
            {job.remote ? <span>Remote</span> : null}
            <span>{ROLE_LABELS[job.roleCategory]}</span>
            <TimeAgo iso={job.postedAt} />
          </div>
        </li>
      ))}
    </ol>
  );
}
