import type { JobListItem } from '../../catalog/types.js';
import { FilterForm } from '../components/filter-form.js';
import { JobList } from '../components/job-list.js';
import { Pager } from '../components/pager.js';
import { type PageContext, queryString } from '../context.js';
import { plural, ROLE_LABELS } from '../format.js';
import { Layout } from '../layout.js';

export interface JobsData {
  /** The filter parameters and their schemas (src/catalog/fields/job-filters.ts). */
  params: Readonly<Record<string, unknown>>;
  /** The query as given: filters and search, no page. */
  values: Record<string, string | undefined>;
  jobs: JobListItem[];
  /** Jobs per role category with the other filters (the role_category facet). */
  roleCounts: Readonly<Record<string, number>>;
  /** Matching jobs; for a search, the size of its shortlist. */
  total: number;
  search: string | undefined;
  /** The most results a search ranks. */
  shortlist: number;
  page: number;
  lastPage: number;
  offset: number;
}

/** "42 jobs", or for a search "top 100 matches" when the shortlist is full: its total is the shortlist's size. */
function resultsText(d: JobsData): string {
  if (d.total === 0) return 'No jobs match';
  const shown = d.jobs.length ? ` · showing ${d.offset + 1}–${d.offset + d.jobs.length}` : '';
  if (d.search === undefined) return `${plural(d.total, 'job')}${shown}`;
  const head = d.total >= d.shortlist ? `Top ${d.total} matches` : plural(d.total, 'match', 'matches');
  return `${head} for “${d.search}”${shown}`;
}

function titleOf(values: JobsData['values']): string {
  const role = values.role_category as keyof typeof ROLE_LABELS | undefined;
  const what = role && ROLE_LABELS[role] ? `${ROLE_LABELS[role]} jobs` : 'Jobs';
  return values.search ? `${what} matching “${values.search}”` : what;
}

/** GET /jobs: the listing's filters as a form, the results, paging. */
export function JobsView(props: { ctx: PageContext; data: JobsData }) {
  const { ctx, data } = props;
  const title = titleOf(data.values);
  const head = {
    title,
    description: `${resultsText(data)}: client-facing and other roles at AI companies.`,
    feedQuery: queryString(data.values),
  };
  return (
    <Layout ctx={ctx} head={head}>
      <h1>{title}</h1>
      <div class="grid side">
        <FilterForm
          action="/jobs"
          params={data.params}
          values={data.values}
          optionLabels={{ role_category: ROLE_LABELS }}
          optionCounts={{ role_category: data.roleCounts }}
        />
        <section aria-labelledby="results">
          <p id="results" class="summary" role="status">
            {resultsText(data)}
          </p>
          <JobList jobs={data.jobs} />
          <Pager path="/jobs" query={data.values} page={data.page} lastPage={data.lastPage} />
        </section>
      </div>
    </Layout>
  );
}
