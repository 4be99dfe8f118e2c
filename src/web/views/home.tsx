import type { CatalogStats, JobListItem, RoleCategory } from '../../catalog/types.js';
import { JobList } from '../components/job-list.js';
import type { PageContext } from '../context.js';
import { countText, ROLE_LABELS } from '../format.js';
import { Layout } from '../layout.js';

export interface HomeData {
  categories: { category: RoleCategory; count: number }[];
  newest: JobListItem[];
  companies: { name: string; slug: string; count: number }[];
  stats: CatalogStats;
}

const DESCRIPTION =
  'Where AI companies hire for client-facing roles: forward deployed engineers, solutions engineers, customer ' +
  'success, technical account managers and more.';

function Stats(props: { stats: CatalogStats }) {
  const s = props.stats;
  return (
    <ul class="stats" aria-label="Catalog">
      <li>
        <strong>{countText(s.totalJobs)}</strong> active jobs
      </li>
      <li>
        <strong>{countText(s.totalCompanies)}</strong> companies
      </li>
      <li>
        <strong>{countText(s.newToday)}</strong> new today
      </li>
    </ul>
  );
}

/** GET /: search, the client-facing categories with counts, the newest such roles, who hires most, the totals. */
export function HomeView(props: { ctx: PageContext; data: HomeData }) {
  const { ctx, data } = props;
  return (
    <Layout
      ctx={ctx}
      head={{ title: 'Frontline', description: DESCRIPTION, feedQuery: '?client_facing=true' }}
    >
      <h1>Client-facing roles at AI companies</h1>
      <p class="muted">{DESCRIPTION}</p>
      <search>
        <form class="search" method="get" action="/jobs">
          <label for="q" class="muted">
            Search jobs
          </label>
          <input
            type="search"
            id="q"
            name="search"
            maxLength={200}
            placeholder="e.g. forward deployed engineer"
          />
          <button type="submit">Search</button>
        </form>
      </search>
      <Stats stats={data.stats} />
      <h2>Client-facing categories</h2>
      <ul class="cats">
        {data.categories.map((c) => (
          <li key={c.category}>
            <a href={`/jobs?role_category=${c.category}`}>
              <span>{ROLE_LABELS[c.category]}</span>
              <span class="count">{countText(c.count)}</span>
            </a>
          </li>
        ))}
      </ul>
      <div class="grid two">
        <section aria-labelledby="newest">
          <h2 id="newest">Newest client-facing roles</h2>
          <JobList jobs={data.newest} />
          <p>
            <a href="/jobs?client_facing=true">All client-facing roles →</a>
          </p>
        </section>
        <section aria-labelledby="hiring">
          <h2 id="hiring">Hiring most for them</h2>
          <ol class="jobs">
            {data.companies.map((c) => (
              <li key={c.slug}>
                <a class="title" href={`/companies/${c.slug}`}>
                  {c.name}
                </a>{' '}
                <a class="count" href={`/jobs?client_facing=true&company=${c.slug}`}>
                  {countText(c.count)} open
                </a>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </Layout>
  );
}
