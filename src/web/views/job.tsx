import type { JobDetail } from '../../catalog/types.js';
import { isWebUrl } from '../../net/web-url.js';
import { TimeAgo } from '../components/time-ago.js';
import type { PageContext } from '../context.js';
import { plural, ROLE_LABELS, salaryText } from '../format.js';
import { jobPostingLd } from '../job-posting.js';
import { Layout } from '../layout.js';
import { renderMarkdown } from '../markdown.js';

function Facts(props: { job: JobDetail }) {
  const { job } = props;
  const places = job.locations.length ? job.locations.map((l) => l.name) : [job.location || 'Not stated'];
  return (
    <dl class="facts">
      <dt>Company</dt>
      <dd>
        <a href={`/companies/${job.company.slug}`}>{job.company.name}</a>
      </dd>
      <dt>{places.length > 1 ? 'Locations' : 'Location'}</dt>
      <dd>{places.join(' · ')}</dd>
      <dt>Remote</dt>
      <dd>{job.remote ? 'Yes' : 'No'}</dd>
      {job.salary ? (
        <>
          <dt>Salary</dt>
          <dd>{salaryText(job.salary)}</dd>
        </>
      ) : null}
      {job.department ? (
        <>
          <dt>Department</dt>
          <dd>{job.department}</dd>
        </>
      ) : null}
      <dt>Category</dt>
      <dd>
        <a href={`/jobs?role_category=${job.roleCategory}`}>{ROLE_LABELS[job.roleCategory]}</a>
      </dd>
      <dt>Posted</dt>
      <dd>
        <TimeAgo iso={job.postedAt} />
      </dd>
      <dt>Listed for</dt>
      <dd>{plural(job.openDays, 'day')}</dd>
      {job.reposts > 0 ? (
        <>
          <dt>Posted again</dt>
          <dd>{`${plural(job.reposts, 'time')} under a new id (first posted date kept)`}</dd>
        </>
      ) : null}
    </dl>
  );
}

const summaryOf = (job: JobDetail): string =>
  `${job.title} at ${job.company.name}, ${job.remote ? 'remote' : job.location || 'location not stated'}` +
  `${job.salary ? `, ${salaryText(job.salary)}` : ''}.`;

/** GET /jobs/:id: the posting, its facts, the apply link, and its JobPosting structured data. */
export function JobView(props: { ctx: PageContext; job: JobDetail; logoUrl: string | null }) {
  const { ctx, job } = props;
  const head = {
    title: `${job.title} at ${job.company.name}`,
    description: summaryOf(job),
    type: 'article' as const,
    feedQuery: `?company=${job.company.slug}`,
    jsonLd: job.active ? jobPostingLd(job, `${ctx.origin}${ctx.path}`, props.logoUrl) : undefined,
  };
  return (
    <Layout ctx={ctx} head={head}>
      {job.active ? null : (
        <p class="banner" role="note">
          This job is closed: the company no longer lists it.
        </p>
      )}
      <h1>{job.title}</h1>
      <Facts job={job} />
      {job.active && isWebUrl(job.url) ? (
        <p class="apply">
          <a class="button" href={job.url} rel="nofollow noopener">
            Apply on {job.company.name}’s site
          </a>
        </p>
      ) : null}
      <h2>Description</h2>
      <div class="description" dangerouslySetInnerHTML={{ __html: renderMarkdown(job.description) }} />
      {job.active || !isWebUrl(job.url) ? null : (
        <p>
          <a href={job.url} rel="nofollow noopener">
            The original posting
          </a>{' '}
          (may no longer be available)
        </p>
      )}
    </Layout>
  );
}
