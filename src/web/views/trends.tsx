import type { NewlyHiring, Trends } from '../../signals/service.js';
import { Control, type ParamSchema } from '../components/filter-form.js';
import { HiringChart } from '../components/hiring-chart.js';
import { type PageContext, queryString } from '../context.js';
import { countText, monthLabel, percent, plural, ROLE_LABELS } from '../format.js';
import { Layout } from '../layout.js';

export interface TrendsData {
  /** The role filters' query parameters and schemas, as declared in src/catalog/fields/. */
  params: Readonly<Record<string, unknown>>;
  values: Readonly<Record<string, string>>;
  /** The catalog by month over the chart's range, in the filtered categories. */
  trends: Trends;
  /** Companies newly hiring for client-facing roles. */
  newly: NewlyHiring;
  newlyDays: number;
}

/** What the counted categories are, in words. */
function scopeText(values: Readonly<Record<string, string>>): string {
  const category = values.role_category as keyof typeof ROLE_LABELS | undefined;
  const name = category ? ROLE_LABELS[category] : undefined;
  if (name) return values.client_facing === 'true' ? `${name} (client-facing only)` : name;
  return values.client_facing === 'true' ? 'client-facing roles' : 'every role';
}

/** A GET form: the URL it submits is the page's state, and the chart's URL carries the same filters. */
function RoleForm(props: { data: TrendsData }) {
  const { params, values } = props.data;
  return (
    <form class="filters" method="get" action="/trends" data-enhance="">
      {Object.entries(params).map(([name, schema]) => (
        <Control
          name={name}
          schema={schema as ParamSchema}
          value={values[name]}
          labels={name === 'role_category' ? ROLE_LABELS : undefined}
        />
      ))}
      <div>
        <button type="submit">Show</button> <a href="/trends">Clear</a>
      </div>
    </form>
  );
}

/** The share of client-facing roles among the jobs opened, per month. */
function RoleMix(props: { data: TrendsData }) {
  const { trends, values } = props.data;
  if (!trends.series.length) return <p>Nothing on record in this range.</p>;
  return (
    <table class="data">
      <caption>
        Jobs opened per month ({scopeText(values)}), and the share of client-facing roles among the jobs
        opened in every category, {trends.from} to {trends.to}.
      </caption>
      <thead>
        <tr>
          <th scope="col">Month</th>
          <th scope="col">Opened</th>
          <th scope="col">Client-facing opened</th>
          <th scope="col">Client-facing share</th>
        </tr>
      </thead>
      <tbody>
        {trends.series.map((p) => (
          <tr key={p.period}>
            <th scope="row">
              {monthLabel(p.period)}
              {p.partial ? <span class="muted"> (partial)</span> : null}
            </th>
            <td>{countText(p.opened)}</td>
            <td>{countText(p.clientFacingOpened)}</td>
            <td>{percent(p.clientFacingShare)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Newly(props: { data: TrendsData }) {
  const { newly, newlyDays } = props.data;
  if (!newly.companies.length)
    return <p>No company started hiring for client-facing roles in the last {newlyDays} days.</p>;
  return (
    <ul class="companies">
      {newly.companies.map((c) => (
        <li key={c.company.id}>
          <a class="title" href={`/companies/${c.company.slug}`}>
            {c.company.name}
          </a>
          <div class="meta">
            <span>First client-facing opening {c.firstOpenedOn}</span>
            {c.jobs.map((j) => (
              <a href={`/jobs/${j.id}`} key={j.id}>
                {j.title}
              </a>
            ))}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** GET /trends: hiring across the catalog by month, the role mix, and who just started hiring client-facing roles. */
export function TrendsView(props: { ctx: PageContext; data: TrendsData }) {
  const { ctx, data } = props;
  const src = `${ctx.apiPrefix}/trends${queryString({ ...data.values, interval: 'month', format: 'svg' })}`;
  const head = {
    title: 'Hiring trends',
    description:
      'Jobs opened and closed per month across the catalog, the share of client-facing roles among openings, ' +
      `and the companies that started hiring for client-facing roles in the last ${data.newlyDays} days.`,
  };
  return (
    <Layout ctx={ctx} head={head}>
      <h1>Hiring trends</h1>
      <p class="muted">
        From job events: jobs found when a company or board is first added count as coverage, not openings.
      </p>
      <div class="grid side">
        <RoleForm data={data} />
        <HiringChart
          src={src}
          title={`Hiring across the catalog by month (${scopeText(data.values)})`}
          points={data.trends.series}
        />
      </div>
      <section aria-labelledby="mix">
        <h2 id="mix">Role mix</h2>
        <RoleMix data={data} />
      </section>
      <section aria-labelledby="newly">
        <h2 id="newly">Newly hiring for client-facing roles</h2>
        <p class="muted">
          Companies whose first client-facing opening since we track them was in the last {data.newlyDays}{' '}
          days ({plural(data.newly.companies.length, 'company', 'companies')}), with the openings that did it.
        </p>
        <Newly data={data} />
      </section>
    </Layout>
  );
}
