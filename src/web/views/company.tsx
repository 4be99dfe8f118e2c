import type { CompanyDetail, JobListItem, RoleCategory } from '../../catalog/types.js';
import { isWebUrl } from '../../net/web-url.js';
import type { CompanyHiring } from '../../signals/service.js';
import { HiringChart } from '../components/hiring-chart.js';
import { JobList } from '../components/job-list.js';
import { Tags } from '../components/tags.js';
import { type PageContext, queryString } from '../context.js';
import { COMPANY_CATEGORY_LABELS, countText, plural, ROLE_LABELS } from '../format.js';
import { Layout } from '../layout.js';

export interface CompanyData {
  company: CompanyDetail;
  /** Its active jobs (up to the page's limit), grouped by role category in the vocabulary's order. */
  groups: { category: RoleCategory; jobs: JobListItem[] }[];
  /** Jobs listed in the groups: fewer than activeJobCount when the company has more than a page holds. */
  listed: number;
  /** Its hiring by week over the chart's range (the API's default: 52 weeks to today). */
  hiring: CompanyHiring;
}

function Facts(props: { company: CompanyDetail }) {
  const c = props.company;
  const rows: [string, string | null][] = [
    ['Category', COMPANY_CATEGORY_LABELS[c.category]],
    ['Headquarters', c.headquarters],
    ['Founded', c.foundedYear === null ? null : String(c.foundedYear)],
    ['Employees', c.employeeCount === null ? null : countText(c.employeeCount)],
    ['Funding', c.funding.summary],
  ];
  return (
    <dl class="facts">
      {isWebUrl(c.website) ? (
        <>
          <dt>Website</dt>
          <dd>
            <a href={c.website} rel="noopener">
              {c.domain}
            </a>
          </dd>
        </>
      ) : null}
      {rows
        .filter((r): r is [string, string] => r[1] !== null && r[1] !== '')
        .map(([k, v]) => (
          <>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </>
        ))}
    </dl>
  );
}

function Jobs(props: { ctx: PageContext; data: CompanyData }) {
  const { data } = props;
  const c = data.company;
  if (!data.groups.length) return <p>No open roles right now.</p>;
  return (
    <>
      {data.groups.map((g) => (
        <section aria-labelledby={`cat-${g.category}`} key={g.category}>
          <h3 id={`cat-${g.category}`}>
            {ROLE_LABELS[g.category]} <span class="count">({g.jobs.length})</span>
          </h3>
          <JobList jobs={g.jobs} showCompany={false} />
        </section>
      ))}
      {data.listed < c.activeJobCount ? (
        <p>
          <a href={`/jobs?company=${c.slug}`}>All {countText(c.activeJobCount)} jobs →</a>
        </p>
      ) : null}
    </>
  );
}

/** The API's weekly chart of the company's openings and closings, and how long its jobs stay open when known. */
function Hiring(props: { ctx: PageContext; company: CompanyDetail; hiring: CompanyHiring }) {
  const { company: c, hiring: h } = props;
  const src = `${props.ctx.apiPrefix}/companies/${c.id}/hiring${queryString({ format: 'svg', interval: 'week' })}`;
  const ttc = h.timeToClose;
  return (
    <section aria-labelledby="hiring">
      <h2 id="hiring">Hiring</h2>
      <HiringChart src={src} title={`${c.name}: hiring by week`} points={h.series} />
      {ttc.medianDays === null ? null : (
        <p>
          Jobs stay open a median of {plural(ttc.medianDays, 'day')} ({plural(ttc.closedJobs, 'job')} closed
          from {h.from} to {h.to}).
        </p>
      )}
      <p class="muted">
        <a href="/trends">Hiring across the catalog →</a>
      </p>
    </section>
  );
}

/** GET /companies/:slug: the company's metadata and tags, its research summary, its open roles by category, its hiring chart. */
export function CompanyView(props: { ctx: PageContext; data: CompanyData }) {
  const { ctx, data } = props;
  const c = data.company;
  const head = {
    title: c.name,
    description: `${c.name}: ${c.oneLiner || c.domain}. ${plural(c.activeJobCount, 'open role')}.`,
    feedQuery: `?company=${c.slug}`,
  };
  return (
    <Layout ctx={ctx} head={head}>
      {c.active ? null : (
        <p class="banner" role="note">
          This company is no longer listed.
        </p>
      )}
      <h1>{c.name}</h1>
      <p class="muted">{c.oneLiner}</p>
      <Tags tags={c.tags} />
      <div class="grid two">
        <section aria-labelledby="about">
          <h2 id="about">About</h2>
          {c.description ? <p>{c.description}</p> : null}
          <Facts company={c} />
        </section>
        {c.researchSummary ? (
          <section aria-labelledby="research">
            <h2 id="research">Research summary</h2>
            <p>{c.researchSummary}</p>
          </section>
        ) : null}
      </div>
      <h2>{plural(c.activeJobCount, 'open role')}</h2>
      <Jobs ctx={ctx} data={data} />
      <Hiring ctx={ctx} company={c} hiring={data.hiring} />
    </Layout>
  );
}
